// Every other KAISHA function against the in-process sandbox: shapes, header modes, dates as
// serials (formatted where supported), units, Japanese headers and request counts.
import * as TYPED from "../../functions/index";

/** The wrappers as Excel calls them: any value for any argument (custom-enum types are suggestions). */
const KAISHA = TYPED as unknown as Record<
  keyof typeof TYPED,
  (...args: unknown[]) => Promise<unknown>
>;
import { FIELD_DICTIONARY } from "../../src/contract";
import { isoToSerial, jstIsoDate, serialToIso } from "../../src/excel/dates";
import { cellError, invocation, resetSession, useSandbox } from "./harness";

jest.setTimeout(60_000);
afterAll(resetSession);

type Grid = unknown[][];
const inv = (): CustomFunctions.CancelableInvocation =>
  invocation() as CustomFunctions.CancelableInvocation;
const DATE = { type: "Double", numberFormat: "yyyy/mm/dd" };

beforeAll(async () => {
  useSandbox();
  await KAISHA.PRICE("7203", null, null, inv());
});

describe("VALUATION", () => {
  test("history newest first with order desc, fiscal_year first; years cut locally from one request", async () => {
    const h = useSandbox();
    const three = (await KAISHA.VALUATION(
      "7203",
      null as never,
      3,
      null,
      "desc",
      null,
      inv(),
    )) as Grid;
    expect(three).toHaveLength(4);
    expect(three[0]?.[0]).toBe("fiscal_year");
    expect(String(three[1]?.[0]) > String(three[2]?.[0])).toBe(true);
    const ten = (await KAISHA.VALUATION(
      "7203",
      [["per"], ["pbr_adjusted"]],
      10,
      0,
      null,
      null,
      inv(),
    )) as Grid;
    expect(ten).toHaveLength(10);
    expect(ten[0]).toHaveLength(3);
    expect(h.sent()).toBe(1);
  });
  test('"per_5y_avg" alone is one number', async () => {
    useSandbox();
    const v = (await KAISHA.VALUATION(
      "7203",
      [["per_5y_avg"]],
      null,
      null,
      null,
      null,
      inv(),
    )) as Grid;
    expect(v).toHaveLength(1);
    expect(typeof v[0]?.[0]).toBe("number");
  });
  test('"per_5y_avg" with other keys is #VALUE! saying it stands alone, nothing sent', async () => {
    const h = useSandbox();
    const err = await cellError(
      KAISHA.VALUATION("7203", [["per"], ["per_5y_avg"]], null, null, null, null, inv()),
    );
    expect(err).toEqual({
      code: "#VALUE!",
      message:
        'fields: use "per_5y_avg" alone (one number), or history keys from =KAISHA.FIELDS("valuations")',
    });
    expect(h.sent()).toBe(0);
  });
});

describe("PRICES and PRICE", () => {
  test('"date" in the fields list is accepted: the date column stays first, once', async () => {
    useSandbox();
    const grid = (await KAISHA.PRICES(
      "7203",
      "2024-04-01",
      "2024-04-05",
      "date,close" as never,
      null,
      null,
      inv(),
    )) as Grid;
    expect(grid[0]).toEqual(["date", "close"]);
    const only = (await KAISHA.PRICES(
      "7203",
      "2024-04-01",
      "2024-04-05",
      [["date"]],
      null,
      null,
      inv(),
    )) as Grid;
    expect(only[0]).toEqual(["date"]);
  });
  test("a range ending before 2005 is #N/A saying so, with nothing sent", async () => {
    const h = useSandbox({ lang: "ja" });
    const err = await cellError(
      KAISHA.PRICES("7203", "2000-01-01", "2004-12-30", null as never, null, null, inv()),
    );
    expect(err).toEqual({ code: "#N/A", message: "2005-01-01 より前の株価はありません" });
    expect(h.sent()).toBe(0);
  });
  test("a 5-year range follows every page; dates are serials; asc reverses", async () => {
    const h = useSandbox();
    const desc = (await KAISHA.PRICES(
      "7203",
      "2020-01-01",
      "2024-12-31",
      null as never,
      "desc",
      null,
      inv(),
    )) as Grid;
    expect(desc[0]).toEqual(["date", "open", "high", "low", "close", "adj_close", "volume"]);
    expect(desc.length).toBeGreaterThan(1_200);
    expect(h.sent()).toBeGreaterThanOrEqual(3); // 500 rows per page
    expect(desc[1]?.[0]).toBeLessThanOrEqual(isoToSerial("2024-12-31") as number);
    expect(desc[desc.length - 1]?.[0]).toBeGreaterThanOrEqual(isoToSerial("2020-01-01") as number);
    const asc = (await KAISHA.PRICES(
      "7203",
      "2020-01-01",
      "2024-12-31",
      [["close"]],
      "asc",
      0,
      inv(),
    )) as Grid;
    expect(asc).toHaveLength(desc.length - 1);
    expect(asc[0]?.[0]).toBe(desc[desc.length - 1]?.[0]);
    expect(asc[0]?.[1]).toBe(desc[desc.length - 1]?.[4]);
  });
  test("formatted dates where the host supports data types", async () => {
    useSandbox({ dataTypes: true });
    const grid = (await KAISHA.PRICES(
      "7203",
      "2024-03-01",
      "2024-03-31",
      [["close"]],
      null,
      null,
      inv(),
    )) as Grid;
    expect(grid[1]?.[0]).toMatchObject(DATE);
    // A price is yen as sent, with separators and its own decimals (number-formats.ts).
    expect(grid[1]?.[1]).toMatchObject({
      type: "Double",
      numberFormat: expect.stringMatching(/^#,##0/),
    });
  });
  test("PRICE: the latest close, and the last trading day on or before a date", async () => {
    useSandbox();
    const latest = (await KAISHA.PRICES("7203", null, null, [["close"]], "desc", 0, inv())) as Grid;
    expect(await KAISHA.PRICE("7203", null, null, inv())).toBe(latest[0]?.[1]);
    // 2024-03-31 is a Sunday: the answer is Friday 2024-03-29's.
    const friday = (await KAISHA.PRICES(
      "7203",
      "2024-03-29",
      "2024-03-29",
      [["close"]],
      null,
      0,
      inv(),
    )) as Grid;
    expect(await KAISHA.PRICE(7203, "close", isoToSerial("2024-03-31"), inv())).toBe(
      friday[0]?.[1],
    );
    expect(await KAISHA.PRICE("7203", "date", "2024-03-31", inv())).toBe(isoToSerial("2024-03-29"));
  });
  test("from after to is #VALUE! naming from, nothing sent", async () => {
    const h = useSandbox();
    const err = await cellError(
      KAISHA.PRICES("7203", "2024-05-01", "2024-04-01", null as never, null, null, inv()),
    );
    expect(err.code).toBe("#VALUE!");
    expect(err.message).toMatch(/^from /);
    expect(h.sent()).toBe(0);
  });
  test("an unknown field is #VALUE!", async () => {
    const h = useSandbox();
    expect((await cellError(KAISHA.PRICE("7203", "vwap", null, inv()))).code).toBe("#VALUE!");
    expect(h.sent()).toBe(0);
  });
});

describe("RANKINGS, SCREEN, SCREENFIELDS, FIELDS, SECURITIES", () => {
  test("RANKINGS: columns and the target date in the title row", async () => {
    useSandbox();
    const grid = (await KAISHA.RANKINGS("gainers", 5, 2, inv())) as Grid;
    expect(grid[1]).toEqual([
      "rank",
      "security_code",
      "name",
      "industry",
      "close",
      "change_percent",
      "volume",
    ]);
    expect(grid).toHaveLength(7);
    expect(typeof grid[0]?.[2]).toBe("number");
    expect((await cellError(KAISHA.RANKINGS("best", null, null, inv()))).code).toBe("#VALUE!");
  });
  test("SCREEN: codes, name, then one column per referenced metric", async () => {
    useSandbox();
    const grid = (await KAISHA.SCREEN(
      [["per:lte:20"], ["pbr:lte:2"]],
      "marketCap",
      null,
      null as never,
      null as never,
      null,
      5,
      null,
      null,
      inv(),
    )) as Grid;
    expect(grid[0]).toEqual(["security_code", "edinet_code", "name", "per", "pbr", "marketCap"]);
    for (const row of grid.slice(1)) {
      expect(row[3]).toBeLessThanOrEqual(20);
      expect(typeof row[5]).toBe("number");
    }
  });
  test("SCREEN: the title row is as of the metrics' evaluation date, not today", async () => {
    useSandbox();
    const lastTradingDay = await KAISHA.PRICE("7203", "date", null, inv());
    const grid = (await KAISHA.SCREEN(
      "per:lte:20" as never,
      null,
      null,
      null as never,
      null as never,
      null,
      5,
      null,
      2,
      inv(),
    )) as Grid;
    expect(grid[0]?.[2]).toBe(lastTradingDay);
    expect(grid[0]?.[2]).not.toBe(isoToSerial(jstIsoDate()));
  });
  test("SCREEN: a limit above the API's page size returns every match up to the limit", async () => {
    const h = useSandbox();
    const grid = (await KAISHA.SCREEN(
      null as never,
      null,
      null,
      null as never,
      null as never,
      null,
      150,
      null,
      2,
      inv(),
    )) as Grid;
    const total = Number(/\((\d+)\)/.exec(String(grid[0]?.[1]))?.[1]);
    expect(grid.length - 2).toBe(Math.min(150, total));
    expect(h.sent()).toBe(Math.max(1, Math.ceil(Math.min(150, total) / 100)));
  });
  test("SCREEN metric headers in Japanese come from the catalogue", async () => {
    useSandbox({ headerLanguage: "ja" });
    const grid = (await KAISHA.SCREEN(
      [["per:lte:20"]],
      null,
      null,
      null as never,
      null as never,
      null,
      3,
      null,
      null,
      inv(),
    )) as Grid;
    expect(grid[0]?.[0]).toBe("証券コード");
    expect(String(grid[0]?.[3])).toContain("PER");
  });
  test("SCREEN: an unknown metric key is #VALUE! naming the argument, what was typed, the nearest metric and SCREENFIELDS; the screen is never sent", async () => {
    const h = useSandbox({ lang: "ja" });
    const filter = await cellError(
      KAISHA.SCREEN(
        "pe:lte:15" as never,
        null,
        null,
        null as never,
        null as never,
        null,
        null,
        null,
        null,
        inv(),
      ),
    );
    expect(filter.code).toBe("#VALUE!");
    expect(filter.message).toMatch(
      /^条件「pe」：per（PER（実績））のことですか？ キー：=KAISHA\.SCREENFIELDS\(\) の数値指標/,
    );
    expect(h.requests()).toEqual(["/v1/screening/fields"]);
    useSandbox();
    const sort = await cellError(
      KAISHA.SCREEN(
        null as never,
        "pe",
        null,
        null as never,
        null as never,
        null,
        null,
        null,
        null,
        inv(),
      ),
    );
    expect(sort.message).toMatch(/^sort_by "pe": did you mean per \(PER（実績）\)\? Keys: /);
    // Other 400s keep the API's own explanation (here the money-threshold guard, openapi.json
    // getScreening).
    const guard = await cellError(
      KAISHA.SCREEN(
        "marketCap:gte:1000" as never,
        null,
        null,
        null as never,
        null as never,
        null,
        null,
        null,
        null,
        inv(),
      ),
    );
    expect(guard.code).toBe("#VALUE!");
    expect(guard.message).toMatch(/^filters is out of range/);
  });
  test("SCREENFIELDS lists the catalogue", async () => {
    useSandbox();
    const grid = (await KAISHA.SCREENFIELDS(null, inv())) as Grid;
    expect(grid[0]).toEqual(["key", "label", "unit", "type", "note"]);
    expect(grid.length).toBeGreaterThan(10);
  });
  test("FIELDS comes from the contract without any request", async () => {
    const h = useSandbox();
    for (const dataset of Object.keys(FIELD_DICTIONARY) as (keyof typeof FIELD_DICTIONARY)[]) {
      const grid = (await KAISHA.FIELDS(dataset, null, inv())) as Grid;
      // The key column names fields as the data functions' headers do (margin's close_price: close);
      // a percentage says so in its label and notes the scale its cells hold (README "Percentages").
      expect(grid[0]).toEqual(["key", "label", "unit", "note"]);
      expect(grid.slice(1)).toEqual(
        FIELD_DICTIONARY[dataset].map((f) => [
          f.key === "close_price" ? "close" : f.key,
          f.unit === "percent" || f.unit === "ratio" ? `${f.label}（%）` : f.label,
          f.unit,
          f.unit === "percent"
            ? "fraction shown as % (0.077 = 7.7%): the API's percent value / 100"
            : f.unit === "ratio"
              ? "fraction shown as % (0.077 = 7.7%): the API's value as sent"
              : "",
        ]),
      );
    }
    expect((await cellError(KAISHA.FIELDS("weather", null, inv()))).code).toBe("#VALUE!");
    expect(h.sent()).toBe(0);
  });
  test("SECURITIES: alphanumeric codes, market filter, empty market is an empty cell", async () => {
    useSandbox();
    const grid = (await KAISHA.SECURITIES("130", null, null, null, null, inv())) as Grid;
    expect(grid[0]).toEqual(["security_code", "name", "market", "industry"]);
    expect(grid.some((r) => r[0] === "130A")).toBe(true);
    expect(grid.find((r) => r[3] === "ETF")?.[2]).toBe("");
    const prime = (await KAISHA.SECURITIES(null, "prime", null, 20, 0, inv())) as Grid;
    expect(prime.every((r) => r[2] === "Prime")).toBe(true);
  });
});

describe("COMPANY", () => {
  test("a one-row table where the host has no data types", async () => {
    useSandbox();
    const grid = (await KAISHA.COMPANY("130a", inv())) as Grid;
    expect(grid).toHaveLength(2);
    const row = Object.fromEntries((grid[0] as string[]).map((k, i) => [k, grid[1]?.[i]]));
    expect(row).toMatchObject({ security_code: "130A", market: "Growth" });
    expect(String(row.edinet_code)).toMatch(/^E\d{5}$/);
    expect(typeof row.market_cap).toBe("number");
  });
  test("shares the financials and valuation answers of FINANCIAL and VALUATION cells", async () => {
    const h = useSandbox();
    await KAISHA.FINANCIAL("6758", "sales", 0, null, null, null, inv());
    await KAISHA.VALUATION("6758", null as never, 5, null, null, null, inv());
    const before = h.sent();
    await KAISHA.COMPANY("6758", inv());
    expect(h.sent() - before).toBe(2); // /organizations and /securities only
  });
  test("an entity card with CustomFunctionsRuntime 1.4", async () => {
    useSandbox({ dataTypes: true });
    const grid = (await KAISHA.COMPANY(7203, inv())) as Grid;
    const card = grid[0]?.[0] as {
      type: string;
      text: string;
      properties: Record<string, { basicValue: unknown }>;
    };
    expect(card.type).toBe("Entity");
    expect(card.text).toContain("サンプル");
    expect(card.properties.security_code?.basicValue).toBe("7203");
    expect(typeof card.properties.per?.basicValue).toBe("number");
  });
});

describe("SEGMENTS, DIVIDENDS, PEERS", () => {
  test("SEGMENTS: annual rows, unit scaling, quarter column for period quarter", async () => {
    const h = useSandbox();
    const yen = (await KAISHA.SEGMENTS("7203", 2025, null, null, null, null, inv())) as Grid;
    expect(yen[0]?.slice(0, 4)).toEqual([
      "fiscal_year",
      "segment_name",
      "revenue",
      "operating_income",
    ]);
    expect(yen.slice(1).every((r) => String(r[0]).startsWith("2025/"))).toBe(true);
    const oku = (await KAISHA.SEGMENTS(
      "7203",
      2025,
      null,
      "hundred_million_jpy",
      null,
      null,
      inv(),
    )) as Grid;
    expect(oku[1]?.[2]).toBeCloseTo((yen[1]?.[2] as number) / 1e8, 6);
    expect(oku[1]?.[4]).toBe(yen[1]?.[4]); // revenue_share (a % fraction) is not money-scaled
    const sent = h.sent();
    const q = (await KAISHA.SEGMENTS("7203", null, "quarterly", null, null, null, inv())) as Grid;
    expect(q[0]?.slice(0, 3)).toEqual(["fiscal_year", "quarter", "segment_name"]);
    expect(h.sent()).toBe(sent + 1);
  });
  test("DIVIDENDS: one request per company whatever the year range", async () => {
    const h = useSandbox();
    const all = (await KAISHA.DIVIDENDS("7203", null, null, null, null, inv())) as Grid;
    const recent = (await KAISHA.DIVIDENDS("7203", 2020, 2022, 0, null, inv())) as Grid;
    expect(recent.map((r) => r[0])).toEqual([2020, 2021, 2022]);
    expect(all.length - 1).toBeGreaterThan(3);
    expect(h.requests().filter((r) => r.startsWith("/v1/dividends"))).toHaveLength(1);
    expect((await cellError(KAISHA.DIVIDENDS("7203", 2023, 2020, null, null, inv()))).code).toBe(
      "#VALUE!",
    );
  });
  test("PEERS: limit cut locally, segments joined", async () => {
    const h = useSandbox();
    const two = (await KAISHA.PEERS("7203", 2, null, inv())) as Grid;
    const all = (await KAISHA.PEERS("7203", null, null, inv())) as Grid;
    expect(two).toHaveLength(3);
    expect(two.slice(1)).toEqual(all.slice(1, 3));
    expect(h.sent()).toBe(1);
  });
});

describe("DISCLOSURES, DOCUMENT, XBRL, SECTION", () => {
  let docId = "";
  test("DISCLOSURES: JST date-time and filing date as serials, newest first with order desc", async () => {
    useSandbox();
    const grid = (await KAISHA.DISCLOSURES(
      "7203",
      null,
      null,
      null,
      10,
      null,
      "desc",
      inv(),
    )) as Grid;
    expect(grid[0]?.slice(0, 6)).toEqual([
      "disclosed_at",
      "filing_date",
      "source",
      "document_type",
      "title",
      "doc_id",
    ]);
    expect((grid[1]?.[0] as number) >= (grid[2]?.[0] as number)).toBe(true);
    const edinet = grid.find((r) => r[2] === "edinet") as unknown[];
    expect(Math.floor(edinet[0] as number)).toBeGreaterThanOrEqual(edinet[1] as number);
    docId = String(edinet[5]);
  });
  test("DISCLOSURES: from after to is #VALUE! naming from, with nothing sent", async () => {
    const h = useSandbox();
    const err = await cellError(
      KAISHA.DISCLOSURES("7203", "2024-05-01", "2024-01-01", null, null, null, null, inv()),
    );
    expect(err).toEqual({
      code: "#VALUE!",
      message: 'from "2024-05-01": use a date on or before to (2024-01-01)',
    });
    expect(h.sent()).toBe(0);
  });
  test("DOCUMENT meta, available_sections and xbrl", async () => {
    useSandbox();
    const meta = (await KAISHA.DOCUMENT(docId, null, null, inv())) as Grid;
    expect(meta[1]?.[0]).toBe(docId);
    expect(typeof meta[1]?.[5]).toBe("number"); // filing_date serial
    const sections = (await KAISHA.DOCUMENT(docId, "available_sections", 0, inv())) as Grid;
    expect(sections.length).toBeGreaterThan(0);
    const xbrl = (await KAISHA.DOCUMENT(docId, "xbrl", null, inv())) as Grid;
    expect(xbrl[0]).toEqual(["element_name", "context", "period", "period_start", "value", "unit"]);
  });
  test("XBRL: one fact by element name with or without prefix, current year by default", async () => {
    useSandbox();
    // An annual securities report carries the summary-of-business facts.
    const reports = (await KAISHA.DISCLOSURES(
      "7203",
      null,
      null,
      "有価証券報告書",
      1,
      0,
      null,
      inv(),
    )) as Grid;
    const annualId = String(reports[0]?.[5]);
    const facts = (await KAISHA.DOCUMENT(annualId, "xbrl", 0, inv())) as Grid;
    // openapi.json DisclosureXbrlFact period: an instant is a date serial in `period`; a duration
    // also fills period_start.
    const duration = facts.find((f) => f[1] === "CurrentYearDuration") as unknown[];
    expect(typeof duration[2]).toBe("number");
    expect(typeof duration[3]).toBe("number");
    expect(duration[3] as number).toBeLessThan(duration[2] as number);
    const instant = facts.find((f) => f[1] === "CurrentYearInstant") as unknown[];
    expect([typeof instant[2], instant[3]]).toEqual(["number", ""]);
    const current = facts.find(
      (f) =>
        /SummaryOfBusinessResults$/.test(String(f[0])) &&
        f[1] === "CurrentYearDuration" &&
        typeof f[4] === "number",
    ) as unknown[];
    const name = String(current[0]);
    expect(await KAISHA.XBRL(annualId, name, null, inv())).toBe(current[4]);
    expect(await KAISHA.XBRL(annualId, name.split(":")[1], null, inv())).toBe(current[4]);
    const prior = facts.find((f) => f[0] === name && f[1] === "Prior1YearDuration") as unknown[];
    expect(prior).toBeDefined();
    expect(await KAISHA.XBRL(annualId, name, "Prior1YearDuration", inv())).toBe(prior[4]);
    expect((await cellError(KAISHA.XBRL(annualId, "NoSuchElement", null, inv()))).code).toBe(
      "#N/A",
    );
  });
  test("XBRL and DOCUMENT xbrl: a date-typed fact is a date serial, a code stays text", async () => {
    useSandbox();
    const reports = (await KAISHA.DISCLOSURES(
      "7203",
      null,
      null,
      "有価証券報告書",
      1,
      0,
      null,
      inv(),
    )) as Grid;
    const annualId = String(reports[0]?.[5]);
    const fyEnd = await KAISHA.XBRL(annualId, "CurrentFiscalYearEndDateDEI", null, inv());
    expect(typeof fyEnd).toBe("number");
    expect(serialToIso(fyEnd as number)).toMatch(/^\d{4}-03-31$/);
    expect(await KAISHA.XBRL(annualId, "SecurityCodeDEI", null, inv())).toBe("72030");
    const facts = (await KAISHA.DOCUMENT(annualId, "xbrl", 0, inv())) as Grid;
    const row = facts.find((f) => String(f[0]).endsWith(":CurrentFiscalYearEndDateDEI"));
    expect(row?.[4]).toBe(fyEnd);
  });
  test("DOCUMENT: every part's title row is as of the filing date; XBRL reuses DOCUMENT xbrl's answer", async () => {
    const h = useSandbox();
    const meta = (await KAISHA.DOCUMENT(docId, "meta", null, inv())) as Grid;
    const filed = meta[1]?.[5];
    for (const part of ["sections", "xbrl", "available_sections"]) {
      const grid = (await KAISHA.DOCUMENT(docId, part, 2, inv())) as Grid;
      expect(grid[0]?.slice(0, 3)).toEqual([docId, `document ${part}`, filed]);
    }
    const sent = h.sent();
    const facts = (await KAISHA.DOCUMENT(docId, "xbrl", 0, inv())) as Grid;
    const fact = facts.find((f) => f[1] !== "") as unknown[];
    expect(await KAISHA.XBRL(docId, String(fact[0]), fact[1], inv())).toBe(fact[4]);
    expect(h.sent()).toBe(sent);
  });
  test("SECTION: plain text, one paragraph per row, no cell over 32,767 characters", async () => {
    useSandbox();
    const available = (await KAISHA.DOCUMENT(docId, "available_sections", 0, inv())) as Grid;
    const rows = (await KAISHA.SECTION(docId, available[0]?.[0], inv())) as Grid;
    expect(rows.length).toBeGreaterThan(0);
    for (const [cell] of rows) {
      expect(typeof cell).toBe("string");
      expect((cell as string).length).toBeLessThanOrEqual(32_767);
      expect(cell as string).not.toMatch(/<[a-z]+[ >]/i);
    }
  });
  test("SECTION: a section the document lacks lists the available ones", async () => {
    useSandbox();
    const available = ((await KAISHA.DOCUMENT(docId, "available_sections", 0, inv())) as Grid).map(
      (r) => String(r[0]),
    );
    const missing = ["business_overview", "risk_factors", "mda", "audit", "body"].find(
      (s) => !available.includes(s),
    ) as string;
    const err = await cellError(KAISHA.SECTION(docId, missing, inv()));
    expect(err.code).toBe("#N/A");
    expect(err.message).toContain(available[0] as string);
    expect((await cellError(KAISHA.SECTION(docId, "chapter9", inv()))).code).toBe("#VALUE!");
  });
});

describe("OFFICERS, PERSON, APPOINTMENTS, COMPENSATION", () => {
  let personId = "";
  test("OFFICERS: ids as text, flags as booleans, dates as serials", async () => {
    useSandbox();
    const grid = (await KAISHA.OFFICERS("7203", null, inv())) as Grid;
    expect(grid[0]?.slice(0, 3)).toEqual(["person_id", "name", "role"]);
    const first = grid[1] as unknown[];
    expect(typeof first[0]).toBe("string");
    expect(typeof first[5]).toBe("boolean");
    expect(typeof first[7]).toBe("number");
    personId = String(first[0]);
  });
  test("PERSON, APPOINTMENTS and COMPENSATION of that officer", async () => {
    useSandbox({ headerLanguage: "ja" });
    const person = (await KAISHA.PERSON(Number(personId), null, inv())) as Grid;
    expect(person[0]?.slice(0, 3)).toEqual(["人物ID", "名称", "生年月日"]);
    expect(person[1]?.[0]).toBe(personId);
    const appointments = (await KAISHA.APPOINTMENTS(personId, 0, inv())) as Grid;
    expect(appointments[0]?.[0]).toBe("7203");
    const comp = await KAISHA.COMPENSATION(personId, null, inv()).catch((e: { code: string }) => e);
    if (Array.isArray(comp)) expect(typeof comp[1]?.[2]).toBe("number");
    else expect((comp as { code: string }).code).toBe("#N/A");
  });
  test("headers 2: lists without a date of their own are titled as of today's JST day", async () => {
    useSandbox();
    // 2026-11-21 16:30 UTC is already 2026-11-22 in Japan.
    const now = jest.spyOn(Date, "now").mockReturnValue(Date.UTC(2026, 10, 21, 16, 30));
    try {
      const officers = (await KAISHA.OFFICERS("7203", 2, inv())) as Grid;
      const persons = (await KAISHA.APPOINTMENTS(personId, 2, inv())) as Grid;
      const peers = (await KAISHA.PEERS("7203", 3, 2, inv())) as Grid;
      const today = isoToSerial("2026-11-22");
      expect(officers[0]?.slice(0, 4)).toEqual([
        "7203",
        "officers",
        today,
        "IRBANK（サンプルデータ）",
      ]);
      expect(persons[0]?.[2]).toBe(today);
      expect(peers[0]?.slice(0, 3)).toEqual(["7203", "peers", today]);
    } finally {
      now.mockRestore();
    }
  });
  test("a malformed person id is #VALUE!", async () => {
    expect((await cellError(KAISHA.PERSON("abc", null, inv()))).code).toBe("#VALUE!");
  });
});

describe("MARGIN, JSFMARGIN, USAGE, ATTRIBUTION", () => {
  test("MARGIN: weeks oldest first, report_date serials", async () => {
    useSandbox();
    const grid = (await KAISHA.MARGIN("7203", "26w", null, null, inv())) as Grid;
    expect(grid[0]?.[0]).toBe("report_date");
    expect(grid.length).toBeGreaterThan(20);
    expect((grid[1]?.[0] as number) < (grid[2]?.[0] as number)).toBe(true);
  });
  test("JSFMARGIN: days by default, reverse fees on request", async () => {
    useSandbox();
    const days = (await KAISHA.JSFMARGIN(
      "7203",
      "1m",
      null,
      null,
      null,
      null,
      null,
      inv(),
    )) as Grid;
    expect(days[0]?.slice(0, 3)).toEqual(["date", "loan_balance", "stock_loan_balance"]);
    const reverse = await KAISHA.JSFMARGIN(
      "7203",
      "1y",
      null,
      null,
      "reverse",
      null,
      null,
      inv(),
    ).catch((e: { code: string }) => e);
    if (Array.isArray(reverse))
      expect(reverse[0]).toEqual(["date", "fee_per_day", "fee_days", "fee_total"]);
    else expect((reverse as { code: string }).code).toBe("#N/A");
    expect(
      (await cellError(KAISHA.JSFMARGIN("7203", "2y", null, null, null, null, null, inv()))).code,
    ).toBe("#VALUE!");
  });
  test("USAGE: the remaining count, never from the cache", async () => {
    const h = useSandbox();
    const first = (await KAISHA.USAGE(inv())) as number;
    expect(typeof first).toBe("number");
    await KAISHA.USAGE(inv());
    expect(h.sent()).toBe(2);
  });
  test("ATTRIBUTION: source label and licence note", async () => {
    useSandbox();
    const row = (await KAISHA.ATTRIBUTION(null, inv())) as Grid;
    expect(row[0]?.[0]).toBe("IRBANK（サンプルデータ）");
    expect(String(row[0]?.[1]).length).toBeGreaterThan(10);
    const prices = (await KAISHA.ATTRIBUTION("prices", inv())) as Grid;
    expect(prices[0]).toHaveLength(2);
    expect((await cellError(KAISHA.ATTRIBUTION("weather", inv()))).code).toBe("#VALUE!");
  });
});
