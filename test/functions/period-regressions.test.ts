// Trustworthy numbers: every input that silently gave another period (or company, or day) than the one asked for, and the one period language.
import { company } from "../../functions/company";
import { disclosures } from "../../functions/disclosures";
import { dividends } from "../../functions/dividends";
import { jsfMargin } from "../../functions/margin";
import { financial } from "../../functions/financial-cell";
import { financials } from "../../functions/financials";
import { price, prices } from "../../functions/prices";
import { screen } from "../../functions/screen";
import { segments } from "../../functions/segments";
import { valuation } from "../../functions/valuation";
import { SANDBOX_DEFAULT_NOW } from "../../sandbox/data/model";
import { daySerial, type RawRow } from "../oracle/period-oracle";
import { rawAnswers } from "../oracle/raw-answers";
import { call } from "./call-by-name";
import { cellError, invocation, resetSession, useSandbox } from "./harness";

jest.setTimeout(60_000);
afterAll(resetSession);

const NOW = Date.parse(SANDBOX_DEFAULT_NOW);
const sandbox = () => useSandbox({ now: NOW });

function row(rows: RawRow[], fiscalYear: string, quarter?: string): RawRow {
  const found = rows.find((r) => r.fiscal_year === fiscalYear && r.quarter === quarter);
  if (found === undefined) throw new Error(`no ${fiscalYear} ${quarter ?? ""} in the answer`);
  return found;
}

const value = (r: RawRow, item: string): number => r[item] as number;

describe("silently wrong before: a date with quarterly or semiannual", () => {
  test('FINANCIAL(7203,"sales",DATE(2024,7,15),"quarterly") is 2025/03 Q1, the latest quarter ended by then', async () => {
    sandbox();
    const raw = await rawAnswers("7203");
    const cell = await financial(7203, "sales", daySerial("2024-07-15"), "quarterly", null, null);
    expect(cell).toBe(value(row(raw.quarterly, "2025/03", "Q1"), "sales"));
    expect(cell).not.toBe(value(row(raw.annual, "2024/03"), "sales"));
  });

  test('FINANCIAL(7203,"sales",DATE(2024,10,15),"semiannual") is 2025/03 H1', async () => {
    sandbox();
    const raw = await rawAnswers("7203");
    const cell = await financial(7203, "sales", daySerial("2024-10-15"), "semiannual", null, null);
    expect(cell).toBe(value(row(raw.semiannual, "2025/03", "H1"), "sales"));
  });

  test("a date exactly on a quarter end takes that quarter; the day before takes the one before", async () => {
    sandbox();
    const raw = await rawAnswers("7203");
    const on = await financial(7203, "sales", "2024-06-30", "quarterly", null, null);
    const before = await financial(7203, "sales", "2024-06-29", "quarterly", null, null);
    expect(on).toBe(value(row(raw.quarterly, "2025/03", "Q1"), "sales"));
    expect(before).toBe(value(row(raw.quarterly, "2024/03", "Q4"), "sales"));
  });
});

describe("silently wrong before: a fiscal-year-end change (2002, December -> March, transitional 2015/03)", () => {
  test("a quarter is dated by its own fiscal year: Q1 of the transitional 2015/03 ended 2015-03-31, not 2014-06-30", async () => {
    sandbox();
    const raw = await rawAnswers("2002");
    // 2014-08-15: the latest Q1 ended by then is 2014/12 Q1 (January-March 2014).
    const q1 = await financial(2002, "sales", "2014-08-15", "quarterly", "Q1", null);
    expect(q1).toBe(value(row(raw.quarterly, "2014/12", "Q1"), "sales"));
    const latest = await financial(2002, "sales", "2014-08-15", "quarterly", null, null);
    expect(latest).toBe(value(row(raw.quarterly, "2014/12", "Q2"), "sales"));
    const transitional = await financial(2002, "sales", "2015-04-15", "quarterly", null, null);
    expect(transitional).toBe(value(row(raw.quarterly, "2015/03", "Q1"), "sales"));
  });

  test("LTM across the change is the four quarters that exist, not #N/A", async () => {
    sandbox();
    const raw = await rawAnswers("2002");
    const q = (fy: string, quarter: string) => value(row(raw.quarterly, fy, quarter), "sales");
    // The twelve months to 2015-03-31: 2014/12 Q2..Q4 and the transitional quarter.
    const expected =
      q("2014/12", "Q2") + q("2014/12", "Q3") + q("2014/12", "Q4") + q("2015/03", "Q1");
    expect(await financial(2002, "sales", "2015-04-15", "LTM", null, null)).toBe(expected);
    // The fiscal year 2015/03 named: the twelve months ending with its last quarter.
    expect(await financial(2002, "sales", "2015年3月期", "LTM", null, null)).toBe(expected);
    // The twelve months to 2015-09-30 span both fiscal years.
    const across =
      q("2014/12", "Q4") + q("2015/03", "Q1") + q("2016/03", "Q1") + q("2016/03", "Q2");
    expect(await financial(2002, "sales", "2015-10-15", "LTM", null, null)).toBe(across);
  });
});

describe("silently wrong before: halves", () => {
  test("FH0, FH-1, FH-2, FH-3 walk H1, H2, H1, H2: each a half, H2 = full year − H1", async () => {
    sandbox();
    const raw = await rawAnswers("7203");
    const s = raw.semiannual;
    const h1 = (fy: string) => value(row(s, fy, "H1"), "sales");
    const h2 = (fy: string) => value(row(s, fy, "full_year"), "sales") - h1(fy);
    // The data clock (2026-11-20) has 2027/03 H1 published.
    const cells = [];
    for (const token of ["FH0", "FH-1", "FH-2", "FH-3"])
      cells.push(await financial(7203, "sales", token, null, null, null));
    expect(cells).toEqual([h1("2027/03"), h2("2026/03"), h1("2026/03"), h2("2025/03")]);
    // -1 with period semiannual is the same half as FH-1.
    expect(await financial(7203, "sales", -1, "semiannual", null, null)).toBe(h2("2026/03"));
    // No cell is a 12-month figure.
    const years = s.filter((r) => r.quarter === "full_year").map((r) => value(r, "sales"));
    for (const c of cells) expect(years).not.toContain(c);
  });

  test("2025H2 and quarter H2 name the derived second half; a ratio has none (#N/A)", async () => {
    sandbox();
    const raw = await rawAnswers("7203");
    const s = raw.semiannual;
    const expected =
      value(row(s, "2025/03", "full_year"), "sales") - value(row(s, "2025/03", "H1"), "sales");
    expect(await financial(7203, "sales", "2025H2", null, null, null)).toBe(expected);
    expect(await financial(7203, "sales", 2025, "semiannual", "H2", null)).toBe(expected);
    const err = await cellError(financial(7203, "roe", "2025H2", null, null, null));
    expect(err.code).toBe("#N/A");
    expect(err.message).toMatch(/H2/);
  });

  test("a transitional year is no half: the halves skip 2002's three-month 2015/03", async () => {
    sandbox();
    const raw = await rawAnswers("2002");
    const s = raw.semiannual;
    // 2015-06-15: the latest half ended by then is 2014/12 H2 (July-December 2014).
    const expected =
      value(row(s, "2014/12", "full_year"), "sales") - value(row(s, "2014/12", "H1"), "sales");
    expect(await financial(2002, "sales", "2015-06-15", "semiannual", null, null)).toBe(expected);
  });
});

describe("silently wrong before: a date in the future", () => {
  test("FINANCIAL(…,DATE(2030,1,1)) is #N/A naming the future date, with no request", async () => {
    const h = sandbox();
    for (const type of [null, "quarterly", "semiannual", "LTM"]) {
      const err = await cellError(
        financial(7203, "sales", daySerial("2030-01-01"), type, null, null),
      );
      expect(err.code).toBe("#N/A");
      expect(err.message).toMatch(/2030-01-01 is in the future/);
    }
    expect(h.sent()).toBe(0);
  });

  test('PRICE(7203,"close",DATE(2030,1,1)) is #N/A, with no request; today itself is answered', async () => {
    const h = sandbox();
    const err = await cellError(price(7203, "close", daySerial("2030-01-01"), invocation()));
    expect(err.code).toBe("#N/A");
    expect(err.message).toMatch(/in the future/);
    expect(h.sent()).toBe(0);
    // The day after the sandbox's data clock is the future; the clock's own day is not.
    const tomorrow = await cellError(price(7203, "close", "2026-11-21", invocation()));
    expect(tomorrow.message).toMatch(/in the future/);
    expect(typeof (await price(7203, "close", "2026-11-20", invocation()))).toBe("number");
  });

  test("FINANCIALS as_of and PRICES from a future date are refused the same way", async () => {
    sandbox();
    const asOf = await cellError(
      financials("7203", null, null, null, "2030-01-01", null, null, null, invocation()),
    );
    expect(asOf.message).toMatch(/in the future/);
    const from = await cellError(call(prices, "7203", { from: "2030-01-01" }));
    expect(from.message).toMatch(/in the future/);
  });
});

describe("a future date in other date arguments", () => {
  test("DISCLOSURES from and JSFMARGIN to after today are #N/A, with no request", async () => {
    const h = sandbox();
    const from = await cellError(
      disclosures("7203", "2026-12-01", null, null, null, 1, invocation()),
    );
    expect(from.message).toMatch(/2026-12-01 is in the future/);
    const to = await cellError(jsfMargin("7203", null, "2027-01-04", null, null, 1, invocation()));
    expect(to.message).toMatch(/2027-01-04 is in the future/);
    expect(h.sent()).toBe(0);
  });
});

describe("silently wrong before: a fragment of a code", () => {
  test('"30A" is not 130A: #VALUE! listing 130A as a candidate, never its figures', async () => {
    sandbox();
    const err = await cellError(financial("30A", "sales", 0, null, null, null));
    expect(err.code).toBe("#VALUE!");
    expect(err.message).toMatch(/130A/);
  });

  test("part of a name lists candidates; the whole name is used", async () => {
    sandbox();
    const err = await cellError(financial("大和", "sales", 0, null, null, null));
    expect(err.code).toBe("#VALUE!");
    expect(err.message).toMatch(/partly matches/);
    expect(await financial("大和自動車（サンプル）", "sales", 0, null, null, null)).toBe(
      await financial(7203, "sales", 0, null, null, null),
    );
  });

  test("the name COMPANY returns is accepted back as a company", async () => {
    sandbox();
    const card = (await company("7203", invocation())) as unknown[][];
    const name = card[1]?.[0];
    expect(typeof name).toBe("string");
    expect(await financial(name, "sales", 0, null, null, null)).toBe(
      await financial(7203, "sales", 0, null, null, null),
    );
  });
});

describe("silently wrong before: PRICE on a day without a trade", () => {
  test("a day whose close is null gives the last close on or before it, as a weekend does", async () => {
    sandbox();
    const walk = (await call(prices, "5964", {
      from: "2024-01-01",
      to: "2024-12-31",
      fields: "close",
      order: "asc",
      headers: 0,
    })) as [number, number | string][];
    const at = walk.findIndex(([, close], i) => close === "" && i > 0 && walk[i - 1]?.[1] !== "");
    expect(at).toBeGreaterThan(0);
    const [day] = walk[at] as [number, string];
    const [lastDay, lastClose] = walk[at - 1] as [number, number];
    sandbox(); // a fresh cache: PRICE asks its own window
    expect(await price("5964", "close", day, invocation())).toBe(lastClose);
    expect(await price("5964", "date", day, invocation())).toBe(lastDay);
  });
});

describe("one period language in every argument that names a period", () => {
  test("年度 is the fiscal year that starts in that year: March and December companies", async () => {
    sandbox();
    const march = await rawAnswers("7203");
    const december = await rawAnswers("5201");
    expect(await financial(7203, "sales", "2024年度", null, null, null)).toBe(
      value(row(march.annual, "2025/03"), "sales"),
    );
    expect(await financial(7203, "sales", "令和6年度", null, null, null)).toBe(
      value(row(march.annual, "2025/03"), "sales"),
    );
    expect(await financial(7203, "sales", "令和元年度", null, null, null)).toBe(
      value(row(march.annual, "2020/03"), "sales"),
    );
    expect(await financial(5201, "sales", "2024年度", null, null, null)).toBe(
      value(row(december.annual, "2024/12"), "sales"),
    );
  });

  test("FINANCIALS as_of takes FY-1 and 2024年度 (the window ends at that fiscal year)", async () => {
    sandbox();
    const byToken = (await financials(
      "7203",
      "sales",
      null,
      1,
      "FY-1",
      null,
      null,
      1,
      invocation(),
    )) as unknown[][];
    expect(byToken[0]?.[1]).toBe("2025/03");
    const byNendo = (await financials(
      "7203",
      "sales",
      null,
      1,
      "2023年度",
      null,
      null,
      1,
      invocation(),
    )) as unknown[][];
    expect(byNendo[0]?.[1]).toBe("2024/03");
  });

  test("SEGMENTS fiscal_year and DIVIDENDS from/to take FY-1 and 年度", async () => {
    sandbox();
    const seg = (await segments("7203", "FY-1", null, null, 1, invocation())) as unknown[][];
    const years = new Set(seg.slice(1).map((r) => r[0]));
    expect(years.size).toBe(1);
    const all = (await segments("7203", null, null, null, 1, invocation())) as unknown[][];
    const labels = [...new Set(all.slice(1).map((r) => String(r[0])))].sort();
    expect([...years]).toEqual([labels[labels.length - 2]]);
    const nendo = (await segments("7203", "2023年度", null, null, 1, invocation())) as unknown[][];
    expect(new Set(nendo.slice(1).map((r) => r[0]))).toEqual(new Set(["2024/03"]));

    const div = (await dividends("7203", "FY-2", "令和6年度", 1, invocation())) as unknown[][];
    const divYears = div.slice(1).map((r) => r[0]);
    const full = (await dividends("7203", null, null, 1, invocation())) as unknown[][];
    const allYears = full.slice(1).map((r) => r[0] as number);
    const latest = allYears[allYears.length - 1] as number;
    expect(divYears).toEqual(allYears.filter((y) => y >= latest - 2 && y <= 2025));
  });

  test("VALUATION as_of ends the history at FY-1, 2024年度 or a date, with one request", async () => {
    const h = sandbox();
    const latestOf = async (asOf: unknown) =>
      ((await valuation("7203", "per", 1, 1, invocation(), "desc", asOf)) as unknown[][])[1]?.[0];
    const all = (await valuation("7203", "per", 50, 1, invocation(), "desc")) as unknown[][];
    expect(await latestOf("FY-1")).toBe(all[2]?.[0]);
    expect(await latestOf("2023年度")).toBe("2024/03");
    expect(await latestOf(daySerial("2024-07-15"))).toBe("2024/03");
    expect(h.requests().filter((r) => r.startsWith("/v1/valuations"))).toHaveLength(1);
    const err = await cellError(valuation("7203", "per", 1, 1, invocation(), "desc", "2030-01-01"));
    expect(err.message).toMatch(/in the future/);
  });

  test("SCREEN's sort_order takes the words order takes (昇順/降順, asc/desc)", async () => {
    const h = sandbox();
    const args = (order: string) =>
      screen("per:lte:15", "per", order, null, null, null, 5, null, 1, invocation());
    const down = await args("降順");
    const up = await args("昇順");
    expect(await args("desc")).toEqual(down);
    expect(await args("ascending")).toEqual(up);
    expect(h.requests().some((r) => r.includes("sort_order=desc"))).toBe(true);
    expect(h.requests().some((r) => r.includes("sort_order=asc"))).toBe(true);
    const err = await cellError(args("sideways"));
    expect(err.code).toBe("#VALUE!");
  });
});

describe("the README's period table", () => {
  test("its examples hold on the sandbox (7203, data clock 2026-11-20)", async () => {
    sandbox();
    const raw = await rawAnswers("7203");
    const q = (fy: string, quarter: string) => value(row(raw.quarterly, fy, quarter), "sales");
    const cases: [unknown, unknown, number][] = [
      ["FY-1", null, value(row(raw.annual, "2025/03"), "sales")],
      ["FQ-2", null, q("2026/03", "Q4")],
      ["FH0", null, value(row(raw.semiannual, "2027/03", "H1"), "sales")],
      [
        "LTM",
        null,
        q("2026/03", "Q3") + q("2026/03", "Q4") + q("2027/03", "Q1") + q("2027/03", "Q2"),
      ],
      ["2024Q2", null, q("2024/03", "Q2")],
      ["2024年3月期", null, value(row(raw.annual, "2024/03"), "sales")],
      ["2024年度", null, value(row(raw.annual, "2025/03"), "sales")],
      [daySerial("2024-07-15"), "quarterly", q("2025/03", "Q1")],
    ];
    for (const [arg, type, expected] of cases)
      expect([arg, await financial(7203, "sales", arg, type, null, null)]).toEqual([arg, expected]);
  });
});
