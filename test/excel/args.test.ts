// Excel argument parsing: omitted values, numbers vs text, ranges, and errors naming the argument.
import {
  ArgumentError,
  docIdArg,
  headersArg,
  listArg,
  moneyUnitArg,
  optionalChoice,
  optionalDate,
  optionalInteger,
  personIdArg,
  requiredChoice,
} from "../../src/excel/args";
import { companyRefArg as companyArg } from "../../src/excel/company-ref";
import {
  monthWithoutAnswer,
  optionalPeriodArg,
  yearWithoutAnswer,
} from "../../src/excel/fiscal-year-arg";

const asOfMonth = (v: unknown) => {
  const arg = optionalPeriodArg(v, "as_of");
  return arg === undefined ? undefined : monthWithoutAnswer(arg);
};
const plainYear = (v: unknown) => {
  const arg = optionalPeriodArg(v, "fiscal_year");
  return arg === undefined ? undefined : yearWithoutAnswer(arg);
};

function caught(fn: () => unknown): ArgumentError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ArgumentError) return e;
    throw e;
  }
  throw new Error("expected an ArgumentError");
}

describe("company and code arguments", () => {
  test("a security code typed as a number becomes text", () => {
    expect(companyArg(7203)).toEqual({ security_code: "7203" });
  });
  test("alphanumeric codes are trimmed and upper-cased", () => {
    expect(companyArg(" 130a ")).toEqual({ security_code: "130A" });
  });
  test("an EDINET code is recognised", () => {
    expect(companyArg("e02144")).toEqual({ edinet_code: "E02144" });
  });
  test("a single-cell range is read as its value", () => {
    expect(companyArg([[7203]])).toEqual({ security_code: "7203" });
  });
  test("an invalid code names the argument and what it accepts, in both languages", () => {
    const err = caught(() => companyArg("72"));
    expect(err.argument).toBe("company");
    expect(err.message).toContain("company");
    expect(err.message).toContain("7203");
    expect(err.messageJa).toContain("証券コード");
  });
  test("an omitted required code is refused", () => {
    expect(caught(() => companyArg(null)).argument).toBe("company");
    expect(caught(() => companyArg(undefined)).argument).toBe("company");
    expect(caught(() => companyArg("")).argument).toBe("company");
  });
  test("fractional numbers are not codes", () => {
    expect(() => companyArg(7203.5)).toThrow(ArgumentError);
  });
  test("person ids are digits; doc ids are S+7 or 14 digits", () => {
    expect(personIdArg(12345)).toBe("12345");
    expect(() => personIdArg("abc")).toThrow(ArgumentError);
    expect(docIdArg("s100abcd")).toBe("S100ABCD");
    expect(docIdArg("20240510123456")).toBe("20240510123456");
    expect(() => docIdArg("X1")).toThrow(ArgumentError);
  });
});

describe("numbers, choices and booleans", () => {
  test("integers accept numbers and numeric text, omitted gives undefined", () => {
    expect(optionalInteger(10, "years", { min: 1, max: 30 })).toBe(10);
    expect(optionalInteger("１０", "years", { min: 1, max: 30 })).toBe(10);
    expect(optionalInteger(null, "years", { min: 1, max: 30 })).toBeUndefined();
    expect(optionalInteger("", "years", { min: 1, max: 30 })).toBeUndefined();
  });
  test("out of range and fractions are refused with the range in the message", () => {
    const err = caught(() => optionalInteger(31, "years", { min: 1, max: 30 }));
    expect(err.message).toBe("years 31: use a whole number 1-30");
    expect(err.messageJa).toContain("1〜30 の整数");
    expect(() => optionalInteger(2.5, "years", { min: 1, max: 30 })).toThrow(ArgumentError);
  });
  test("choices are case-insensitive and return the canonical spelling", () => {
    expect(optionalChoice("ANNUAL", "period", ["annual", "quarterly"] as const)).toBe("annual");
    expect(
      optionalChoice("quarterly", "p", ["annual", "quarter"] as const, { quarterly: "quarter" }),
    ).toBe("quarter");
    expect(
      caught(() => optionalChoice("weekly", "period", ["annual", "quarterly"] as const)).message,
    ).toContain("annual | quarterly");
  });
  test("a required choice that is omitted is refused", () => {
    expect(() => requiredChoice(null, "metric", ["gainers"] as const)).toThrow(ArgumentError);
  });
  test("headers: omitted is 1, TRUE/FALSE are 1/0, 3 is refused", () => {
    expect(headersArg(null)).toBe(1);
    expect(headersArg(2)).toBe(2);
    expect(headersArg(true)).toBe(1);
    expect(headersArg(false)).toBe(0);
    expect(() => headersArg(3)).toThrow(ArgumentError);
  });
  test("unit accepts the API words and Japanese unit names", () => {
    expect(moneyUnitArg(null)).toBe("jpy");
    expect(moneyUnitArg("Million_JPY")).toBe("million_jpy");
    expect(moneyUnitArg("億円")).toBe("hundred_million_jpy");
    expect(() => moneyUnitArg("usd")).toThrow(ArgumentError);
  });
  test("years accept a period label or a year", () => {
    expect(plainYear("2024/03")).toBe(2024);
    expect(plainYear(2020)).toBe(2020);
    expect(() => plainYear(1800)).toThrow(ArgumentError);
  });
});

describe("dates", () => {
  test("an Excel serial is a JST calendar day", () => {
    expect(optionalDate(45382, "to")).toBe("2024-03-31");
  });
  test("date text in several spellings", () => {
    expect(optionalDate("2024/3/1", "from")).toBe("2024-03-01");
    expect(optionalDate("2024-03-01", "from")).toBe("2024-03-01");
  });
  test("serials below 61 (Excel's 1900 leap-year bug) and nonsense are refused", () => {
    expect(() => optionalDate(10, "from")).toThrow(ArgumentError);
    expect(caught(() => optionalDate("yesterday", "from")).argument).toBe("from");
  });
  test("fiscal months from text or dates", () => {
    expect(asOfMonth("2024/03")).toBe("2024/03");
    expect(asOfMonth(45382)).toBe("2024/03");
    expect(optionalPeriodArg(null, "as_of")).toBeUndefined();
  });
  test("the Japanese period notation 2024年3月期 names the period ending March 2024", () => {
    expect(asOfMonth("2024年3月期")).toBe("2024/03");
    expect(asOfMonth("２０２４年３月期")).toBe("2024/03");
    expect(plainYear("2024年3月期")).toBe(2024);
    expect(plainYear("2024/03期")).toBe(2024);
    // 2024年度 depends on the company's year end: read from its answer, not the text.
    expect(optionalPeriodArg("2024年度", "as_of")?.spec).toEqual({ kind: "startYear", year: 2024 });
  });
});

describe("lists", () => {
  const accepted = { en: "keys", ja: "キー" };
  test("a comma list (also Japanese commas) is split and trimmed", () => {
    expect(listArg("sales, net_income、eps", "items", accepted)).toEqual([
      "sales",
      "net_income",
      "eps",
    ]);
  });
  test("a range is flattened row by row, skipping empty cells and the 0 of old desktop builds", () => {
    expect(
      listArg(
        [
          ["sales", null],
          ["", "eps"],
          [0, "bps"],
        ],
        "items",
        accepted,
      ),
    ).toEqual(["sales", "eps", "bps"]);
  });
  test("nothing given is undefined", () => {
    expect(listArg(null, "items", accepted)).toBeUndefined();
    expect(listArg([[null]], "items", accepted)).toBeUndefined();
  });
  test("an absurdly long list is refused", () => {
    expect(() => listArg("x".repeat(5000), "sector", accepted)).toThrow(ArgumentError);
  });
  test("a number in a key list is refused", () => {
    expect(caught(() => listArg([["sales", 5]], "items", accepted)).argument).toBe("items");
  });
});
