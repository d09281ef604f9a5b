// The stand-in workbook of the builder's cell tests: H10 holds a KAISHA formula with its value and format, B2 is selected and empty.

import { openWorkbook, type StandInWorkbook } from "./standin-workbook";

export const SALES = '=KAISHA.FINANCIAL(7203,"sales")';
export const PROFIT = '=KAISHA.FINANCIAL(7203,"operating_profit")';

/** What KAISHA.FINANCIAL gives for 7203 here (exact yen). */
export const FINANCIAL: Record<string, number> = {
  sales: 45_095_325_000_000,
  operating_profit: 5_352_934_000_000,
};

/** Opens Sheet1 with H10 = SALES (45 兆円 shown in 百万円) and B2 selected. */
export function salesCellWorkbook(): Promise<StandInWorkbook> {
  return openWorkbook({
    sheets: [
      {
        name: "Sheet1",
        cells: { H10: { formula: SALES, value: FINANCIAL["sales"], format: "#,##0,," } },
      },
    ],
    selection: "Sheet1!B2",
    functions: { FINANCIAL: (_code, field) => FINANCIAL[String(field)] ?? "#N/A" },
  });
}
