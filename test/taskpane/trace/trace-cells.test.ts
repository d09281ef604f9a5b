// "Why this number" for the cells beyond a plain FINANCIAL: a company given by name (and every
// company's name from answers held), PRICE with a date, FINANCIALS with as_of or without headers,
// PRICES and VALUATION cells, the filing's XBRL fact, the LTM-estimate warning and the reason a
// function's cells are not traced; none of it sends a request beyond the disclosures list.
import { financial } from "../../../functions/financial-cell";
import { financials } from "../../../functions/financials";
import { price } from "../../../functions/price-cell";
import { prices } from "../../../functions/prices";
import { valuation } from "../../../functions/valuation";
import { company } from "../../../functions/company";
import { dividends } from "../../../functions/dividends";
import { invocation, resetSession, useSandbox, type Harness } from "../../functions/harness";
import {
  traceCell,
  type SelectedCell,
  type TraceDeps,
} from "../../../taskpane/trace/resolve-trace";
import { rerunFromMemory } from "../../../taskpane/trace/rerun";
import { heldListings, storedAnswer } from "../../../taskpane/trace/stored-answer";
import { namesFromListings } from "../../../taskpane/trace/company-trace";
import { xbrlQuery } from "../../../taskpane/trace/xbrl-fact";
import { ltmEstimate } from "../../../taskpane/trace/trace-model";
import type { FinancialsPeriod } from "../../../src/contract";
import { priceOnOrBefore } from "../../../src/domain/network-rules";

afterAll(resetSession);

function deps(h: Harness, extra: Partial<TraceDeps> = {}): TraceDeps {
  return {
    client: h.client,
    disclosures: (code) => h.client.securityDisclosures({ code }),
    stored: storedAnswer,
    rerun: rerunFromMemory,
    priceOnOrBefore: (code, day) =>
      priceOnOrBefore(h.client, code, day, { cache: "only-if-cached" }),
    ...extra,
  };
}

function cell(formula: string, args: unknown[], extra: Partial<SelectedCell> = {}): SelectedCell {
  return {
    address: "Model!B2",
    anchor: "Model!B2",
    formula,
    args,
    offset: { row: 0, col: 0 },
    value: null,
    shown: "",
    ...extra,
  };
}

/** Requests sent after `before` (the sandbox's request log). */
function sentSince(h: Harness, before: readonly string[]): string[] {
  return h.requests().slice(before.length);
}

describe("the company", () => {
  test("given by name: resolved through the cell's own look-up, named, no request but the disclosures list", async () => {
    const h = useSandbox();
    const value = await financial("大和自動車", "sales", -1, null, null, null, invocation());
    const before = h.requests();
    const trace = await traceCell(
      cell('=KAISHA.FINANCIAL("大和自動車","sales",-1)', ["大和自動車", "sales", -1]),
      deps(h, { names: namesFromListings(await heldListings()) }),
      "ja",
    );
    expect(trace.unresolved).toBeUndefined();
    expect(trace.apiValue).toBe(value);
    expect(trace.company?.code).toBe("7203");
    expect(trace.company?.name).toBe("大和自動車（サンプル）");
    expect(sentSince(h, before).every((r) => r.includes("/disclosures"))).toBe(true);
  });

  test("given by code: its name from the organization answer COMPANY holds; none when nothing holds it", async () => {
    const h = useSandbox();
    await financial("7203", "sales", -1, null, null, null, invocation());
    const c = cell('=KAISHA.FINANCIAL(7203,"sales",-1)', [7203, "sales", -1]);
    expect((await traceCell(c, deps(h), "en")).company?.name).toBeUndefined();
    await company("7203", invocation());
    const before = h.requests();
    const trace = await traceCell(c, deps(h), "en");
    expect(trace.company?.name).toMatch(/大和自動車/);
    expect(trace.company?.edinet).toMatch(/^E\d{5}$/);
    expect(sentSince(h, before)).toEqual([]);
  });
});

describe("PRICE, PRICES and VALUATION", () => {
  test("PRICE with a date: the last trading day on or before it, from the window the cell read, no request", async () => {
    const h = useSandbox();
    const close = await price("7203", "close", "2024-03-31", invocation());
    const before = h.requests();
    const trace = await traceCell(
      cell('=KAISHA.PRICE(7203,"close","2024-03-31")', [7203, "close", "2024-03-31"]),
      deps(h),
      "en",
    );
    expect(trace.unresolved).toBeUndefined();
    expect(trace.apiValue).toBe(close);
    expect(trace.period?.label).toBe("2024-03-29");
    expect(trace.source).toEqual(expect.objectContaining({ kind: "price", date: "2024-03-29" }));
    expect(trace.request?.endpoint).toBe("GET /securities/7203/prices");
    expect(trace.request?.params).toEqual(expect.objectContaining({ from: "2024-01-01" }));
    expect(sentSince(h, before)).toEqual([]);
  });

  test("a PRICES cell: its row's day and its column's field, equal to the API's row", async () => {
    const h = useSandbox();
    const table = (await prices(
      "7203",
      "2024-03-01",
      "2024-03-29",
      "close,volume",
      null,
      null,
      invocation(),
    )) as unknown[][];
    expect(table[0]).toEqual(["date", "close", "volume"]);
    const before = h.requests();
    const trace = await traceCell(
      cell('=KAISHA.PRICES(7203,"2024-03-01","2024-03-29","close,volume")', [
        7203,
        "2024-03-01",
        "2024-03-29",
        "close,volume",
      ]),
      deps(h),
      "en",
    );
    // The anchor itself is the header: a header cell says so.
    expect(trace.reason).toBe("header");
    const placed = await traceCell(
      cell(
        '=KAISHA.PRICES(7203,"2024-03-01","2024-03-29","close,volume")',
        [7203, "2024-03-01", "2024-03-29", "close,volume"],
        { offset: { row: 2, col: 2 }, spill: table },
      ),
      deps(h),
      "en",
    );
    expect(placed.item?.key).toBe("volume");
    expect(placed.apiValue).toBe(table[2]?.[2]);
    expect(placed.source?.kind).toBe("price");
    expect(sentSince(h, before)).toEqual([]);
  });

  test("a VALUATION cell: the fiscal year's figure with its PER source, traced to the year's filings", async () => {
    const h = useSandbox();
    const table = (await valuation(
      "7203",
      "per,pbr_adjusted",
      3,
      null,
      invocation(),
    )) as unknown[][];
    const trace = await traceCell(
      cell('=KAISHA.VALUATION(7203,"per,pbr_adjusted",3)', [7203, "per,pbr_adjusted", 3], {
        offset: { row: 1, col: 1 },
        spill: table,
      }),
      deps(h),
      "ja",
    );
    const body = await h.client.valuations({ security_code: "7203", years: 50 });
    const point = body.history.find((p) => p.fiscal_year === table[1]?.[0]);
    expect(trace.item?.key).toBe("per");
    expect(trace.apiValue).toBe(point?.per);
    expect(trace.qualifiers).toContainEqual({ code: "per_source", source: point?.per_source });
    expect(trace.request).toEqual({
      endpoint: "GET /valuations",
      params: { security_code: "7203", years: 50 },
    });
    expect(trace.source?.kind).toBe("filings");
  });
});

describe("FINANCIALS", () => {
  test("with as_of: the window the table asked (as_of month), its row and the API's figure", async () => {
    const h = useSandbox();
    const table = (await financials(
      "7203",
      "sales",
      null,
      2,
      "2022/03",
      null,
      null,
      null,
      invocation(),
    )) as unknown[][];
    const before = h.requests();
    const trace = await traceCell(
      cell('=KAISHA.FINANCIALS(7203,"sales",,2,"2022/03")', [7203, "sales", null, 2, "2022/03"], {
        offset: { row: 1, col: 2 },
        spill: table,
      }),
      deps(h),
      "en",
    );
    expect(trace.unresolved).toBeUndefined();
    expect(trace.period?.fiscal_year).toBe("2022/03");
    expect(trace.apiValue).toBe(table[1]?.[2]);
    expect(trace.request?.params).toEqual(expect.objectContaining({ as_of: "2022/03" }));
    expect(sentSince(h, before).every((r) => r.includes("/disclosures"))).toBe(true);
  });

  test("without headers: the table given again from memory places the cell (items_down has no label column then)", async () => {
    const h = useSandbox();
    const args = [7203, "sales,net_income", null, 3, null, null, null, 0];
    const table = (await financials(
      "7203",
      "sales,net_income",
      null,
      3,
      null,
      null,
      null,
      0,
      invocation(),
    )) as unknown[][];
    const headed = (await financials(
      "7203",
      "sales,net_income",
      null,
      3,
      null,
      null,
      null,
      1,
      invocation(),
    )) as unknown[][];
    const before = h.requests();
    const trace = await traceCell(
      cell('=KAISHA.FINANCIALS(7203,"sales,net_income",,3,,,,0)', args, {
        offset: { row: 1, col: 2 },
        spill: table,
      }),
      deps(h),
      "ja",
    );
    expect(trace.item?.key).toBe("net_income");
    expect(trace.period?.fiscal_year).toBe(String(headed[0]?.[3]));
    expect(trace.apiValue).toBe(table[1]?.[2]);
    expect(sentSince(h, before).every((r) => r.includes("/disclosures"))).toBe(true);
  });
});

describe("the filing's XBRL fact", () => {
  test("not held: offered as one request, never sent by the trace; once read, the fact equal to the figure", async () => {
    const h = useSandbox({
      sandbox: { now: "2026-11-20T00:00:00Z" },
      now: Date.parse("2026-11-20T00:00:00Z"),
    });
    const value = await financial("7203", "sales", -1, null, null, null, invocation());
    const c = cell('=KAISHA.FINANCIAL(7203,"sales",-1)', [7203, "sales", -1]);
    const first = await traceCell(c, deps(h), "ja");
    const before = h.requests();
    const again = await traceCell(c, deps(h), "ja");
    expect(sentSince(h, before)).toEqual([]);
    expect(again.xbrl?.state).toBe("askable");
    if (first.xbrl?.state !== "askable") throw new Error("no XBRL offered");
    await h.client.disclosure(xbrlQuery(first.xbrl.doc_id));
    const read = await traceCell(c, deps(h), "ja");
    if (read.xbrl?.state !== "held") throw new Error("XBRL not read");
    expect(read.xbrl.facts.length).toBeGreaterThan(0);
    for (const f of read.xbrl.facts) {
      expect(f.value).toBe(value);
      expect(f.context ?? "").not.toMatch(/^Prior/);
    }
    expect(read.xbrl.facts.map((f) => f.element_name).join(" ")).toMatch(/Revenue|NetSales/);
  });
});

test("a DIVIDENDS cell: the XBRL fact of the record's own source document, read on request", async () => {
  const h = useSandbox();
  const table = (await dividends("7203", null, null, null, invocation())) as unknown[][];
  const header = table[0] ?? [];
  const col = header.indexOf("annual_dps");
  // The latest year whose record has an annual DPS and an EDINET source document.
  const row = table.reduce((at, r, i) => (i > 0 && typeof r[col] === "number" ? i : at), -1);
  const c = cell("=KAISHA.DIVIDENDS(7203)", [7203], { offset: { row, col }, spill: table });
  const first = await traceCell(c, deps(h), "en");
  if (first.xbrl?.state !== "askable") throw new Error("no XBRL offered");
  expect(first.source?.kind === "refs" && first.source.refs.map((r) => r.doc_id)).toContain(
    first.xbrl.doc_id,
  );
  await h.client.disclosure(xbrlQuery(first.xbrl.doc_id));
  const read = await traceCell(c, deps(h), "en");
  if (read.xbrl?.state !== "held") throw new Error("XBRL not read");
  expect(read.xbrl.facts.map((f) => f.element_name)).toContain(
    "jpcrp_cor:DividendPaidPerShareSummaryOfBusinessResults",
  );
  for (const f of read.xbrl.facts) expect(f.value).toBe(read.apiValue);
});

describe("warnings and reasons", () => {
  test("an annual row fewer than 12 months after the previous one is an LTM estimate; a real year is not", () => {
    const rows = [
      { fiscal_year: "2022/12" },
      { fiscal_year: "2023/12" },
      { fiscal_year: "2024/03" },
      { fiscal_year: "2025/03" },
    ] as FinancialsPeriod[];
    expect(ltmEstimate(rows, rows[2] as FinancialsPeriod)).toEqual({
      code: "ltm_estimate",
      previous: "2023/12",
      months: 3,
    });
    expect(ltmEstimate(rows, rows[1] as FinancialsPeriod)).toBeUndefined();
    expect(ltmEstimate(rows, rows[3] as FinancialsPeriod)).toBeUndefined();
    expect(ltmEstimate(rows, rows[0] as FinancialsPeriod)).toBeUndefined();
  });

  test("the sandbox's fiscal-year change: the calendar year filled by a trailing-12-month figure is warned about, the years around it are not", async () => {
    const h = useSandbox();
    const body = await h.client.financials({ security_code: "2002", period: "annual", years: 30 });
    const labels = body.periods.map((p) => p.fiscal_year);
    // sandbox/data/companies.ts 2002: December year ends to 2014, then March.
    expect(labels).toEqual(expect.arrayContaining(["2014/12", "2015/03", "2016/03"]));
    const of = async (period: string, item = "sales") => {
      await financial("2002", item, period, null, null, null, invocation());
      const t = await traceCell(
        cell(`=KAISHA.FINANCIAL(2002,"${item}","${period}")`, [2002, item, period]),
        deps(h),
        "ja",
      );
      return t.qualifiers.filter((q) => q.code === "ltm_estimate");
    };
    expect(await of("2015/03")).toEqual([{ code: "ltm_estimate", previous: "2014/12", months: 3 }]);
    expect(await of("2016/03")).toEqual([]);
    expect(await of("2014/12")).toEqual([]);
    // A balance at the short period's end is real: no warning.
    expect(await of("2015/03", "total_assets")).toEqual([]);
  });

  test("a function whose cells have no filing says what its figures are instead", async () => {
    const h = useSandbox();
    const of = async (formula: string) =>
      (await traceCell(cell(formula, []), deps(h), "en")).reason;
    expect(await of('=KAISHA.SCREEN("per:lte:15")')).toBe("market");
    expect(await of("=KAISHA.OFFICERS(7203)")).toBe("records");
    expect(await of('=KAISHA.XBRL("S100ABCD","NetSales")')).toBe("own_fact");
    expect(await of("=KAISHA.MARGIN(7203)")).toBe("margin");
    expect(await of("=KAISHA.COMPANY(7203)")).toBe("card");
    expect(h.sent()).toBe(0);
  });
});
