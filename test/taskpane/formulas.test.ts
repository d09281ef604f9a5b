// taskpane/excel/formulas: finding, inserting and recalculating KAISHA formulas.

jest.mock("office-addin-manifest", () => ({ OfficeApp: { Excel: "excel", Outlook: "outlook" } }));

import { installFakeExcel, uninstallFakeExcel } from "./fake-excel";
import {
  findKaishaFormulas,
  insertFormula,
  recalculateAll,
  selectCell,
} from "../../taskpane/excel/formulas";

afterEach(() => {
  uninstallFakeExcel();
  delete (globalThis as { Office?: unknown }).Office;
});

/** A host with ExcelApi 1.16 (valuesAsJson: the functions' error messages). */
function hostWithValuesAsJson(): void {
  (globalThis as { Office?: unknown }).Office = {
    context: { requirements: { isSetSupported: (name: string) => name === "ExcelApi" } },
  };
}

const model = {
  name: "Model",
  used: {
    address: "Model!B2:C3",
    values: [
      [2_000_000, "#N/A"],
      ["text", 5],
    ],
    formulas: [
      ['=KAISHA.FINANCIAL("7203","sales")', '=KAISHA.PRICE("9999")'],
      ["text", "=SUM(1,4)"],
    ],
    valuesAsJson: [
      [
        { type: "Double" },
        { type: "Error", errorType: "NotAvailable", errorMessage: "Security not found" },
      ],
      [{ type: "String" }, { type: "Double" }],
    ],
  },
};

test("findKaishaFormulas(workbook): only KAISHA formulas, with addresses, values and error messages", async () => {
  hostWithValuesAsJson();
  installFakeExcel({ sheets: [model, { name: "Empty" }] });
  const cells = await findKaishaFormulas("workbook", true);
  expect(cells).toEqual([
    {
      sheet: "Model",
      address: "B2",
      formula: '=KAISHA.FINANCIAL("7203","sales")',
      value: 2_000_000,
    },
    {
      sheet: "Model",
      address: "C2",
      formula: '=KAISHA.PRICE("9999")',
      value: "#N/A",
      errorType: "NotAvailable",
      errorMessage: "Security not found",
    },
  ]);
});

test("findKaishaFormulas(workbook) without ExcelApi 1.16: the same cells, without messages", async () => {
  installFakeExcel({ sheets: [model, { name: "Empty" }] });
  const cells = await findKaishaFormulas("workbook", true);
  expect(cells.map((c) => [c.address, c.value, c.errorMessage])).toEqual([
    ["B2", 2_000_000, undefined],
    ["C2", "#N/A", undefined],
  ]);
});

test("findKaishaFormulas(selection): scans the selected range only", async () => {
  installFakeExcel({
    sheets: [model],
    selection: { address: "Model!D4", values: [[1]], formulas: [['=kaisha.valuation("7203")']] },
  });
  const cells = await findKaishaFormulas("selection");
  expect(cells.map((c) => `${c.sheet}!${c.address}`)).toEqual(["Model!D4"]);
});

test("insertFormula writes into the active cell and returns its address", async () => {
  const fake = installFakeExcel({
    sheets: [{ name: "Sheet1" }],
    selection: { address: "Sheet1!C3", values: [[""]] },
  });
  const address = await insertFormula('=KAISHA.SCREEN("per:lte:15")');
  expect(address).toBe("Sheet1!C3");
  expect(fake.range("Sheet1", "C3").formulas).toEqual([['=KAISHA.SCREEN("per:lte:15")']]);
});

test("recalculateAll asks Excel for a full recalculation (KAISHA functions are not volatile)", async () => {
  const fake = installFakeExcel({ sheets: [{ name: "Sheet1" }] });
  await recalculateAll();
  expect(fake.log).toContain("calculate Full");
});

test("selectCell activates the sheet and selects the problem cell", async () => {
  const fake = installFakeExcel({ sheets: [{ name: "Sheet1" }, { name: "Model" }] });
  await selectCell("Model", "C2");
  expect(fake.log).toEqual(expect.arrayContaining(["activate Model", "select Model!C2"]));
});
