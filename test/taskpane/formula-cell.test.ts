// The builder's cell writes: into an empty cell or the KAISHA cell it was opened on, never over what the analyst typed.

jest.mock("office-addin-manifest", () => ({ OfficeApp: { Excel: "excel", Outlook: "outlook" } }));

import { installFakeExcel, uninstallFakeExcel } from "./fake-excel";
import { insertFormulaIfEmpty, writeBackFormula } from "../../taskpane/excel/formula-cell";

afterEach(() => uninstallFakeExcel());

const SALES = '=KAISHA.FINANCIAL(7203,"sales")';
const PROFIT = '=KAISHA.FINANCIAL(7203,"operating_profit")';

function workbook() {
  return installFakeExcel({
    sheets: [
      {
        name: "Sheet1",
        cells: {
          H10: {
            address: "Sheet1!H10",
            values: [[45_095_325_000_000]],
            formulas: [[SALES]],
            numberFormat: [["#,##0,,"]],
          },
        },
      },
    ],
    selection: {
      address: "Sheet1!B2",
      values: [[""]],
      formulas: [[""]],
      numberFormat: [["General"]],
    },
  });
}

test("write-back replaces the KAISHA formula the builder was opened on", async () => {
  const fake = workbook();
  expect(await writeBackFormula("Sheet1!H10", PROFIT)).toEqual({
    written: true,
    address: "Sheet1!H10",
  });
  expect(fake.cell("Sheet1", "H10")).toMatchObject({ formula: PROFIT, format: "#,##0,," });
});

test("write-back: a note typed over the cell before Update is not replaced; the pane is told what is there", async () => {
  const fake = workbook();
  fake.enter("Sheet1", "H10", "my note");
  expect(await writeBackFormula("Sheet1!H10", PROFIT)).toEqual({
    written: false,
    address: "Sheet1!H10",
    content: "my note",
  });
  expect(fake.cell("Sheet1", "H10")).toEqual({
    formula: "my note",
    value: "my note",
    format: "#,##0,,",
  });
});

test("write-back: a number typed between the read and the write goes back at once and the pane asks", async () => {
  const fake = workbook();
  fake.afterNextSync(() => fake.enter("Sheet1", "H10", "42"));
  expect(await writeBackFormula("Sheet1!H10", PROFIT)).toEqual({
    written: false,
    address: "Sheet1!H10",
    content: "42",
  });
  expect(fake.cell("Sheet1", "H10")).toEqual({ formula: 42, value: 42, format: "#,##0,," });
});

test("insert: an empty active cell gets the formula; one the analyst typed into meanwhile keeps their text", async () => {
  const fake = workbook();
  expect(await insertFormulaIfEmpty(SALES)).toEqual({ written: true, address: "Sheet1!B2" });
  expect(fake.cell("Sheet1", "B2").formula).toBe(SALES);

  const again = workbook();
  again.afterNextSync(() => again.enter("Sheet1", "B2", "'=A1"));
  expect(await insertFormulaIfEmpty(SALES)).toEqual({
    written: false,
    address: "Sheet1!B2",
    content: "=A1",
  });
  expect(again.cell("Sheet1", "B2")).toEqual({ formula: "=A1", value: "=A1", format: "General" });
});
