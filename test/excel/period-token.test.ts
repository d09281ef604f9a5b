// Every accepted period form and every ambiguous number, table-driven: what FINANCIAL, FINANCIALS as_of and date arguments read.
import { ArgumentError, optionalDate } from "../../src/excel/args";
import { financialPeriodArgs, fiscalPeriodChoice } from "../../src/excel/financial-period";
import {
  monthWithoutAnswer,
  optionalPeriodArg,
  yearWithoutAnswer,
} from "../../src/excel/fiscal-year-arg";

/** FINANCIALS as_of as a month, when no answer is needed to read it. */
const asOfMonth = (v: unknown) => {
  const arg = optionalPeriodArg(v, "as_of");
  return arg === undefined ? undefined : monthWithoutAnswer(arg);
};
/** A fiscal-year argument as a year, when no answer is needed to read it. */
const plainYear = (v: unknown) => {
  const arg = optionalPeriodArg(v, "fiscal_year");
  return arg === undefined ? undefined : yearWithoutAnswer(arg);
};
import { lastEndedMonth, periodNumber } from "../../src/excel/period-number";

const dateCell = (serial: number) => ({
  type: "Double",
  basicValue: serial,
  numberFormat: "yyyy-mm-dd",
});

describe("period tokens (fiscal_period)", () => {
  test.each<[unknown, object]>([
    [null, { spec: { kind: "relative", offset: 0 } }],
    [0, { spec: { kind: "relative", offset: 0 } }],
    [-2, { spec: { kind: "relative", offset: -2 } }],
    ["-1", { spec: { kind: "relative", offset: -1 } }],
    ["FY0", { spec: { kind: "relative", offset: 0 }, impliedType: "annual" }],
    ["FY-1", { spec: { kind: "relative", offset: -1 }, impliedType: "annual" }],
    ["fy-3", { spec: { kind: "relative", offset: -3 }, impliedType: "annual" }],
    ["ＦＹ－１", { spec: { kind: "relative", offset: -1 }, impliedType: "annual" }],
    ["LTM", { spec: { kind: "relative", offset: 0 }, impliedType: "LTM" }],
    ["LTM-1", { spec: { kind: "relative", offset: -1 }, impliedType: "LTM" }],
    ["FQ0", { spec: { kind: "relative", offset: 0 }, impliedType: "quarterly" }],
    ["FQ-2", { spec: { kind: "relative", offset: -2 }, impliedType: "quarterly" }],
    ["FH0", { spec: { kind: "relative", offset: 0 }, impliedType: "semiannual" }],
    ["FH-1", { spec: { kind: "relative", offset: -1 }, impliedType: "semiannual" }],
    [
      "2024Q2",
      { spec: { kind: "year", year: 2024 }, impliedType: "quarterly", impliedQuarter: "Q2" },
    ],
    [
      "2024 2Q",
      { spec: { kind: "year", year: 2024 }, impliedType: "quarterly", impliedQuarter: "Q2" },
    ],
    [
      "2024H1",
      { spec: { kind: "year", year: 2024 }, impliedType: "semiannual", impliedQuarter: "H1" },
    ],
    ["FY2024", { spec: { kind: "year", year: 2024 } }],
    [
      "FY2024Q3",
      { spec: { kind: "year", year: 2024 }, impliedType: "quarterly", impliedQuarter: "Q3" },
    ],
    [2024, { spec: { kind: "year", year: 2024 } }],
    ["2024", { spec: { kind: "year", year: 2024 } }],
    ["2024/03", { spec: { kind: "month", month: "2024/03" } }],
    ["2024-3", { spec: { kind: "month", month: "2024/03" } }],
    [202403, { spec: { kind: "month", month: "2024/03" } }],
    ["202403", { spec: { kind: "month", month: "2024/03" } }],
    ["2024年3月期", { spec: { kind: "month", month: "2024/03" } }],
    ["２０２４年３月期", { spec: { kind: "month", month: "2024/03" } }],
    ["2024/03期", { spec: { kind: "month", month: "2024/03" } }],
    ["令和6年3月期", { spec: { kind: "month", month: "2024/03" } }],
    ["令和元年12月期", { spec: { kind: "month", month: "2019/12" } }],
    ["平成31年3月期", { spec: { kind: "month", month: "2019/03" } }],
    ["R6年3月期", { spec: { kind: "month", month: "2024/03" } }],
    [
      "2024年3月期第2四半期",
      { spec: { kind: "month", month: "2024/03" }, impliedType: "quarterly", impliedQuarter: "Q2" },
    ],
    [
      "2024年3月期 中間期",
      {
        spec: { kind: "month", month: "2024/03" },
        impliedType: "semiannual",
        impliedQuarter: "H1",
      },
    ],
    // Dates: the latest period that has ended by that day (a period ends on its month's last day).
    [45382, { spec: { kind: "onOrBefore", month: "2024/03", iso: "2024-03-31" } }], // 2024-03-31
    [45366, { spec: { kind: "onOrBefore", month: "2024/02", iso: "2024-03-15" } }], // 2024-03-15
    [dateCell(45366), { spec: { kind: "onOrBefore", month: "2024/02", iso: "2024-03-15" } }],
    [20240315, { spec: { kind: "onOrBefore", month: "2024/02", iso: "2024-03-15" } }],
    ["2024-03-15", { spec: { kind: "onOrBefore", month: "2024/02", iso: "2024-03-15" } }],
    ["2024/3/31", { spec: { kind: "onOrBefore", month: "2024/03", iso: "2024-03-31" } }],
    ["2024年3月31日", { spec: { kind: "onOrBefore", month: "2024/03", iso: "2024-03-31" } }],
    // H2 is derived (full year − H1); 年度 is the fiscal year starting in that year.
    [
      "2024H2",
      { spec: { kind: "year", year: 2024 }, impliedType: "semiannual", impliedQuarter: "H2" },
    ],
    ["2024年度", { spec: { kind: "startYear", year: 2024 } }],
    ["令和6年度", { spec: { kind: "startYear", year: 2024 } }],
    ["令和元年度", { spec: { kind: "startYear", year: 2019 } }],
    [
      "2024年度第1四半期",
      {
        spec: { kind: "startYear", year: 2024 },
        impliedType: "quarterly",
        impliedQuarter: "Q1",
      },
    ],
    [
      { type: "Double", basicValue: 202403, numberFormat: "#,##0" },
      { spec: { kind: "month", month: "2024/03" } },
    ],
    [
      { type: "String", basicValue: "FY-1" },
      { spec: { kind: "relative", offset: -1 }, impliedType: "annual" },
    ],
  ])("%j", (input, expected) => {
    expect(fiscalPeriodChoice(input)).toEqual(expected);
  });

  test.each<unknown>([
    5, // neither a relative offset nor a year
    1899,
    2101, // a year out of range, and a serial of 1905: refused, never a date
    10_000, // a serial of 1927: older than any data
    73_416,
    190_000,
    202_413, // no 13th month
    300_000,
    20_240_231, // no February 31st
    1.5,
    "FY1", // the future
    "2024H3",
    "2024年度第5四半期",
    "last year",
    "2024Q5",
    "2024/031", // not a date: a day needs its separator
    "2024年3月期31日",
    true,
    { type: "Entity", text: "Toyota", properties: {} },
    { type: "WebImage", address: "https://example.test/x.png" },
    [[2023, 2024]],
  ])("%j is refused naming fiscal_period with the accepted forms", (input) => {
    let err: unknown;
    try {
      fiscalPeriodChoice(input);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ArgumentError);
    expect((err as ArgumentError).argument).toBe("fiscal_period");
    expect((err as ArgumentError).message).toMatch(/FY-1/);
    expect((err as ArgumentError).messageJa).toMatch(/2024年3月期/);
  });

  test("the entity received is named in the message", () => {
    expect(() => fiscalPeriodChoice({ type: "Entity", text: "Toyota", properties: {} })).toThrow(
      /fiscal_period \(Entity "Toyota"\)/,
    );
  });
});

describe("fiscal_period, period and quarter together", () => {
  test("a token fills an omitted period and quarter", () => {
    expect(financialPeriodArgs("2024Q2", null, null)).toEqual({
      spec: { kind: "year", year: 2024 },
      type: "quarterly",
      quarter: "Q2",
    });
    expect(financialPeriodArgs("LTM-1", null, null).type).toBe("LTM");
    expect(financialPeriodArgs("FH0", null, null).type).toBe("semiannual");
  });
  test("the existing period and quarter arguments keep working", () => {
    expect(financialPeriodArgs(2024, "quarterly", "Q2")).toEqual({
      spec: { kind: "year", year: 2024 },
      type: "quarterly",
      quarter: "Q2",
    });
    expect(financialPeriodArgs(-1, "LTM", null).type).toBe("LTM");
  });
  test("a quarter token with period LTM is the quarter the twelve months end with", () => {
    expect(financialPeriodArgs("2024Q2", "LTM", null)).toMatchObject({
      type: "LTM",
      quarter: "Q2",
    });
  });
  test("a contradiction is refused, never one of the two silently", () => {
    expect(() => financialPeriodArgs("FQ-1", "annual", null)).toThrow(/period/);
    expect(() => financialPeriodArgs("2024Q2", null, "Q3")).toThrow(/quarter/);
    expect(() => financialPeriodArgs("FY-1", "quarterly", null)).toThrow(ArgumentError);
  });
});

describe("the number rule shared by every period and date argument", () => {
  test.each<[number, ReturnType<typeof periodNumber>]>([
    [1900, { kind: "year", year: 1900 }],
    [2100, { kind: "year", year: 2100 }],
    [18_264, { kind: "date", iso: "1950-01-01" }],
    [73_415, { kind: "date", iso: "2100-12-31" }],
    [190_001, { kind: "month", year: 1900, month: 1 }],
    [210_012, { kind: "month", year: 2100, month: 12 }],
    [20_240_229, { kind: "date", iso: "2024-02-29" }],
    [2101, undefined],
    [18_263, undefined],
    [73_416, undefined],
    [210_013, undefined],
    [21_001_232, undefined],
  ])("%d", (n, expected) => {
    expect(periodNumber(n)).toEqual(expected);
  });
  test("a period ends on the last day of its month", () => {
    expect(lastEndedMonth("2024-03-31")).toBe("2024/03");
    expect(lastEndedMonth("2024-03-30")).toBe("2024/02");
    expect(lastEndedMonth("2024-02-29")).toBe("2024/02");
    expect(lastEndedMonth("2024-01-15")).toBe("2023/12");
  });
});

describe("FINANCIALS as_of reads the input as FINANCIAL's fiscal_period does", () => {
  test.each<[unknown, string]>([
    [202403, "2024/03"],
    ["202403", "2024/03"],
    ["2024/03", "2024/03"],
    ["2024年3月期", "2024/03"],
    ["令和6年3月期", "2024/03"],
    [2024, "2024/12"],
    ["FY2024", "2024/12"],
    [45382, "2024/03"],
    [45366, "2024/02"],
    [dateCell(45366), "2024/02"],
  ])("%j -> %s", (input, month) => {
    expect(asOfMonth(input)).toBe(month);
  });
  test.each<unknown>(["FY-1", "2024Q2", "LTM", "2024年度", "令和元年度"])(
    "%j names a fiscal year of the company: read from its answer, not from the text",
    (input) => {
      expect(asOfMonth(input)).toBeUndefined();
    },
  );
  test.each<unknown>([5, 300_000, "2024H3"])("%j is refused", (input) => {
    expect(() => asOfMonth(input)).toThrow(ArgumentError);
  });
});

describe("date arguments never read a year or a month as a day", () => {
  test.each<[unknown, string]>([
    [45382, "2024-03-31"],
    [45382.75, "2024-03-31"],
    [20240331, "2024-03-31"],
    ["20240331", "2024-03-31"],
    ["2024/3/31", "2024-03-31"],
    [dateCell(45382), "2024-03-31"],
  ])("%j -> %s", (input, iso) => {
    expect(optionalDate(input, "to")).toBe(iso);
  });
  test.each<unknown>([2024, 202403, 10, 100_000])("%j is refused", (input) => {
    expect(() => optionalDate(input, "to")).toThrow(/to 2|to 1/);
  });
});

describe("year arguments", () => {
  test.each<[unknown, number]>([
    [2024, 2024],
    ["FY2024", 2024],
    [202403, 2024],
    ["2024年3月期", 2024],
    ["令和6年3月期", 2024],
    [{ type: "Double", basicValue: 2024, numberFormat: "0" }, 2024],
  ])("%j -> %d", (input, year) => {
    expect(plainYear(input)).toBe(year);
  });
  test.each<unknown>([45382, "2024-03-15", "FY-1", "2024年度"])(
    "%j names a fiscal year of the company (its answer decides which)",
    (input) => {
      expect(plainYear(input)).toBeUndefined();
    },
  );
  test.each<unknown>([1800, "last year"])("%j is refused", (input) => {
    expect(() => plainYear(input)).toThrow(ArgumentError);
  });
});
