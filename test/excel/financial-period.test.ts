// FINANCIAL's period selection and LTM on synthetic /financials rows.
import type { FinancialsPeriod } from "../../src/contract";
import { ArgumentError } from "../../src/excel/args";
import {
  fiscalPeriodChoice,
  isSecondHalf,
  secondHalfValue,
  ltmFromHalves,
  olderWindowAsOf,
  quarterArg,
  resolvePeriodType,
  selectPeriod,
} from "../../src/excel/financial-period";
import { rowSpan } from "../../src/excel/period-dates";
import { computeLtm } from "../../src/excel/period-ltm";

/** The period spec `fiscal_period` reads (FINANCIAL takes it with its implied type). */
const fiscalPeriodArg = (value: unknown) => fiscalPeriodChoice(value).spec;

function row(
  fiscal_year: string,
  values: Record<string, number | null>,
  quarter?: string,
): FinancialsPeriod {
  return { fiscal_year, ...(quarter ? { quarter } : {}), ...values } as unknown as FinancialsPeriod;
}

const annual = [
  row("2022/03", { sales: 100 }),
  row("2023/03", { sales: 110 }),
  row("2024/03", { sales: 120 }),
];

// Two fiscal years of quarters (FY ending March): Q1 = Apr-Jun of the previous calendar year.
const quarterly = [
  row("2023/03", { sales: 10 }, "Q1"),
  row("2023/03", { sales: 11 }, "Q2"),
  row("2023/03", { sales: 12 }, "Q3"),
  row("2023/03", { sales: 13 }, "Q4"),
  row("2023/03", { sales: 46, total_assets: 500 }, "full_year"),
  row("2024/03", { sales: 20 }, "Q1"),
  row("2024/03", { sales: 21 }, "Q2"),
  row("2024/03", { sales: 22 }, "Q3"),
  row("2024/03", { sales: 23 }, "Q4"),
  row("2024/03", { sales: 86, total_assets: 600 }, "full_year"),
  row("2025/03", { sales: 30 }, "Q1"),
];

describe("fiscal_period argument", () => {
  test("omitted and 0 mean the latest; negatives are relative", () => {
    expect(fiscalPeriodArg(null)).toEqual({ kind: "relative", offset: 0 });
    expect(fiscalPeriodArg(-2)).toEqual({ kind: "relative", offset: -2 });
    expect(fiscalPeriodArg("-1")).toEqual({ kind: "relative", offset: -1 });
  });
  test("a year, a YYYY/MM label and a date", () => {
    expect(fiscalPeriodArg(2024)).toEqual({ kind: "year", year: 2024 });
    expect(fiscalPeriodArg("2024/3")).toEqual({ kind: "month", month: "2024/03" });
    expect(fiscalPeriodArg(45382)).toEqual({
      kind: "onOrBefore",
      month: "2024/03",
      iso: "2024-03-31",
    });
    expect(fiscalPeriodArg("2024-06-30")).toEqual({
      kind: "onOrBefore",
      month: "2024/06",
      iso: "2024-06-30",
    });
  });
  test("the Japanese period notation 2024年3月期 is the period ending March 2024", () => {
    expect(fiscalPeriodArg("2024年3月期")).toEqual({ kind: "month", month: "2024/03" });
    expect(fiscalPeriodArg("２０２４年３月期")).toEqual({ kind: "month", month: "2024/03" });
    expect(fiscalPeriodArg("2024/03期")).toEqual({ kind: "month", month: "2024/03" });
  });
  test("年度 names the fiscal year that starts in that year, in every era spelling", () => {
    expect(fiscalPeriodArg("2024年度")).toEqual({ kind: "startYear", year: 2024 });
    expect(fiscalPeriodArg("令和6年度")).toEqual({ kind: "startYear", year: 2024 });
    expect(fiscalPeriodArg("令和元年度")).toEqual({ kind: "startYear", year: 2019 });
    expect(fiscalPeriodArg("平成31年度")).toEqual({ kind: "startYear", year: 2019 });
    expect(fiscalPeriodArg("R6年度")).toEqual({ kind: "startYear", year: 2024 });
  });
  test("nonsense is refused naming fiscal_period", () => {
    expect(() => fiscalPeriodArg("last year")).toThrow(ArgumentError);
    expect(() => fiscalPeriodArg(5)).toThrow(ArgumentError);
  });
});

describe("quarter and period", () => {
  test("quarter spellings", () => {
    expect(quarterArg("q1")).toBe("Q1");
    expect(quarterArg(3)).toBe("Q3");
    expect(quarterArg("通期")).toBe("full_year");
    expect(() => quarterArg("Q5")).toThrow(ArgumentError);
  });
  test("a quarter implies its period type", () => {
    expect(resolvePeriodType(undefined, "Q2")).toBe("quarterly");
    expect(resolvePeriodType(undefined, "H1")).toBe("semiannual");
    expect(resolvePeriodType(undefined, undefined)).toBe("annual");
  });
  test("contradictions are refused", () => {
    expect(() => resolvePeriodType("annual", "Q1")).toThrow(ArgumentError);
    expect(() => resolvePeriodType("quarterly", "H1")).toThrow(ArgumentError);
    expect(() => resolvePeriodType("semiannual", "Q3")).toThrow(ArgumentError);
  });
});

describe("selectPeriod", () => {
  test("annual: latest, relative, year, label, date", () => {
    expect(selectPeriod(annual, "annual", { kind: "relative", offset: 0 })?.fiscal_year).toBe(
      "2024/03",
    );
    expect(selectPeriod(annual, "annual", { kind: "relative", offset: -2 })?.fiscal_year).toBe(
      "2022/03",
    );
    expect(selectPeriod(annual, "annual", { kind: "relative", offset: -3 })).toBeUndefined();
    expect(selectPeriod(annual, "annual", { kind: "year", year: 2023 })?.fiscal_year).toBe(
      "2023/03",
    );
    expect(selectPeriod(annual, "annual", { kind: "month", month: "2023/03" })?.fiscal_year).toBe(
      "2023/03",
    );
    expect(
      selectPeriod(annual, "annual", { kind: "onOrBefore", month: "2023/12", iso: "2023-12-31" })
        ?.fiscal_year,
    ).toBe("2023/03");
  });
  test("quarterly without a quarter: relative offsets walk single quarters", () => {
    const latest = selectPeriod(quarterly, "quarterly", { kind: "relative", offset: 0 });
    expect([latest?.fiscal_year, latest?.quarter]).toEqual(["2025/03", "Q1"]);
    const before = selectPeriod(quarterly, "quarterly", { kind: "relative", offset: -1 });
    expect([before?.fiscal_year, before?.quarter]).toEqual(["2024/03", "Q4"]);
  });
  test("quarterly with a named year and no quarter reads the full_year row", () => {
    expect(selectPeriod(quarterly, "quarterly", { kind: "year", year: 2024 })?.quarter).toBe(
      "full_year",
    );
  });
  test("a quarter with a relative offset moves by fiscal year", () => {
    const q2 = selectPeriod(quarterly, "quarterly", { kind: "relative", offset: -1 }, "Q2");
    expect([q2?.fiscal_year, q2?.quarter]).toEqual(["2023/03", "Q2"]);
  });
  test("an older period than a full window asks for the window before its oldest period", () => {
    const thirty = Array.from({ length: 30 }, (_, i) => row(`${1997 + i}/03`, { sales: i }));
    expect(olderWindowAsOf(thirty, { kind: "year", year: 1990 }, 30)).toBe("1997/02");
    // every older cell of the company shares that one as_of (one request, one cache entry)
    expect(olderWindowAsOf(thirty, { kind: "year", year: 1985 }, 30)).toBe("1997/02");
    expect(olderWindowAsOf(thirty, { kind: "month", month: "1996/03" }, 30)).toBe("1997/02");
    expect(
      olderWindowAsOf(thirty, { kind: "onOrBefore", month: "1993/06", iso: "1993-06-30" }, 30),
    ).toBe("1997/02");
    expect(olderWindowAsOf(thirty, { kind: "year", year: 1997 }, 30)).toBeUndefined();
    expect(olderWindowAsOf(thirty, { kind: "relative", offset: -40 }, 30)).toBeUndefined();
  });
  test("a window shorter than asked for is the whole history: nothing older is asked for", () => {
    expect(olderWindowAsOf(annual, { kind: "year", year: 2010 }, 30)).toBeUndefined();
    expect(olderWindowAsOf(quarterly, { kind: "year", year: 2010 }, 30)).toBeUndefined();
  });
});

describe("LTM", () => {
  test("flow items: the last four single quarters summed", () => {
    const r = computeLtm(quarterly, "sales", { kind: "relative", offset: 0 });
    expect(r).toMatchObject({ ok: true, value: 21 + 22 + 23 + 30 });
  });
  test("one quarter back", () => {
    expect(computeLtm(quarterly, "sales", { kind: "relative", offset: -1 })).toMatchObject({
      ok: true,
      value: 86,
    });
  });
  test("a named year means the four quarters ending at its Q4", () => {
    expect(computeLtm(quarterly, "sales", { kind: "year", year: 2023 })).toMatchObject({
      ok: true,
      value: 46,
    });
  });
  test("stock items: the latest balance (full_year row) at or before the window end", () => {
    expect(computeLtm(quarterly, "total_assets", { kind: "relative", offset: 0 })).toMatchObject({
      ok: true,
      value: 600,
    });
    expect(computeLtm(quarterly, "total_assets", { kind: "year", year: 2023 })).toMatchObject({
      ok: true,
      value: 500,
    });
  });
  test("a named quarter anchors the window at that quarter, offsets moving by fiscal year", () => {
    expect(computeLtm(quarterly, "sales", { kind: "relative", offset: 0 }, "Q4")).toMatchObject({
      ok: true,
      value: 20 + 21 + 22 + 23,
    });
    expect(computeLtm(quarterly, "sales", { kind: "relative", offset: -1 }, "Q4")).toMatchObject({
      ok: true,
      value: 10 + 11 + 12 + 13,
    });
    expect(
      computeLtm(
        quarterly,
        "sales",
        { kind: "onOrBefore", month: "2024/12", iso: "2024-12-31" },
        "Q2",
      ),
    ).toMatchObject({ ok: true, value: 12 + 13 + 20 + 21 });
  });
  test("full_year with LTM means the twelve months ending at Q4", () => {
    expect(computeLtm(quarterly, "sales", { kind: "year", year: 2024 }, "full_year")).toMatchObject(
      { ok: true, value: 86 },
    );
  });
  test("a year whose anchor quarter is not disclosed yet has no anchor", () => {
    expect(computeLtm(quarterly, "sales", { kind: "year", year: 2025 })).toEqual({
      ok: false,
      reason: "no_anchor",
    });
  });
  test("H1 with LTM is refused naming quarter", () => {
    expect(() => resolvePeriodType("LTM", "H1")).toThrow(/^quarter "H1": use Q1-Q4/);
    expect(resolvePeriodType("LTM", "Q2")).toBe("LTM");
  });
  test("fewer than four quarters is incomplete", () => {
    expect(computeLtm(quarterly, "sales", { kind: "relative", offset: -8 })).toMatchObject({
      ok: false,
      reason: "incomplete",
    });
  });
  test("a null quarter makes it incomplete", () => {
    const gap = quarterly.map((p) =>
      p.quarter === "Q3" && p.fiscal_year === "2024/03" ? row("2024/03", { sales: null }, "Q3") : p,
    );
    expect(computeLtm(gap, "sales", { kind: "relative", offset: 0 })).toMatchObject({
      ok: false,
      reason: "incomplete",
    });
  });
  test("half-yearly items: Q4 reads the full year, Q2 adds the halves, Q1/Q3 cannot", () => {
    // Cash flow disclosed only half-yearly: null on single quarters (openapi.json getFinancials).
    const cf = (fy: string, q: string, v: number | null): FinancialsPeriod =>
      row(fy, { operating_cf: v }, q);
    const quarters = [
      ...["Q1", "Q2", "Q3", "Q4"].map((q) => cf("2024/03", q, null)),
      cf("2024/03", "full_year", 100),
      ...["Q1", "Q2"].map((q) => cf("2025/03", q, null)),
    ];
    const halves = [
      cf("2024/03", "H1", 40),
      cf("2024/03", "full_year", 100),
      cf("2025/03", "H1", 55),
    ];
    const latest = computeLtm(quarters, "operating_cf", { kind: "relative", offset: 0 });
    expect(latest).toMatchObject({ ok: false, reason: "incomplete" });
    const anchor = (latest as { anchor: FinancialsPeriod }).anchor;
    expect([anchor.fiscal_year, anchor.quarter]).toEqual(["2025/03", "Q2"]);
    const span = (q: FinancialsPeriod) => rowSpan(quarters, q);
    expect(ltmFromHalves(halves, "operating_cf", anchor, span(anchor))).toMatchObject({
      ok: true,
      value: 55 + 100 - 40,
    });
    const q4 = quarters[3] as FinancialsPeriod;
    expect(ltmFromHalves(quarters, "operating_cf", q4, span(q4))).toMatchObject({
      ok: true,
      value: 100,
    });
    const q1 = quarters[5] as FinancialsPeriod;
    expect(ltmFromHalves(halves, "operating_cf", q1, span(q1))).toMatchObject({ ok: false });
    expect(ltmFromHalves(halves.slice(1), "operating_cf", anchor, span(anchor))).toMatchObject({
      ok: false,
    });
  });
  test("half-yearly items after a year-end change: a short year before is no second half", () => {
    // September changed to March: 2024/03 is a 6-month transitional year (October-March), so its
    // full year − H1 is three months, not the six before 2025/03 began.
    const cf = (fy: string, q: string, v: number | null): FinancialsPeriod =>
      row(fy, { operating_cf: v }, q);
    const rows = [
      cf("2023/09", "H1", 30),
      cf("2023/09", "full_year", 80),
      cf("2024/03", "H1", 20),
      cf("2024/03", "full_year", 50),
      cf("2025/03", "H1", 55),
    ];
    const anchor = cf("2025/03", "Q2", null);
    const quarters = [cf("2025/03", "Q1", null), anchor];
    expect(rowSpan(rows, rows[3] as FinancialsPeriod).yearMonths).toBe(6);
    expect(ltmFromHalves(rows, "operating_cf", anchor, rowSpan(quarters, anchor))).toMatchObject({
      ok: false,
      reason: "incomplete",
    });
  });
});

describe("periods dated from the answer's own labels", () => {
  // December year end changed to March: a transitional 2015/03 of one quarter (January-March 2015).
  const changed = [
    ...["Q1", "Q2", "Q3", "Q4"].map((q, i) => row("2014/12", { sales: 10 + i }, q)),
    row("2014/12", { sales: 46 }, "full_year"),
    row("2015/03", { sales: 20 }, "Q1"),
    row("2015/03", { sales: 20 }, "full_year"),
    row("2016/03", { sales: 30 }, "Q1"),
  ];
  // A date as FINANCIAL reads it (a period ends on the last day of its month).
  const day = (iso: string) => fiscalPeriodArg(iso);

  test("a transitional year's quarter ends at its own year end, not 9 months before it", () => {
    expect(rowSpan(changed, changed[5] as FinancialsPeriod)).toMatchObject({ yearMonths: 3 });
    const march = selectPeriod(changed, "quarterly", day("2015-03-31"));
    expect([march?.fiscal_year, march?.quarter]).toEqual(["2015/03", "Q1"]);
    // July 2014: the latest Q1 ended by then is 2014/12's, never the transitional one.
    const q1 = selectPeriod(changed, "quarterly", day("2014-07-31"), "Q1");
    expect([q1?.fiscal_year, q1?.quarter]).toEqual(["2014/12", "Q1"]);
  });

  test("LTM runs across the change over the quarters that exist", () => {
    expect(computeLtm(changed, "sales", { kind: "relative", offset: 0 })).toMatchObject({
      ok: true,
      value: 12 + 13 + 20 + 30,
    });
    // The transitional fiscal year named: the twelve months ending with its only quarter.
    expect(computeLtm(changed, "sales", { kind: "month", month: "2015/03" })).toMatchObject({
      ok: true,
      value: 11 + 12 + 13 + 20,
    });
  });

  test("halves are H1 and H2 (full year − H1) of 12-month years only", () => {
    const semi = [
      row("2024/03", { sales: 40, total_assets: 1 }, "H1"),
      row("2024/03", { sales: 100, total_assets: 2, roe: 5 }, "full_year"),
      row("2025/03", { sales: 55 }, "H1"),
    ];
    const h2 = selectPeriod(semi, "semiannual", { kind: "relative", offset: -1 });
    expect(h2 && isSecondHalf(h2)).toBe(true);
    if (h2 === undefined || !isSecondHalf(h2)) return;
    expect(secondHalfValue(h2, "sales")).toEqual({ ok: true, value: 60 });
    expect(secondHalfValue(h2, "total_assets")).toEqual({ ok: true, value: 2 });
    expect(secondHalfValue(h2, "roe")).toEqual({ ok: false, reason: "not_additive" });
    const latest = selectPeriod(semi, "semiannual", { kind: "relative", offset: 0 });
    expect(latest?.quarter).toBe("H1");
    expect(selectPeriod(semi, "semiannual", day("2024-03-31"))?.quarter).toBe("H2");
    expect(selectPeriod(semi, "semiannual", day("2024-03-30"))?.quarter).toBe("H1");
  });

  test("年度 is the fiscal year starting in that year, for March and December year ends", () => {
    const march = [row("2024/03", { sales: 1 }), row("2025/03", { sales: 2 })];
    const december = [row("2024/12", { sales: 3 }), row("2025/12", { sales: 4 })];
    const nendo = { kind: "startYear" as const, year: 2024 };
    expect(selectPeriod(march, "annual", nendo)?.fiscal_year).toBe("2025/03");
    expect(selectPeriod(december, "annual", nendo)?.fiscal_year).toBe("2024/12");
  });
});
