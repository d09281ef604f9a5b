// One percent scale (README): every percentage a function writes is a fraction, the cell equal to the
// API value under the documented conversion (percent: api / 100; ratio: as sent), on every sandbox company.
import * as KAISHA from "../../functions/index";
import { createApp } from "../../sandbox/app";
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import { createClient, type KaishaClient, MemoryCacheStore } from "../../src/client";
import { FIELD_DICTIONARY, type Dataset } from "../../src/contract";
import { call } from "./call-by-name";
import { cellError, resetSession, useSandbox } from "./harness";
import { resolveEdinetCode } from "../../src/domain/edinet-resolution";

jest.setTimeout(300_000);
afterAll(resetSession);

type Grid = unknown[][];
type Rec = Record<string, unknown>;

/** What a cell holds, formatted or not. */
function raw(cell: unknown): unknown {
  return cell !== null && typeof cell === "object" && "basicValue" in cell
    ? (cell as { basicValue: unknown }).basicValue
    : cell;
}

/**
 * The documented conversion (README "Percentages"), written here apart from the add-in's code: a
 * `percent` value v is the double v / 100, a `ratio` value is as sent, null is an empty cell.
 */
function sheet(value: unknown, unit: string): unknown {
  if (value === null || value === undefined) return "";
  if (typeof value !== "number") throw new Error(`not a number: ${JSON.stringify(value)}`);
  return unit === "percent" ? value / 100 : value;
}

const PERCENTAGES = (dataset: Dataset) =>
  FIELD_DICTIONARY[dataset].filter((f) => f.unit === "percent" || f.unit === "ratio");

/** The reference answers: a sandbox of its own (same deterministic data), read by its own client. */
function referenceClient(): KaishaClient {
  const ref = createApp({ ratePerMinute: 0 });
  return createClient({
    baseUrl: "http://reference.test/v1",
    apiKey: DEMO_API_KEY,
    fetch: async (url, init) => {
      const u = new URL(url);
      return ref.app.request(`${u.pathname}${u.search}`, {
        method: init.method,
        headers: init.headers,
      });
    },
    ratePerMinute: 0,
    maxRetries: 0,
    cacheStore: new MemoryCacheStore(),
    sleep: async () => undefined,
  });
}

/** A cell's % format: "0%", "0.0%", "0.00%"… */
const PERCENT_FORMAT = /^0(\.0+)?%$/;

/**
 * Every percentage column of `grid` against the API records, rows matched by `rowKey` (the
 * table's own identifying columns). Returns the number of non-empty percentage cells compared.
 * Each cell is checked with Object.is (what toEqual does for a primitive: 0 is not -0) and the
 * mismatches are asserted at once: one jest `expect` per cell was most of this suite's CPU.
 */
function comparePercentages(
  grid: Grid,
  records: readonly Rec[],
  dataset: Dataset,
  rowKey: (get: (column: string) => unknown) => string,
): number {
  const header = grid[0] as string[];
  const byKey = new Map(records.map((r) => [rowKey((c) => r[c]), r]));
  expect(grid.length - 1).toBe(records.length);
  const fields = PERCENTAGES(dataset)
    .map((field) => ({ field, j: header.indexOf(field.key) }))
    .filter(({ j }) => j >= 0);
  const mismatches: unknown[][] = [];
  let compared = 0;
  for (const row of grid.slice(1)) {
    const key = rowKey((c) => raw(row[header.indexOf(c)]));
    const record = byKey.get(key);
    if (record === undefined) throw new Error(`no API record for row ${key}`);
    for (const { field, j } of fields) {
      const want = sheet(record[field.key], field.unit);
      const got = raw(row[j]);
      if (!Object.is(got, want)) mismatches.push([key, field.key, got, "want", want]);
      if (want === "") continue;
      compared += 1;
      const format = (row[j] as { numberFormat?: string }).numberFormat;
      if (format !== undefined && !(typeof format === "string" && PERCENT_FORMAT.test(format)))
        mismatches.push([key, field.key, format, "want a % format"]);
    }
  }
  expect(mismatches).toEqual([]);
  return compared;
}

describe("one percent scale on every sandbox company: cell === api / 100 (percent), api (ratio)", () => {
  let api: KaishaClient;
  let codes: string[];
  beforeAll(async () => {
    api = referenceClient();
    const listed: string[] = [];
    for await (const page of api.paginate("listSecurities", { limit: 500 })) {
      for (const s of page.securities) if (s.market !== null) listed.push(s.code);
    }
    codes = listed;
    expect(codes.length).toBeGreaterThan(20);
  });

  // One sweep, on a host with formatted numbers: the value (basicValue) and its % format.
  test("every percentage cell of FINANCIALS (annual, quarterly), VALUATION, SEGMENTS and DIVIDENDS is api / 100 (percent) or api (ratio), shown as %", async () => {
    useSandbox({ dataTypes: true });
    const compared: Record<string, number> = {};
    const count = (what: string, n: number) => (compared[what] = (compared[what] ?? 0) + n);
    for (const code of codes) {
      // A share class that is not its corporation's primary one has no data of its own (404).
      const primary = await api
        .financials({ security_code: code, period: "annual", years: 30 })
        .then(() => true)
        .catch((err: { code?: string }) =>
          err.code === "not_found" ? false : Promise.reject(err),
        );
      if (!primary) continue;
      for (const period of ["annual", "quarterly"] as const) {
        const body = await api.financials({ security_code: code, period, years: 30 });
        if (body.periods.length === 0) continue;
        const grid = await call<Grid>(KAISHA.FINANCIALS, code, {
          items: PERCENTAGES("financials")
            .map((f) => f.key)
            .join(","),
          period,
          years: 30,
          layout: "periods_down",
        });
        count(
          `financials ${period}`,
          comparePercentages(
            grid,
            body.periods as unknown as Rec[],
            "financials",
            (get) => `${String(get("fiscal_year"))} ${String(get("quarter") ?? "")}`,
          ),
        );
      }

      const val = await api.valuations({ security_code: code, years: 50 });
      if (val.history.length > 0) {
        const grid = await call<Grid>(KAISHA.VALUATION, code, {
          fields: PERCENTAGES("valuations")
            .map((f) => f.key)
            .join(","),
          years: 50,
        });
        count(
          "valuations",
          comparePercentages(
            grid,
            val.history.slice(0, 50) as unknown as Rec[],
            "valuations",
            (get) => String(get("fiscal_year")),
          ),
        );
      }

      const edinet = await resolveEdinetCode(api, code);
      for (const period of ["annual", "quarter"] as const) {
        const seg = await api.segments({ edinet_code: edinet, period });
        if (seg.segments.length === 0) continue;
        const grid = await call<Grid>(KAISHA.SEGMENTS, code, { period });
        count(
          `segments ${period}`,
          comparePercentages(
            grid,
            seg.segments as unknown as Rec[],
            "segments",
            (get) =>
              `${String(get("fiscal_year"))} ${String(get("quarter") ?? "")} ${String(get("segment_name"))}`,
          ),
        );
      }

      const div = await api.dividends({ edinet_code: edinet });
      if (div.records.length > 0) {
        const grid = await call<Grid>(KAISHA.DIVIDENDS, code);
        count(
          "dividends",
          comparePercentages(grid, div.records as unknown as Rec[], "dividends", (get) =>
            String(get("fiscal_year")),
          ),
        );
      }
    }
    // A test that compared nothing proves nothing: every dataset had real percentages.
    for (const what of [
      "financials annual",
      "financials quarterly",
      "valuations",
      "segments annual",
      "segments quarter",
      "dividends",
    ])
      expect([what, (compared[what] ?? 0) > 100]).toEqual([what, true]);
  });

  test("RANKINGS change_percent is the fraction api / 100", async () => {
    useSandbox();
    for (const metric of ["gainers", "losers"] as const) {
      const body = await api.rankings({ metric, limit: 100 });
      const grid = await call<Grid>(KAISHA.RANKINGS, metric, { limit: 100 });
      const j = (grid[0] as string[]).indexOf("change_percent");
      expect(grid.slice(1).map((r) => r[j])).toEqual(
        body.items.map((i) => sheet(i.change_percent, "percent")),
      );
    }
  });

  test("SCREEN: percent metrics as fractions, ratio metrics as sent, each as its catalogue unit says", async () => {
    useSandbox({ dataTypes: true });
    const catalogue = (await api.screeningFields()).fields;
    const percentages = catalogue.filter((f) => f.unit === "percent" || f.unit === "ratio");
    expect(percentages.some((f) => f.unit === "percent")).toBe(true);
    for (const field of percentages) {
      const body = await api.screening({ sort_by: field.key, limit: 30 });
      const grid = await call<Grid>(KAISHA.SCREEN, null, { sort_by: field.key, limit: 30 });
      const j = (grid[0] as string[]).indexOf(field.key);
      const cells = grid.slice(1).map((r) => r[j] as { basicValue: number; numberFormat: string });
      expect(cells.map((c) => c.basicValue)).toEqual(
        body.securities.map((s) =>
          sheet(s.metrics.find((m) => m.field === field.key)?.value, field.unit ?? ""),
        ),
      );
      expect(cells.map((c) => c.numberFormat).filter((f) => !PERCENT_FORMAT.test(f))).toEqual([]);
    }
  });
});

describe("regressions: one scale across functions", () => {
  test("payout_ratio reads on the same scale in FINANCIALS and DIVIDENDS (0.436, never 43.6 beside 0.436)", async () => {
    useSandbox();
    const fin = await call<Grid>(KAISHA.FINANCIALS, "7203", {
      items: "payout_ratio",
      years: 30,
      layout: "periods_down",
    });
    const div = await call<Grid>(KAISHA.DIVIDENDS, "7203");
    const finByYear = new Map(fin.slice(1).map((r) => [String(r[0]).slice(0, 4), r[1]]));
    const payout = (div[0] as string[]).indexOf("payout_ratio");
    let compared = 0;
    for (const row of div.slice(1)) {
      const a = finByYear.get(String(row[0]));
      const b = row[payout];
      if (typeof a !== "number" || typeof b !== "number") continue;
      // DIVIDENDS gives one decimal of percent (43.6): the same fraction to within its rounding.
      expect(Math.abs(a - b)).toBeLessThanOrEqual(0.0005 + 1e-12);
      expect(b).toBeGreaterThan(0);
      expect(b).toBeLessThan(2);
      compared += 1;
    }
    expect(compared).toBeGreaterThan(5);
  });

  test("roe and equity_ratio are on the same scale: ROE x equity ratio = net income / avg equity x equity / assets", async () => {
    useSandbox();
    const grid = await call<Grid>(KAISHA.FINANCIALS, "7203", {
      items: "net_income,owners_equity,total_assets,roe_computed,equity_ratio",
      years: 30,
      layout: "periods_down",
    });
    const col = (k: string) => (grid[0] as string[]).indexOf(k);
    const rows = grid.slice(1);
    let compared = 0;
    for (let i = 1; i < rows.length; i++) {
      const [prev, row] = [rows[i - 1] as unknown[], rows[i] as unknown[]];
      const ni = row[col("net_income")] as number;
      const oe = row[col("owners_equity")] as number;
      const oePrev = prev[col("owners_equity")] as number;
      const ta = row[col("total_assets")] as number;
      const roe = row[col("roe_computed")];
      const equityRatio = row[col("equity_ratio")];
      if (typeof roe !== "number" || typeof equityRatio !== "number") continue;
      // What an analyst types: =roe*equity_ratio beside =net_income/AVERAGE(equity)*equity/assets.
      const fromStatements = (ni / ((oe + oePrev) / 2)) * (oe / ta);
      expect(Math.abs(roe * equityRatio - fromStatements)).toBeLessThan(1e-4);
      expect(Math.abs(roe - ni / ((oe + oePrev) / 2))).toBeLessThan(1e-4);
      expect(Math.abs(equityRatio - oe / ta)).toBeLessThan(1e-4);
      compared += 1;
    }
    expect(compared).toBeGreaterThan(5);
  });

  test("FINANCIAL returns a percentage as a fraction with a % format (what the company sheet formats 0.0%)", async () => {
    const h = useSandbox({ dataTypes: true });
    const body = await h.client.financials({ security_code: "7203", period: "annual", years: 30 });
    const latest = body.periods[body.periods.length - 1] as unknown as Rec;
    const roe = (await call(KAISHA.FINANCIAL, "7203", { item: "roe_computed" })) as {
      basicValue: number;
      numberFormat: string;
    };
    expect(roe.basicValue).toBe((latest["roe_computed"] as number) / 100);
    expect(roe.numberFormat).toMatch(/^0(\.0+)?%$/);
    const equity = (await call(KAISHA.FINANCIAL, "7203", { item: "equity_ratio" })) as {
      basicValue: number;
    };
    expect(equity.basicValue).toBe(latest["equity_ratio"]);
  });

  test("COMPANY: the card's ROE and dividend yield are fractions like VALUATION's cells", async () => {
    useSandbox();
    const card = await call<Grid>(KAISHA.COMPANY, "7203");
    const header = card[0] as string[];
    const val = await call<Grid>(KAISHA.VALUATION, "7203", {
      fields: "dividend_yield_adjusted",
      years: 1,
    });
    expect(card[1]?.[header.indexOf("dividend_yield_adjusted")]).toBe(val[1]?.[1]);
  });

  test("Japanese headers say a percentage is in %, and the header typed back names the same field", async () => {
    useSandbox({ headerLanguage: "ja" });
    const grid = await call<Grid>(KAISHA.DIVIDENDS, "7203");
    expect(grid[0]).toContain("配当性向（%）");
    const byLabel = await call<Grid>(KAISHA.FINANCIALS, "7203", {
      items: "自己資本比率（%）",
      years: 1,
    });
    expect(byLabel[1]?.[0]).toBe("自己資本比率（%）");
  });
});

describe("SCREEN thresholds on the cells' scale", () => {
  test("dividendYield:gte:0.03 and dividendYield:gte:3% both mean 3%: the API is sent 3", async () => {
    const h = useSandbox();
    const fraction = await call<Grid>(KAISHA.SCREEN, "dividendYield:gte:0.03", { limit: 100 });
    const typed = await call<Grid>(KAISHA.SCREEN, "dividendYield:gte:3%", { limit: 100 });
    expect(typed).toEqual(fraction);
    // The Japanese header SCREEN shows, typed back with a % threshold: the same screen.
    const label = await call<Grid>(KAISHA.SCREEN, "配当利回り（%）:gte:3％", { limit: 100 });
    expect(label).toEqual(fraction);
    const screens = h.requests().filter((r) => r.startsWith("/v1/screening?"));
    // The same request both times: sent once, then answered from the cache.
    expect(screens).toHaveLength(1);
    expect(decodeURIComponent(screens[0] ?? "")).toContain("filters=dividendYield:gte:3&");
    const j = (fraction[0] as string[]).indexOf("dividendYield");
    expect(fraction.length).toBeGreaterThan(2);
    for (const row of fraction.slice(1)) expect(row[j] as number).toBeGreaterThanOrEqual(0.03);
  });

  test("an explicit unit keeps its scale: roe:gte:10:percent is roe:gte:0.1", async () => {
    useSandbox();
    const a = await call<Grid>(KAISHA.SCREEN, "roe:gte:10:percent", { limit: 50 });
    const b = await call<Grid>(KAISHA.SCREEN, "roe:gte:0.1", { limit: 50 });
    expect(a.slice(1)).toEqual(b.slice(1));
  });

  test("a ratio metric's threshold is already a fraction: equityRatio:gte:0.4 is sent as typed", async () => {
    const h = useSandbox();
    await call<Grid>(KAISHA.SCREEN, "equityRatio:gte:0.4", { limit: 5 });
    expect(
      decodeURIComponent(h.requests().find((r) => r.startsWith("/v1/screening?")) ?? ""),
    ).toContain("filters=equityRatio:gte:0.4&");
  });

  test("roe:gte:10 (10% on the API's old scale, 1000% on the cells') is #VALUE! saying how to write it; nothing is sent", async () => {
    const h = useSandbox({ lang: "ja" });
    const err = await cellError(call(KAISHA.SCREEN, "roe:gte:10"));
    expect(err.code).toBe("#VALUE!");
    expect(err.message).toContain("roe は小数（0.1 = 10%）：0.1、10% または 10:percent");
    expect(h.requests().filter((r) => r.startsWith("/v1/screening?"))).toEqual([]);
  });

  test("% on a metric that is not a percentage is #VALUE! and no screen is sent", async () => {
    const h = useSandbox();
    const err = await cellError(call(KAISHA.SCREEN, "per:lte:15%"));
    expect(err.code).toBe("#VALUE!");
    expect(err.message).toMatch(/per \(unit times\): % is only for percentage metrics/);
    expect(h.requests().filter((r) => r.startsWith("/v1/screening?"))).toEqual([]);
  });

  test("without the catalogue a unit-less threshold cannot be read on the right scale: nothing is sent", async () => {
    const h = useSandbox();
    h.setDown(true);
    const err = await cellError(call(KAISHA.SCREEN, "roe:gte:0.1"));
    expect(err.code).toBe("#N/A");
    // One attempt, at the catalogue; the screen itself was never tried (it would read 0.1 as 0.1%).
    expect(h.fetches()).toBe(1);
    // With every unit named, the screen goes without the catalogue (the API down answers #N/A).
    await cellError(call(KAISHA.SCREEN, "roe:gte:10:percent"));
    expect(h.fetches()).toBe(3);
  });
});
