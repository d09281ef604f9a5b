// Small state helpers: key shape, formula quoting, language choice, units, refresh cost, problems.

import { checkKeyShape, normalizeKey } from "../../taskpane/state/key-shape";
import { kaishaFormula, quoteText } from "../../taskpane/state/formula-text";
import { format, resolveLanguage } from "../../taskpane/i18n/language";
import { translator } from "../../taskpane/i18n/messages";
import { attributionCaption, shapeTable } from "../../taskpane/state/table-data";
import { numberFormatFor } from "../../src/excel/number-formats";
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
  // Characters an HTTP header cannot carry get their own, clearer verdict.
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

test("table imports: money keeps yen shown in the unit by format, per-share as sent, percentages are fractions, headers say the unit", () => {
  const rows = [
    {
      date: "2026-01-01",
      disclosed_at: "2026-01-01T15:00:00Z",
      sales: 123_000_000,
      eps: 60,
      payout: 3.68,
      er: 0.655,
      days: 12,
    },
    {
      date: "1900-03-01",
      disclosed_at: "x",
      sales: 1_500_000,
      eps: 62.5,
      payout: 30,
      er: 0.4,
      days: 3,
    },
  ];
  const fields = [
    { key: "sales", label: "売上高", unit: "jpy" },
    { key: "eps", label: "EPS", unit: "jpy_per_share" },
    { key: "payout", label: "配当性向", unit: "percent" },
    { key: "er", label: "自己資本比率", unit: "ratio" },
    { key: "days", label: "日数", unit: "days" },
  ];
  const table = shapeTable(rows, fields, undefined, {
    lang: "ja",
    headers: "ja",
    scale: "million_jpy",
  });
  // One scale (README "Money", "Percentages"): yen stay yen (the format shows 百万円), a percent
  // 3.68 is the cell 0.0368, a ratio stays as sent; dates are serials, an instant is its Japan
  // wall-clock time (15:00 UTC is midnight in Japan).
  expect(table.rows[0]).toEqual([46023, 46024, 123_000_000, 60, 3.68 / 100, 0.655, 12]);
  expect(table.rows[1]).toEqual([61, "x", 1_500_000, 62.5, 0.3, 0.4, 3]);
  expect(table.columns.map((c) => c.header)).toEqual([
    "日付",
    "開示日時",
    "売上高（百万円）",
    "EPS（円/株）",
    "配当性向（%）",
    "自己資本比率（%）",
    "日数（日）",
  ]);
  expect(table.columns.map((c) => c.numberFormat)).toEqual([
    "yyyy/mm/dd",
    "yyyy/mm/dd hh:mm",
    "#,##0,,",
    "#,##0.0",
    "0.00%",
    "0.0%",
    "General",
  ]);
  // The same format a function gives the column's most precise value (src/excel number-formats.ts).
  expect(table.columns[3]?.numberFormat).toBe(
    numberFormatFor("jpy_per_share", 62.5, "million_jpy"),
  );
  expect(attributionCaption(table, "ja")).toBe("金額単位: 百万円");
  const thousand = shapeTable(rows, fields, undefined, { lang: "en", scale: "thousand_jpy" });
  expect(attributionCaption(thousand, "en")).toBe("Amounts in thousand JPY");
  expect(thousand.columns.map((c) => c.header)).toEqual([
    "date",
    "disclosed_at",
    "sales",
    "eps",
    "payout",
    "er",
    "days",
  ]);
  expect(thousand.columns[2]?.numberFormat).toBe("#,##0,");
  expect(thousand.rows[0]?.[2]).toBe(123_000_000);
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

describe("English counts take the word their number asks for", () => {
  const en = translator("en");
  const ja = translator("ja");
  test.each([
    [1, "Updating 1 company, 3 min left."],
    [2, "Updating 2 companies, 3 min left."],
    [0, "Updating 0 companies, 3 min left."],
  ])("%i companies", (c, text) => {
    expect(en("revalUpdating", { c, m: 3 })).toBe(text);
  });
  test("a plural form with its variable missing stays as written; Japanese has none", () => {
    expect(format("{n|row|rows} fetched", {})).toBe("{n|row|rows} fetched");
    expect(en("countCompanies", { n: 1 })).toBe("1 company");
    expect(ja("countCompanies", { n: 1 })).not.toMatch(/\|/);
  });
  test("no English message leaves a plural form unreplaced when its counts are given", () => {
    for (const [key, template] of Object.entries(en)) {
      const names = [...template.matchAll(/\{(\w+)(?:\|[^|{}]*\|[^|{}]*)?\}/g)].map((m) => m[1]);
      const vars = Object.fromEntries(names.map((n) => [n as string, 1]));
      expect({ key, text: format(template, vars) }).toEqual({
        key,
        text: expect.not.stringMatching(/[{}|]/) as unknown as string,
      });
    }
  });
});
