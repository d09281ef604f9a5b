// taskpane/excel/formulas: finding, inserting and recalculating KAISHA formulas.

jest.mock("office-addin-manifest", () => ({ OfficeApp: { Excel: "excel", Outlook: "outlook" } }));

import { block, closeWorkbook, openWorkbook, type SheetSpec } from "./standin-workbook";
import {
  findKaishaFormulas,
  insertFormula,
  recalculateAll,
  selectCell,
} from "../../taskpane/excel/formulas";

afterEach(() => {
  closeWorkbook();
  delete (globalThis as { Office?: unknown }).Office;
});

/** A host with ExcelApi 1.16 (valuesAsJson: the functions' error messages). */
function hostWithValuesAsJson(): void {
  (globalThis as { Office?: unknown }).Office = {
    context: { requirements: { isSetSupported: (name: string) => name === "ExcelApi" } },
  };
}

const model: SheetSpec = {
  name: "Model",
  cells: {
    ...block(
      "B2",
      [
        [2_000_000, "#N/A"],
        ["text", 5],
      ],
      [
        ['=KAISHA.FINANCIAL("7203","sales")', '=KAISHA.PRICE("9999")'],
        ["text", "=SUM(1,4)"],
      ],
    ),
    C2: {
      formula: '=KAISHA.PRICE("9999")',
      value: "#N/A",
      error: "NotAvailable",
      message: "Security not found",
    },
  },
};

test("findKaishaFormulas(workbook): only KAISHA formulas, with addresses, values and error messages", async () => {
  hostWithValuesAsJson();
  // A host that gives a function's error message in valuesAsJson (standin/STANDIN.md).
  await openWorkbook({ sheets: [model, { name: "Empty" }], config: { errorMessages: true } });
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
  await openWorkbook({ sheets: [model, { name: "Empty" }], config: { errorMessages: true } });
  const cells = await findKaishaFormulas("workbook", true);
  expect(cells.map((c) => [c.address, c.value, c.errorMessage])).toEqual([
    ["B2", 2_000_000, undefined],
    ["C2", "#N/A", undefined],
  ]);
});

test("findKaishaFormulas(selection): scans the selected range only", async () => {
  await openWorkbook({
    sheets: [
      {
        ...model,
        cells: { ...model.cells, D4: { formula: '=kaisha.valuation("7203")', value: 1 } },
      },
    ],
    selection: "Model!D4",
  });
  const cells = await findKaishaFormulas("selection");
  expect(cells.map((c) => `${c.sheet}!${c.address}`)).toEqual(["Model!D4"]);
});

test("insertFormula writes into the active cell and returns its address", async () => {
  const excel = await openWorkbook({ sheets: [{ name: "Sheet1" }], selection: "Sheet1!C3" });
  const address = await insertFormula('=KAISHA.SCREEN("per:lte:15")');
  expect(address).toBe("Sheet1!C3");
  expect(excel.formulas("Sheet1", "C3")).toEqual([['=KAISHA.SCREEN("per:lte:15")']]);
});

test("recalculateAll asks Excel for a full recalculation (KAISHA functions are not volatile)", async () => {
  const excel = await openWorkbook({ sheets: [{ name: "Sheet1" }] });
  await recalculateAll();
  expect(excel.log).toContain("calculate Full");
});

test("selectCell activates the sheet and selects the problem cell", async () => {
  const excel = await openWorkbook({ sheets: [{ name: "Sheet1" }, { name: "Model" }] });
  await selectCell("Model", "C2");
  expect(excel.log).toEqual(expect.arrayContaining(["activate Model", "select Model!C2"]));
  expect(excel.hooks.activeSheet()).toBe("Model");
});
