// Builds a company sheet from a plan: a new worksheet with headings, KAISHA formulas and formats.

import { AddinFormula } from "./addin-formula";
import { runExcel } from "./run";
import { writeCells } from "./safe-values";

export interface SheetCell {
  address: string;
  /** text (always written as text, whatever it starts with) or a number. */
  value?: string | number;
  /** a formula the plan built: written only if AddinFormula.sheet accepts it (KAISHA, IFERROR). */
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
      // Through safe-values.ts: a plan's text (a code typed by the user, the API's source label) is
      // text; a formula is written only when it is the builders' kind (AddinFormula.sheet throws).
      const content = cell.formula !== undefined ? AddinFormula.sheet(cell.formula) : cell.value;
      if (content !== undefined || cell.numberFormat)
        writeCells(range, [[content]], [[cell.numberFormat]]);
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
