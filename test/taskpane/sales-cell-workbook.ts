// The fake workbook of the builder's cell tests: H10 holds a KAISHA formula with its value and format, B2 is selected and empty.

import { installFakeExcel, type FakeExcel } from "./fake-excel";

export const SALES = '=KAISHA.FINANCIAL(7203,"sales")';
export const PROFIT = '=KAISHA.FINANCIAL(7203,"operating_profit")';

/** Installs the fake Excel with Sheet1!H10 = SALES (45 兆円 shown in 百万円) and B2 selected. */
export function salesCellWorkbook(): FakeExcel {
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
