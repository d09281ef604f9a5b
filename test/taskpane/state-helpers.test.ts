// Small state helpers: key shape, formula quoting, language choice, units, refresh cost, problems.

import { checkKeyShape, normalizeKey } from "../../taskpane/state/key-shape";
import { kaishaFormula, quoteText } from "../../taskpane/state/formula-text";
import { resolveLanguage } from "../../taskpane/i18n/language";
import {
  dateSerial,
  dateTimeSerialJst,
  numberFormatFor,
  scaleValue,
} from "../../taskpane/state/units";
import { estimateRefreshCost, parseKaishaCall } from "../../taskpane/state/refresh-cost";
import { problemsOf, genericErrorKey } from "../../taskpane/state/problems";
import { columnLetter, parseAddress, rangeAddress } from "../../taskpane/state/a1";
import { ja } from "../../taskpane/i18n/ja";
import { en } from "../../taskpane/i18n/en";

const GOOD_KEY = "kaisakey_" + "A1b2C3d4E5".repeat(4) + "xyz";

test("key shape (bearerAuth): 52 characters with a 9-character prefix ending in key_", () => {
  expect(GOOD_KEY).toHaveLength(52);
  expect(checkKeyShape(GOOD_KEY)).toBe("ok");
  expect(checkKeyShape(`  ${GOOD_KEY} `)).toBe("ok");
  expect(checkKeyShape("")).toBe("empty");
  expect(checkKeyShape("kaisakey_short")).toBe("wrong_length");
  expect(checkKeyShape("kaisaXXXX" + GOOD_KEY.slice(9))).toBe("wrong_prefix");
  // Characters an HTTP header cannot carry get their own, clearer verdict (issue 13).
  expect(checkKeyShape("kaisakey_" + "あ".repeat(43))).toBe("not_header_safe");
  expect(checkKeyShape("kaisakey_" + "!".repeat(43))).toBe("bad_characters");
});

test("a key pasted with its Authorization header's Bearer prefix is taken without it", () => {
  expect(checkKeyShape(`Bearer ${GOOD_KEY}`)).toBe("ok");
  expect(checkKeyShape(` bearer  ${GOOD_KEY}\n`)).toBe("ok");
  expect(normalizeKey(`Bearer ${GOOD_KEY}`)).toBe(GOOD_KEY);
  expect(normalizeKey(GOOD_KEY)).toBe(GOOD_KEY);
});

test("formula text: quotes doubled, numbers bare, trailing empties dropped, inner empties kept", () => {
  expect(quoteText('a "b"')).toBe('"a ""b"""');
  expect(
    kaishaFormula("FINANCIAL", ["7203", "sales", undefined, "annual", undefined, undefined]),
  ).toBe('=KAISHA.FINANCIAL("7203","sales",,"annual")');
  expect(kaishaFormula("USAGE", [])).toBe("=KAISHA.USAGE()");
});

test("language: ?lang wins, then the saved override, then Office, then the browser", () => {
  expect(resolveLanguage({ query: "en", saved: "ja", office: "ja-JP" })).toBe("en");
  expect(resolveLanguage({ saved: "en", office: "ja-JP" })).toBe("en");
  expect(resolveLanguage({ office: "ja-JP", browser: "en-US" })).toBe("ja");
  expect(resolveLanguage({ office: "de-DE" })).toBe("en");
  expect(resolveLanguage({ browser: "ja" })).toBe("ja");
  expect(resolveLanguage({ query: "fr" })).toBe("ja");
});

test("ja and en tables have the same keys and no empty text", () => {
  expect(Object.keys(ja).sort()).toEqual(Object.keys(en).sort());
  for (const v of [...Object.values(ja), ...Object.values(en)]) expect(v.trim()).not.toBe("");
  expect(ja.keyRemember).toBe("この端末に保存");
  expect(ja.keyVerify).toBe("接続を確認");
  expect(ja.importAsTable).toBe("表として取り込む");
  expect(ja.freezeValues).toBe("値に固定");
});

test("units: money scales, per-share never does, every percentage is a fraction shown as %; dates are serials", () => {
  expect(scaleValue(123_000_000, "jpy", "million_jpy")).toBe(123);
  expect(scaleValue(12.5, "jpy_per_share", "million_jpy")).toBe(12.5);
  // One scale (README "Percentages"): a percent 3.68 is the cell 0.0368, a ratio stays as sent.
  expect(scaleValue(3.68, "percent", "million_jpy")).toBe(3.68 / 100);
  expect(scaleValue(0.655, "ratio", "million_jpy")).toBe(0.655);
  expect(numberFormatFor("number", "million_jpy")).toBe("#,##0");
  expect(numberFormatFor("number", "jpy_per_share")).toBe("#,##0.00");
  expect(numberFormatFor("number", "ratio")).toBe("0.00%");
  expect(numberFormatFor("number", "percent")).toBe("0.00%");
  expect(numberFormatFor("date", undefined)).toBe("yyyy-mm-dd");
  expect(dateSerial("1900-03-01")).toBe(61);
  expect(dateSerial("2026-01-01")).toBe(46023);
  expect(dateSerial("2026/01/01")).toBeUndefined();
  // 15:00 UTC is midnight the next day in Japan.
  expect(dateTimeSerialJst("2026-01-01T15:00:00Z")).toBe(46024);
});

test("refresh cost: FINANCIAL cells of one company share one request; FIELDS costs none", () => {
  const cells = [
    ...["sales", "net_income", "eps"].flatMap((item) =>
      [0, -1, -2].map((p) => ({ formula: `=KAISHA.FINANCIAL("7203","${item}",${p})`, sheet: "M" })),
    ),
    { formula: '=KAISHA.FINANCIAL("7203","sales",0,"quarterly")', sheet: "M" },
    { formula: "=KAISHA.FINANCIAL($B$2,$B10,C$9)", sheet: "Kaisha_7203" },
    { formula: "=KAISHA.FINANCIAL($B$2,$B11,D$9)", sheet: "Kaisha_7203" },
    { formula: '=KAISHA.FIELDS("financials")', sheet: "M" },
    { formula: '=KAISHA.VALUATION("7203","per")', sheet: "M" },
    { formula: '=KAISHA.VALUATION("7203","pbr_adjusted",5)', sheet: "M" },
    { formula: '=KAISHA.SCREEN("per:lte:15,roe:gte:10")', sheet: "M" },
  ];
  expect(estimateRefreshCost(cells)).toBe(5);
  expect(parseKaishaCall('=KAISHA.SCREEN("a,""b""",SUM(1,2),)')?.args).toEqual([
    '"a,""b"""',
    "SUM(1,2)",
    "",
  ]);
});

test("problems: error values of KAISHA cells, with the function's message when Excel exposes it", () => {
  const problems = problemsOf([
    { sheet: "S", address: "A1", formula: "=KAISHA.PRICE(1)", value: 100 },
    {
      sheet: "S",
      address: "A2",
      formula: '=KAISHA.PRICE("x")',
      value: "#VALUE!",
      errorMessage: "security_code: 4-5 characters",
    },
    { sheet: "S", address: "A3", formula: '=KAISHA.PRICE("9999")', value: "#N/A" },
  ]);
  expect(problems).toEqual([
    {
      sheet: "S",
      address: "A2",
      formula: '=KAISHA.PRICE("x")',
      error: "#VALUE!",
      message: "security_code: 4-5 characters",
    },
    { sheet: "S", address: "A3", formula: '=KAISHA.PRICE("9999")', error: "#N/A" },
  ]);
  expect(genericErrorKey("#N/A")).toBe("err_NotAvailable");
  expect(genericErrorKey("#SPILL!")).toBe("err_other");
});

// The formula builder's catalogue is tested in function-catalogue.test.ts (from functions.json).

test("A1 helpers", () => {
  expect(columnLetter(0)).toBe("A");
  expect(columnLetter(27)).toBe("AB");
  expect(parseAddress("'My ''s'!$C$4:D9")).toEqual({ sheet: "My 's", row: 3, col: 2 });
  expect(rangeAddress(1, 1, 2, 3)).toBe("B2:D3");
});
