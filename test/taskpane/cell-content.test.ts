// taskpane/excel/cell-content isKaishaFormula: which Range.formulas texts call a KAISHA function (the
// one rule the builder's write-back, Freeze, Restore and the re-entering of formulas share).
import { isFormulaCell, isKaishaFormula } from "../../taskpane/excel/cell-content";

describe("isKaishaFormula", () => {
  test.each([
    "=KAISHA.PRICE(7203)",
    "=kaisha.price(7203)",
    '=Kaisha.Financial(7203,"sales")',
    "=IFERROR(KAISHA.PRICE(7203),0)",
    "=A1*KAISHA.PRICE(7203)",
    "=@KAISHA.PRICE(7203)",
    '=IF(A1="","",KAISHA.FINANCIAL(A1,"sales"))',
    "=KAISHA.USAGE()",
    "='My sheet'!A1+KAISHA.PRICE(7203)",
  ])("a KAISHA call: %s", (formula) => {
    expect(isKaishaFormula(formula)).toBe(true);
  });

  test.each([
    ["leading spaces make text, not a formula", "  =KAISHA.PRICE(7203)"],
    ["no equals sign", "KAISHA.PRICE(7203)"],
    ["the call is inside a text literal", '="KAISHA.PRICE(7203)"'],
    ["a text literal with quotes inside", '="say ""KAISHA.PRICE(7203)"""&A1'],
    ["inside a quoted sheet name", "='KAISHA.PRICE(1'!A1"],
    ["a longer name", "=MYKAISHA.PRICE(7203)"],
    ["a name with KAISHA as its last part", "=X.KAISHA.PRICE(7203)"],
    ["the namespace alone", "=KAISHA.(1)"],
    ["Excel's own functions only", "=SUM(A1:A3)"],
    ["a number", 42],
    ["empty", ""],
    ["not loaded", undefined],
  ])("not a KAISHA call: %s", (_, formula) => {
    expect(isKaishaFormula(formula)).toBe(false);
  });

  test("a Text cell holding '=KAISHA… reads the same from Range.formulas: isFormulaCell tells it apart", () => {
    const text = "=KAISHA.PRICE(7203)";
    expect(isKaishaFormula(text)).toBe(true);
    expect(isFormulaCell(text, text)).toBe(false); // its value repeats its text
    expect(isFormulaCell(text, 2500)).toBe(true); // a formula's value is its result
  });
});
