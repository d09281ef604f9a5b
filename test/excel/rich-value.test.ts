// Every argument parser reads Excel's data-type values (formatted numbers, typed text and booleans) and refuses entities and unknown objects by name.
import {
  ArgumentError,
  docIdArg,
  headersArg,
  listArg,
  moneyUnitArg,
  optionalChoice,
  optionalDate,
  optionalInteger,
  optionalText,
  personIdArg,
  requiredText,
} from "../../src/excel/args";
import { companyRefArg } from "../../src/excel/company-ref";
import { optionalPeriodArg } from "../../src/excel/fiscal-year-arg";
import { fiscalPeriodChoice, quarterArg } from "../../src/excel/financial-period";
import { orderArg } from "../../src/excel/order";
import {
  companyCodeOfEntity,
  isDateFormatted,
  isMonthFormatted,
  unwrapBasic,
} from "../../src/excel/rich-value";
import { isoToSerial } from "../../src/excel/dates";

const num = (basicValue: number, numberFormat = "#,##0") => ({
  type: "Double",
  basicValue,
  numberFormat,
});
const str = (basicValue: string) => ({ type: "String", basicValue });
const bool = (basicValue: boolean) => ({ type: "Boolean", basicValue });
const ENTITY = { type: "Entity", text: "Memo", properties: { note: str("x") } };
const IMAGE = { type: "WebImage", address: "https://example.test/a.png" };

function refusal(fn: () => unknown): ArgumentError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ArgumentError) return e;
    throw e;
  }
  throw new Error("expected an ArgumentError");
}

/** [parser name, parse, rich input, plain result, argument named on refusal] */
const PARSERS: [string, (v: unknown) => unknown, unknown, unknown, string][] = [
  ["optionalText", (v) => optionalText(v, "name"), str("トヨタ"), "トヨタ", "name"],
  [
    "requiredText",
    (v) => requiredText(v, "item", { en: "x", ja: "x" }),
    str("sales"),
    "sales",
    "item",
  ],
  [
    "optionalInteger",
    (v) => optionalInteger(v, "years", { min: 1, max: 30 }),
    num(10, "0"),
    10,
    "years",
  ],
  [
    "optionalChoice",
    (v) => optionalChoice(v, "layout", ["items_down", "periods_down"]),
    str("periods_down"),
    "periods_down",
    "layout",
  ],
  ["headersArg", (v) => headersArg(v), num(2, "0"), 2, "headers"],
  ["headersArg (Boolean)", (v) => headersArg(v), bool(false), 0, "headers"],
  ["moneyUnitArg", (v) => moneyUnitArg(v), str("百万円"), "million_jpy", "unit"],
  ["orderArg", (v) => orderArg(v), str("desc"), "desc", "order"],
  ["quarterArg", (v) => quarterArg(v), str("Q2"), "Q2", "quarter"],
  ["optionalDate", (v) => optionalDate(v, "to"), num(45382, "yyyy-mm-dd"), "2024-03-31", "to"],
  [
    "optionalPeriodArg",
    (v) => optionalPeriodArg(v, "as_of"),
    num(202403, "0"),
    { spec: { kind: "month", month: "2024/03" }, type: "annual", quarter: undefined },
    "as_of",
  ],
  [
    "fiscalPeriodChoice",
    (v) => fiscalPeriodChoice(v).spec,
    str("FY-1"),
    { kind: "relative", offset: -1 },
    "fiscal_period",
  ],
  ["personIdArg", (v) => personIdArg(v), num(12345, "0"), "12345", "person_id"],
  ["docIdArg", (v) => docIdArg(v), str("S100ABCD"), "S100ABCD", "doc_id"],
  ["companyRefArg", (v) => companyRefArg(v), num(7203, "0"), { security_code: "7203" }, "company"],
];

describe.each(PARSERS)("%s", (_name, parse, rich, plain, argument) => {
  test("reads the basic value of a rich value, also inside a 1x1 range", () => {
    expect(parse(rich)).toEqual(plain);
    expect(parse([[rich]])).toEqual(plain);
  });
  test("an entity or an object of an unknown type: refused, naming the argument and what came", () => {
    if (argument !== "company") {
      const e = refusal(() => parse(ENTITY));
      expect(e.argument).toBe(argument);
      expect(e.message).toContain('(Entity "Memo")');
      expect(e.messageJa).toContain('(Entity "Memo")');
    }
    const img = refusal(() => parse(IMAGE));
    expect(img.argument).toBe(argument);
    expect(img.message).toContain("(WebImage)");
    expect(img.messageJa).toContain("(WebImage)");
    expect(refusal(() => parse({ foo: 1 })).message).toContain("(object)");
  });
});

describe("list arguments", () => {
  test("arrays of rich values are read as their basic values", () => {
    expect(
      listArg([[str("sales")], [str("net_income")]], "items", { en: "keys", ja: "キー" }),
    ).toEqual(["sales", "net_income"]);
  });
  test("an entity inside a list is refused by name", () => {
    const e = refusal(() => listArg([[str("sales"), ENTITY]], "items", { en: "keys", ja: "キー" }));
    expect(e.argument).toBe("items");
    expect(e.message).toContain("Entity");
  });
});

describe("rich-value helpers", () => {
  test("unwrapBasic leaves mismatched or unknown objects alone", () => {
    expect(unwrapBasic({ type: "Double", basicValue: "7203" })).toEqual({
      type: "Double",
      basicValue: "7203",
    });
    expect(unwrapBasic({ type: "FormattedNumber", basicValue: 5, numberFormat: "0" })).toBe(5);
  });
  test("date formats are told from number formats", () => {
    expect(isDateFormatted(num(45382, "yyyy-mm-dd"))).toBe(true);
    expect(isDateFormatted(num(45382, "yyyy/m/d h:mm"))).toBe(true);
    expect(isDateFormatted(num(45382, "#,##0"))).toBe(false);
    expect(isDateFormatted(num(45382, '0.00"d"'))).toBe(false);
  });
  test("entities: COMPANY's card, a Stocks cell, a foreign listing, no code", () => {
    expect(
      companyCodeOfEntity({ type: "Entity", properties: { edinet_code: str("E02144") } }),
    ).toEqual({
      ok: true,
      code: "E02144",
    });
    expect(
      companyCodeOfEntity({
        type: "LinkedEntity",
        properties: { "Ticker symbol": "7203", Exchange: str("Tokyo Stock Exchange") },
      }),
    ).toEqual({ ok: true, code: "7203" });
    expect(
      companyCodeOfEntity({
        type: "LinkedEntity",
        properties: { "Ticker symbol": str("AAPL"), "Exchange abbreviation": str("XNAS") },
      }),
    ).toEqual({ ok: false, reason: "foreign_exchange", exchange: "XNAS" });
    expect(companyCodeOfEntity(ENTITY as never)).toEqual({ ok: false, reason: "no_code" });
  });
});

describe("a month typed as a month: a date cell shown as a year and month names that month", () => {
  /** 2024-03-01: what Excel keeps when `2024/3` is typed into a cell. */
  const MARCH_1 = isoToSerial("2024-03-01") as number;
  const MONTH_FORMATS = [
    "yyyy/m",
    "yyyy/mm",
    'yyyy"年"m"月"',
    "mmm-yy",
    "mmmm yyyy",
    '[$-ja-JP]ggge"年"m"月"',
    "[$-411]ge.m",
  ];
  const DAY_FORMATS = [
    "yyyy/m/d",
    "m/d/yyyy",
    "d-mmm-yy",
    "yyyy-mm-dd h:mm",
    '[$-ja-JP]ggge"年"m"月"d"日"',
    "yyyy/m (aaa)",
  ];

  test.each(MONTH_FORMATS)(
    "%s: FINANCIAL's fiscal_period and a table's as_of name March 2024 (FY2024/03 for a March company)",
    (numberFormat) => {
      const cell = num(MARCH_1, numberFormat);
      expect(isMonthFormatted(cell)).toBe(true);
      expect(isDateFormatted(cell)).toBe(true);
      expect(fiscalPeriodChoice(cell)).toEqual({ spec: { kind: "month", month: "2024/03" } });
      expect(optionalPeriodArg(cell, "as_of")).toEqual({
        spec: { kind: "month", month: "2024/03" },
        type: "annual",
        quarter: undefined,
      });
    },
  );

  test.each(DAY_FORMATS)(
    "%s: a date that shows its day keeps the date rule (the latest period ended by 1 March)",
    (numberFormat) => {
      const cell = num(MARCH_1, numberFormat);
      expect(isMonthFormatted(cell)).toBe(false);
      expect(fiscalPeriodChoice(cell)).toEqual({
        spec: { kind: "onOrBefore", month: "2024/02", iso: "2024-03-01" },
      });
    },
  );

  test("number formats are no month: 202403 with #,##0 stays YYYYMM, 2024 a year, a scientific or General number no date", () => {
    expect(fiscalPeriodChoice(num(202403, "0"))).toEqual({
      spec: { kind: "month", month: "2024/03" },
    });
    expect(fiscalPeriodChoice(num(2024, "#,##0"))).toEqual({ spec: { kind: "year", year: 2024 } });
    for (const numberFormat of ["0.00E+00", "General", "#,##0", '0"月"', "[h]:mm"])
      expect(isMonthFormatted(num(MARCH_1, numberFormat))).toBe(false);
  });
});
