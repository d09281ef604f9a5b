// Builds a company sheet from a plan: a new worksheet with headings, KAISHA formulas and formats.

import { runExcel } from "./run";

export interface SheetCell {
  address: string;
  value?: string | number;
  formula?: string;
  numberFormat?: string;
  bold?: boolean;
}

export interface CompanySheetPlan {
  sheetName: string;
  cells: SheetCell[];
  /** column widths by letter, in points. */
  widths?: Record<string, number>;
}

/** Creates (or, when it exists, replaces the contents of) the sheet and activates it. */
export async function buildCompanySheet(plan: CompanySheetPlan): Promise<string> {
  return runExcel(async (context) => {
    let sheet = context.workbook.worksheets.getItemOrNullObject(plan.sheetName);
    await context.sync();
    if (sheet.isNullObject) {
      sheet = context.workbook.worksheets.add(plan.sheetName);
    } else {
      sheet.getRange().clear("All");
      sheet.charts.load("items");
      await context.sync();
      sheet.charts.items.forEach((c) => c.delete());
      sheet.tables.load("items");
      await context.sync();
      sheet.tables.items.forEach((t) => t.delete());
    }
    for (const cell of plan.cells) {
      const range = sheet.getRange(cell.address);
      if (cell.numberFormat) range.numberFormat = [[cell.numberFormat]];
      if (cell.formula !== undefined) range.formulas = [[cell.formula]];
      else if (cell.value !== undefined) range.values = [[cell.value]];
      if (cell.bold) range.format.font.bold = true;
    }
    for (const [col, width] of Object.entries(plan.widths ?? {})) {
      sheet.getRange(`${col}:${col}`).format.columnWidth = width;
    }
    sheet.activate();
    await context.sync();
    return plan.sheetName;
  });
}
