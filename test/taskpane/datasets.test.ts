// taskpane/state/datasets against the in-process sandbox: every dataset imports as a typed table.

import { sandboxClient } from "./sandbox-client";
import {
  IMPORT_DATASETS,
  checkParams,
  defaultParams,
  fetchDatasetTable,
  fetchScreeningTable,
  normalizeParams,
  type DatasetId,
  type ParamValues,
} from "../../taskpane/state/datasets";
import { resolveEdinetCode } from "../../src/domain/edinet-resolution";
import { widestFinancials } from "../../src/domain/financials-window";

const CODE = "7203";

// The sandbox builds its deterministic dataset on first use (seconds on a busy machine).
beforeAll(async () => {
  await sandboxClient().client.financials({ security_code: CODE });
}, 120_000);

function paramsFor(dataset: DatasetId): ParamValues {
  const p = defaultParams(dataset);
  for (const k of ["code", "security_code"]) if (k in p) p[k] = CODE;
  return p;
}

test.each(IMPORT_DATASETS.filter((d) => d !== "disclosures" && d !== "prices"))(
  "%s imports rows with headers, formats and the attribution",
  async (dataset) => {
    const { client } = sandboxClient();
    const table = await fetchDatasetTable(dataset, paramsFor(dataset), { client, lang: "ja" });
    expect(table.rows.length).toBeGreaterThan(0);
    expect(table.columns.length).toBeGreaterThan(1);
    for (const row of table.rows) expect(row).toHaveLength(table.columns.length);
    expect(table.attribution?.source_label).toBeTruthy();
    // Every cell is a number, text or boolean: nothing nested leaks through.
    for (const row of table.rows)
      for (const v of row) expect(["number", "string", "boolean"]).toContain(typeof v);
  },
);

test("financials: money in yen shown in 百万円 by format with 百万円 headers, per-share untouched, one request", async () => {
  const { client, requests } = sandboxClient();
  const table = await fetchDatasetTable("financials", paramsFor("financials"), {
    client,
    lang: "ja",
    headers: "ja",
  });
  const sales = table.columns.findIndex((c) => c.key === "sales");
  const eps = table.columns.findIndex((c) => c.key === "eps");
  expect(table.columns[sales]?.header).toMatch(/（百万円）$/);
  expect(table.columns[sales]?.numberFormat).toBe("#,##0,,");
  expect(table.columns[eps]?.numberFormat).toBe("#,##0.00");
  expect(table.columns.find((c) => c.key === "fiscal_year")?.numberFormat).toBe("@");
  // 連結 is a real boolean (TRUE/FALSE in Excel), never the text "true".
  const consolidated = table.columns.findIndex((c) => c.key === "is_consolidated");
  expect(table.columns[consolidated]).toMatchObject({ header: "連結", kind: "boolean" });
  for (const row of table.rows) expect(typeof row[consolidated]).toBe("boolean");
  const raw = (await widestFinancials(client, { security_code: CODE, years: 10 })).periods;
  const last = raw[raw.length - 1]!;
  expect(table.rows[table.rows.length - 1]?.[sales]).toBe(last.sales);
  expect(requests().filter((r) => r.startsWith("/v1/financials"))).toHaveLength(1);
});

test("prices: every page is followed (500 rows a page) and dates become serials", async () => {
  const { client, requests } = sandboxClient();
  const progress: number[] = [];
  const table = await fetchDatasetTable(
    "prices",
    { code: CODE, from: "2023-01-01", to: "2026-11-19" },
    { client, lang: "en", onProgress: (n) => progress.push(n) },
  );
  const pages = requests().filter((r) => r.includes("/prices"));
  expect(pages.length).toBeGreaterThan(1);
  expect(table.rows.length).toBeGreaterThan(500);
  expect(progress[progress.length - 1]).toBe(table.rows.length);
  const date = table.columns.findIndex((c) => c.key === "date");
  expect(table.columns[date]?.numberFormat).toBe("yyyy/mm/dd");
  expect(typeof table.rows[0]?.[date]).toBe("number");
});

test("headers are field keys by default, like the functions' header cells", async () => {
  const { client } = sandboxClient();
  const table = await fetchDatasetTable("financials", paramsFor("financials"), {
    client,
    lang: "ja",
  });
  expect(table.columns.slice(0, 2).map((c) => c.header)).toEqual([
    "fiscal_year",
    "accounting_standard",
  ]);
  expect(table.columns.find((c) => c.key === "sales")?.header).toBe("sales");
});

test("disclosures: links are link columns, disclosed_at a JST date-time serial", async () => {
  const { client } = sandboxClient();
  const table = await fetchDatasetTable("disclosures", { code: CODE }, { client, lang: "ja" });
  expect(table.rows.length).toBeGreaterThan(0);
  expect(table.columns.find((c) => c.key === "source_url")?.kind).toBe("link");
  expect(table.columns.find((c) => c.key === "disclosed_at")?.numberFormat).toBe(
    "yyyy/mm/dd hh:mm",
  );
});

test("an EDINET-keyed dataset resolves a security code once", async () => {
  const { client, requests } = sandboxClient();
  await fetchDatasetTable("dividends", paramsFor("dividends"), { client, lang: "ja" });
  await fetchDatasetTable("segments", paramsFor("segments"), { client, lang: "ja" });
  const resolutions = requests().filter(
    (r) => !r.startsWith("/v1/dividends") && !r.startsWith("/v1/segments"),
  );
  expect(resolutions.length).toBeLessThanOrEqual(1);
});

test("screening import: one column per referenced metric, all pages", async () => {
  const { client, requests } = sandboxClient();
  const fields = (await client.screeningFields()).fields;
  const per = fields.find((f) => f.key === "per");
  expect(per).toBeDefined();
  const metrics = new Map([["per", { label: per!.label, unit: per!.unit ?? null }]]);
  const table = await fetchScreeningTable({ filters: "per:gt:0", limit: 100 }, metrics, {
    client,
    lang: "ja",
  });
  expect(table.columns.map((c) => c.key)).toEqual(["security_code", "edinet_code", "name", "per"]);
  const first = await client.screening({ filters: "per:gt:0", limit: 100 });
  expect(table.rows).toHaveLength(first.total_count);
  expect(requests().filter((r) => r.startsWith("/v1/screening?")).length).toBeGreaterThanOrEqual(
    Math.ceil(first.total_count / 100),
  );
});

test("a screen imported with Japanese headers gets Japanese headers with unit notes", async () => {
  const { client } = sandboxClient();
  const metrics = new Map([
    ["per", { label: "PER（実績）", unit: "times" }],
    ["marketCap", { label: "時価総額", unit: "jpy" }],
  ]);
  const table = await fetchScreeningTable(
    { filters: "per:lte:15", sort_by: "marketCap", limit: 100 },
    metrics,
    { client, lang: "ja", headers: "ja" },
  );
  expect(table.columns.map((c) => c.header)).toEqual([
    "証券コード",
    "EDINETコード",
    "名称",
    "PER（実績）（倍）",
    // /screening/fields does not say which jpy metric is a price (closePrice): yen as yen.
    "時価総額（円）",
  ]);
});

test("codes and numbers typed in full width with a Japanese IME are accepted as half width", () => {
  const params = normalizeParams({
    security_code: " ７２０３ ",
    years: "１０",
    unit: "million_jpy",
  });
  expect(params).toEqual({ security_code: "7203", years: "10", unit: "million_jpy" });
  expect(checkParams("financials", params)).toEqual([]);
  expect(normalizeParams({ code: "１３０Ａ" })).toEqual({ code: "130A" });
});

test("parameter checks run before any request", () => {
  expect(checkParams("financials", { security_code: "", years: "10" })).toEqual([
    { param: "security_code", reason: "missing" },
  ]);
  expect(checkParams("financials", { security_code: "7203", years: "31" })).toEqual([
    { param: "years", reason: "out_of_range" },
  ]);
  expect(checkParams("prices", { code: "7203", from: "2025/01/01" })).toEqual([
    { param: "from", reason: "invalid_format" },
  ]);
  expect(checkParams("dividends", { security_code: "E02144" })).toEqual([]);
});

test("percentages import as fractions with a % format, the cell equal to api / 100 (percent) or api (ratio)", async () => {
  const { client } = sandboxClient();
  // dividends: payout_ratio, doe, net_asset_dividend_rate are `percent` in getDividends.
  const div = await fetchDatasetTable("dividends", paramsFor("dividends"), {
    client,
    lang: "ja",
    headers: "ja",
  });
  const edinet = await resolveEdinetCode(client, CODE);
  const records = (await client.dividends({ edinet_code: edinet })).records;
  const payout = div.columns.findIndex((c) => c.key === "payout_ratio");
  // A percent format with the column's own decimals (as DIVIDENDS formats them).
  expect(div.columns[payout]?.numberFormat).toMatch(/^0(\.0{1,2})?%$/);
  expect(div.columns[payout]?.header).toBe("配当性向（%）");
  const year = div.columns.findIndex((c) => c.key === "fiscal_year");
  let compared = 0;
  for (const row of div.rows) {
    const record = records.find((r) => String(r.fiscal_year) === String(row[year]));
    const api = record?.payout_ratio;
    expect(row[payout]).toBe(typeof api === "number" ? api / 100 : "");
    if (typeof api === "number") compared += 1;
  }
  expect(compared).toBeGreaterThan(3);
  // financials: equity_ratio is `ratio` (as sent), roe `percent` (/ 100): one scale side by side.
  const fin = await fetchDatasetTable("financials", paramsFor("financials"), {
    client,
    lang: "en",
  });
  const periods = (await widestFinancials(client, { security_code: CODE, years: 10 })).periods;
  const last = periods[periods.length - 1]!;
  const row = fin.rows[fin.rows.length - 1]!;
  const col = (k: string) => fin.columns.findIndex((c) => c.key === k);
  expect(row[col("equity_ratio")]).toBe(last.equity_ratio ?? "");
  expect(row[col("roe_computed")]).toBe(
    typeof last.roe_computed === "number" ? last.roe_computed / 100 : "",
  );
  expect(fin.columns[col("roe_computed")]?.numberFormat).toBe("0.00%");
  expect(fin.columns[col("equity_ratio")]?.numberFormat).toBe("0.00%");
});

test("a screen's percent metric imports as a fraction; its ratio metric as sent", async () => {
  const { client } = sandboxClient();
  const metrics = new Map([
    ["roe", { label: "ROE", unit: "percent" }],
    ["equityRatio", { label: "自己資本比率", unit: "ratio" }],
  ]);
  const query = { filters: "roe:gt:0,equityRatio:gt:0", limit: 100 };
  const table = await fetchScreeningTable(query, metrics, { client, lang: "ja" });
  const api = new Map<string, Record<string, number>>();
  for await (const page of client.paginate("getScreening", query))
    for (const s of page.securities)
      api.set(s.security_code, Object.fromEntries(s.metrics.map((m) => [m.field, m.value])));
  const code = table.columns.findIndex((c) => c.key === "security_code");
  const roe = table.columns.findIndex((c) => c.key === "roe");
  const eq = table.columns.findIndex((c) => c.key === "equityRatio");
  expect(table.rows.length).toBeGreaterThan(0);
  expect(table.rows).toHaveLength(api.size);
  for (const row of table.rows) {
    const sent = api.get(String(row[code]));
    expect(row[roe]).toBe((sent?.["roe"] as number) / 100);
    expect(row[eq]).toBe(sent?.["equityRatio"]);
  }
  expect(table.columns[roe]?.numberFormat).toBe("0.00%");
});
