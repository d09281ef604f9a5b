// What the functions give back: names as users type them, one column name per concept,
// Japanese title rows, unit formats, and a dividend traced to its filing in two formulas.
import * as KAISHA from "../../functions/index";
import { decimalsOf } from "../../src/excel/number-formats";
import { serialToIso } from "../../src/excel/dates";
import { call } from "./call-by-name";
import { cellError, resetSession, useSandbox } from "./harness";

jest.setTimeout(60_000);
afterAll(resetSession);

type Grid = unknown[][];
type Formatted = { type: "Double"; basicValue: number; numberFormat: string };

beforeAll(async () => {
  useSandbox();
  await call(KAISHA.FINANCIAL, "7203", { item: "sales" });
});

describe("item, field and metric names", () => {
  test("FINANCIAL takes the Japanese label and the camelCase form of a key, one request for all", async () => {
    const h = useSandbox();
    const sales = await call(KAISHA.FINANCIAL, "7203", { item: "sales" });
    expect(typeof sales).toBe("number");
    expect(await call(KAISHA.FINANCIAL, "7203", { item: "売上高" })).toBe(sales);
    expect(await call(KAISHA.FINANCIAL, "7203", { item: "operatingProfit" })).toBe(
      await call(KAISHA.FINANCIAL, "7203", { item: "営業利益" }),
    );
    expect(h.sent()).toBe(1);
  });

  test("a typo is #VALUE! naming the nearest key, in English and Japanese, with no request", async () => {
    const h = useSandbox();
    const en = await cellError(call(KAISHA.FINANCIAL, "7203", { item: "operating_income" }));
    expect(en.code).toBe("#VALUE!");
    expect(en.message).toMatch(
      /^item "operating_income": did you mean operating_profit \(営業利益\)\?/,
    );
    useSandbox({ lang: "ja" });
    const ja = await cellError(call(KAISHA.FINANCIALS, "7203", { items: "sales,revenu" }));
    expect(ja.message).toMatch(/^項目「revenu」：sales（売上高）のことですか？/);
    expect(h.sent()).toBe(0);
  });

  test("FINANCIALS items, PRICES/PRICE fields and VALUATION fields by Japanese label", async () => {
    useSandbox();
    const byLabel = await call<Grid>(KAISHA.FINANCIALS, "7203", {
      items: "売上高,親会社株主に帰属する当期純利益",
    });
    const byKey = await call<Grid>(KAISHA.FINANCIALS, "7203", { items: "sales,net_income" });
    expect(byLabel).toEqual(byKey);
    expect(await call(KAISHA.PRICE, "7203", { field: "終値" })).toBe(
      await call(KAISHA.PRICE, "7203", { field: "close" }),
    );
    const val = await call<Grid>(KAISHA.VALUATION, "7203", {
      fields: [["時価総額"], ["PER"]],
      years: 3,
    });
    expect(val[0]).toEqual(["fiscal_year", "market_cap", "per"]);
  });

  test("SCREEN takes snake_case, camelCase and Japanese metric names: one screening request", async () => {
    const h = useSandbox();
    const camel = await call<Grid>(KAISHA.SCREEN, "marketCap:gte:1000:hundred_million_jpy", {
      sort_by: "per",
    });
    const snake = await call<Grid>(KAISHA.SCREEN, "market_cap:gte:1000:hundred_million_jpy", {
      sort_by: "PER（実績）",
    });
    const label = await call<Grid>(KAISHA.SCREEN, "時価総額:gte:1000:hundred_million_jpy", {
      sort_by: "Per",
    });
    expect(snake).toEqual(camel);
    expect(label).toEqual(camel);
    expect(camel[0]).toEqual(["security_code", "edinet_code", "name", "marketCap", "per"]);
    expect(h.requests().filter((r) => r.startsWith("/v1/screening?"))).toHaveLength(1);
    expect(h.requests().filter((r) => r.startsWith("/v1/screening/fields"))).toHaveLength(1);
  });

  test("SECURITIES refuses a name that is not a TSE 33 industry without sending, naming the nearest", async () => {
    const h = useSandbox();
    const err = await cellError(call(KAISHA.SECURITIES, null, { industry: "電気" }));
    expect(err.code).toBe("#VALUE!");
    expect(err.message).toMatch(
      /^industry "電気": did you mean 電気機器 \(Electric appliances\)\?/,
    );
    expect(h.sent()).toBe(0);
    await call(KAISHA.SECURITIES, null, { industry: "Electric appliances", limit: 5 });
    await call(KAISHA.SECURITIES, null, { industry: "情報通信業", limit: 5 });
    expect(h.requests().map((r) => decodeURIComponent(r))).toEqual([
      "/v1/securities?industry=電気機器&limit=5",
      "/v1/securities?industry=情報・通信業&limit=5",
    ]);
  });
});

describe("one column name per concept", () => {
  test("security_code, industry, close and security_name across functions", async () => {
    useSandbox();
    const headers = async (grid: Promise<Grid>) => ((await grid)[0] as string[]) ?? [];
    const securities = await headers(call(KAISHA.SECURITIES, "7203"));
    const rankings = await headers(call(KAISHA.RANKINGS, "gainers", { limit: 3 }));
    const screen = await headers(call(KAISHA.SCREEN, "per:lte:15", { limit: 3 }));
    const peers = await headers(call(KAISHA.PEERS, "7203"));
    const margin = await headers(call(KAISHA.MARGIN, "7203"));
    const prices = await headers(call(KAISHA.PRICES, "7203"));
    for (const h of [securities, rankings, screen, peers]) {
      expect(h).toContain("security_code");
      expect(h).not.toContain("code");
    }
    for (const h of [securities, rankings, peers]) expect(h).toContain("industry");
    for (const h of [rankings, margin, prices]) expect(h).toContain("close");
    expect([...rankings, ...margin].some((k) => k === "close_price" || k === "industry_name")).toBe(
      false,
    );
  });
});

describe("Japanese headers", () => {
  test("title rows speak the header language: no 'financials annual (百万円)'", async () => {
    useSandbox({ headerLanguage: "ja" });
    const ja = await call<Grid>(KAISHA.FINANCIALS, "7203", {
      items: "sales",
      unit: "million_jpy",
      headers: 2,
    });
    expect(ja[0]?.[1]).toBe("財務諸表 通期（百万円）");
    expect(ja[1]?.[0]).toBe("項目");
    expect(ja[2]?.[0]).toBe("売上高");
    const div = await call<Grid>(KAISHA.DIVIDENDS, "7203", { headers: 2 });
    expect(div[0]?.[1]).toBe("配当");
    expect(div[1]?.slice(-3)).toEqual(["書類ID", "情報源", "出典書類"]);
    useSandbox({ headerLanguage: "keys", lang: "ja" });
    const en = await call<Grid>(KAISHA.FINANCIALS, "7203", {
      items: "sales",
      unit: "million_jpy",
      headers: 2,
    });
    expect(en[0]?.[1]).toBe("financials annual (million JPY)");
  });
});

describe("formatted numbers (CustomFunctionsRuntime 1.4)", () => {
  test("money with separators in the unit asked for, every percentage a fraction with a % format, per-share decimals", async () => {
    useSandbox({ dataTypes: true });
    const grid = await call<Grid>(KAISHA.FINANCIALS, "7203", {
      items: "sales,equity_ratio,roe,eps,shares_outstanding",
      unit: "million_jpy",
      years: 3,
    });
    // Null values are empty cells (""), which carry no format.
    const row = (key: string) =>
      (grid.find((r) => r[0] === key) as unknown[])
        .slice(1)
        .filter((c): c is Formatted => typeof c === "object");
    for (const key of ["sales", "equity_ratio", "eps"]) expect(row(key).length).toBeGreaterThan(0);
    for (const c of row("sales")) expect(c.numberFormat).toBe("#,##0");
    for (const c of row("equity_ratio")) expect(c.numberFormat).toMatch(/^0(\.0+)?%$/);
    for (const c of row("roe")) expect(c.numberFormat).toMatch(/^0(\.0+)?%$/);
    for (const c of row("eps")) {
      const d = Math.min(2, decimalsOf(c.basicValue));
      expect(c.numberFormat).toBe(d === 0 ? "#,##0" : `#,##0.${"0".repeat(d)}`);
    }
    for (const c of row("shares_outstanding")) expect(c.numberFormat).toBe("#,##0");
    // getDividends payout_ratio is `percent` (43.6): the cell is the fraction 0.436 shown as %.
    const div = await call<Grid>(KAISHA.DIVIDENDS, "7203");
    const payout = (div[0] as string[]).indexOf("payout_ratio");
    const percents = div
      .slice(1)
      .map((r) => r[payout])
      .filter((c): c is Formatted => typeof c === "object");
    expect(percents.length).toBeGreaterThan(0);
    for (const c of percents) expect(c.numberFormat).toMatch(/^0(\.0+)?%$/);
    // The value is the API's scaled, never rounded by the format.
    useSandbox();
    const plain = await call<Grid>(KAISHA.FINANCIALS, "7203", {
      items: "sales",
      unit: "million_jpy",
      years: 3,
    });
    expect(row("sales").map((c) => c.basicValue)).toEqual(plain[1]?.slice(1));
  });

  test("COMPANY card properties carry their unit's format", async () => {
    useSandbox({ dataTypes: true });
    const card = ((await call<Grid>(KAISHA.COMPANY, "7203"))[0]?.[0] ?? {}) as {
      properties: Record<string, { numberFormat?: string }>;
    };
    expect(card.properties["market_cap"]?.numberFormat).toBe("#,##0");
    expect(card.properties["dividend_yield_adjusted"]?.numberFormat).toMatch(/^0(\.0+)?%$/);
    expect(card.properties["per"]?.numberFormat).toMatch(/^#,##0(\.0+)?$/);
  });

  test("XBRL facts: yen with separators, per-share values with their decimals, codes as text", async () => {
    useSandbox({ dataTypes: true });
    const list = await call<Grid>(KAISHA.DISCLOSURES, "7203", {
      document_type: "有価証券報告書",
      limit: 1,
    });
    const docId = list[1]?.[(list[0] as string[]).indexOf("doc_id")];
    const facts = await call<Grid>(KAISHA.DOCUMENT, docId, { part: "xbrl", headers: 0 });
    const yen = facts.filter((f) => f[5] === "JPY").map((f) => f[4] as Formatted);
    expect(yen.length).toBeGreaterThan(0);
    for (const c of yen) expect(c.numberFormat).toBe("#,##0");
    const eps = facts.filter((f) => f[5] === "JPYPerShares").map((f) => f[4] as Formatted);
    for (const c of eps) expect(c.numberFormat).toMatch(/^#,##0(\.0+)?$/);
    expect(facts.find((f) => String(f[0]).endsWith("SecurityCodeDEI"))?.[4]).toBe("72030");
  });

  test("an LTM sum carries no float noise: rounded to the precision of its quarters", async () => {
    useSandbox();
    const quarters = await call<Grid>(KAISHA.FINANCIALS, "7203", {
      items: "eps",
      period: "quarterly",
      years: 3,
      layout: "periods_down",
      headers: 0,
    });
    const precision = Math.max(...quarters.map((r) => decimalsOf(Number(r[2]) || 0)));
    const ltm = (await call(KAISHA.FINANCIAL, "7203", { item: "eps", period: "LTM" })) as number;
    expect(typeof ltm).toBe("number");
    expect(String(ltm).split(".")[1]?.length ?? 0).toBeLessThanOrEqual(precision);
  });
});

describe("cell -> source", () => {
  test("a dividend traced to its filing in two formulas: DIVIDENDS' doc_id into DOCUMENT and SECTION", async () => {
    const h = useSandbox();
    const div = await call<Grid>(KAISHA.DIVIDENDS, "7203", {
      from_fiscal_year: 2022,
      to_fiscal_year: 2022,
    });
    const header = div[0] as string[];
    const row = div[1] as unknown[];
    const docId = String(row[header.indexOf("doc_id")]);
    const source = row[header.indexOf("source")];
    expect(docId).not.toBe("");
    expect(String(row[header.indexOf("source_refs")])).toContain(docId);
    const meta = await call<Grid>(KAISHA.DOCUMENT, docId);
    const metaHeader = meta[0] as string[];
    expect(meta[1]?.[metaHeader.indexOf("doc_id")]).toBe(docId);
    expect(meta[1]?.[metaHeader.indexOf("source")]).toBe(source);
    // The filing follows the fiscal year it reports (FY ending 2022 -> filed in 2022 or 2023).
    const filed = serialToIso(meta[1]?.[metaHeader.indexOf("filing_date")] as number);
    expect(filed >= "2022-01-01" && filed <= "2023-12-31").toBe(true);
    const sections = await call<Grid>(KAISHA.DOCUMENT, docId, {
      part: "available_sections",
      headers: 0,
    });
    const first = String(sections[0]?.[0]);
    const text = await call<Grid>(KAISHA.SECTION, docId, { section: first });
    expect(text.length).toBeGreaterThan(0);
    expect(typeof text[0]?.[0]).toBe("string");
    expect(h.requests().filter((r) => r.startsWith("/v1/disclosures/"))).toHaveLength(3);
  });
});
