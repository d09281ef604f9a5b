// Cells recalculated after a background revalidation: only those still holding a KAISHA formula.

jest.mock("office-addin-manifest", () => ({ OfficeApp: { Excel: "excel", Outlook: "outlook" } }));

import { installFakeExcel, uninstallFakeExcel } from "./fake-excel";
import { recalculateAddresses, splitAddress } from "../../taskpane/excel/recalc-cells";

afterEach(() => uninstallFakeExcel());

test("addresses Excel passes split into sheet and cell, quoted names included", () => {
  expect(splitAddress("Sheet1!B2")).toEqual(["Sheet1", "B2"]);
  expect(splitAddress("'Sheet 1'!C3")).toEqual(["Sheet 1", "C3"]);
  expect(splitAddress("'It''s'!A1")).toEqual(["It's", "A1"]);
  expect(splitAddress("B2")).toBeUndefined();
});

test("a changed answer re-enters its cells' KAISHA formulas; a cell overwritten since is left alone", async () => {
  const fake = installFakeExcel({
    sheets: [
      {
        name: "Sheet 1",
        cells: {
          B2: {
            address: "'Sheet 1'!B2",
            values: [[1]],
            formulas: [['=KAISHA.FINANCIAL(7203,"sales")']],
          },
          C2: { address: "'Sheet 1'!C2", values: [[5]], formulas: [[5]] },
        },
      },
    ],
  });
  const n = await recalculateAddresses(["'Sheet 1'!B2", "'Sheet 1'!C2"]);
  expect(n).toBe(1);
  expect(fake.range("Sheet 1", "B2").formulas).toEqual([['=KAISHA.FINANCIAL(7203,"sales")']]);
  expect(fake.range("Sheet 1", "C2").formulas).toEqual([[5]]);
});
