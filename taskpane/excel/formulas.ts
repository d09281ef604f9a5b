// Finding, inserting and recalculating KAISHA formulas in the workbook.

import { cellAddress, parseAddress, qualify } from "../state/a1";
import { isFormulaCell, isKaishaFormula } from "./cell-content";
import { excelApiSupported } from "./requirements";
import { runExcel } from "./run";

export interface KaishaCell {
  sheet: string;
  /** cell address without sheet, e.g. "B3". */
  address: string;
  formula: string;
  /** the cell's value: a number, text, or an error text such as "#N/A". */
  value: unknown;
  /** error details Excel exposes for the cell (valuesAsJson), when any. */
  errorType?: string;
  errorMessage?: string;
}

export type Scope = "selection" | "sheet" | "workbook";

interface ErrorJson {
  type?: string;
  errorType?: string;
  errorSubType?: string;
  basicValue?: unknown;
  message?: string;
  errorMessage?: string;
}

function scanRange(sheet: string, range: Excel.Range, out: KaishaCell[], withJson: boolean): void {
  const ref = parseAddress(range.address);
  // valuesAsJson is ExcelApi 1.16 (scan loads it only then).
  const json =
    withJson && excelApiSupported("1.16")
      ? (range.valuesAsJson as unknown as ErrorJson[][] | undefined)
      : undefined;
  range.formulas.forEach((row, r) =>
    row.forEach((formula, c) => {
      if (!isKaishaFormula(formula) || !isFormulaCell(formula, range.values[r]?.[c])) return;
      const cell: KaishaCell = {
        sheet,
        address: cellAddress(ref.row + r, ref.col + c),
        formula,
        value: range.values[r]?.[c],
      };
      const j = json?.[r]?.[c];
      if (j && j.type === "Error") {
        if (j.errorType) cell.errorType = j.errorType;
        const message = j.errorMessage ?? j.message;
        if (message) cell.errorMessage = message;
      }
      out.push(cell);
    }),
  );
}

/**
 * KAISHA formulas in the selection, the active sheet or the whole workbook. With `withErrors`,
 * also loads `valuesAsJson` to read error details where the host exposes them.
 */
export async function findKaishaFormulas(scope: Scope, withErrors = false): Promise<KaishaCell[]> {
  // Older hosts still get the list, without the functions' messages.
  if (!withErrors || !excelApiSupported("1.16")) return scan(scope, false);
  try {
    return await scan(scope, true);
  } catch {
    // A host that claims 1.16 but fails on valuesAsJson: the list without messages.
    return scan(scope, false);
  }
}

async function scan(scope: Scope, withErrors: boolean): Promise<KaishaCell[]> {
  return runExcel(async (context) => {
    const props = withErrors ? "address,formulas,values,valuesAsJson" : "address,formulas,values";
    const out: KaishaCell[] = [];
    if (scope === "selection") {
      const range = context.workbook.getSelectedRange();
      const sheet = context.workbook.worksheets.getActiveWorksheet();
      range.load(props);
      sheet.load("name");
      await context.sync();
      scanRange(sheet.name, range, out, withErrors);
      return out;
    }
    const sheets: Excel.Worksheet[] = [];
    if (scope === "sheet") {
      sheets.push(context.workbook.worksheets.getActiveWorksheet());
    } else {
      const all = context.workbook.worksheets;
      all.load("items");
      await context.sync();
      sheets.push(...all.items);
    }
    const used = sheets.map((s) => {
      s.load("name");
      const r = s.getUsedRangeOrNullObject(false);
      r.load(props);
      return r;
    });
    await context.sync();
    used.forEach((r, i) => {
      const sheet = sheets[i];
      if (!r.isNullObject && sheet) scanRange(sheet.name, r, out, withErrors);
    });
    return out;
  });
}

/** Writes a formula into the active cell (top-left of the selection); returns its address. */
export async function insertFormula(formula: string): Promise<string> {
  return runExcel(async (context) => {
    const cell = context.workbook.getSelectedRange().getCell(0, 0);
    cell.formulas = [[formula]];
    cell.load("address");
    await context.sync();
    return cell.address;
  });
}

/**
 * Full recalculation, so KAISHA functions run again (none is @volatile); the client's
 * cache decides what costs a request.
 */
export async function recalculateAll(): Promise<void> {
  await runExcel(async (context) => {
    context.workbook.application.calculate("Full");
    await context.sync();
  });
}

/** Activates the sheet and selects the cell (Problems list: go to the cell). */
export async function selectCell(sheet: string, address: string): Promise<void> {
  await runExcel(async (context) => {
    const ws = context.workbook.worksheets.getItem(sheet);
    ws.activate();
    ws.getRange(address).select();
    await context.sync();
  });
}

export function qualifiedAddress(cell: Pick<KaishaCell, "sheet" | "address">): string {
  return qualify(cell.sheet, cell.address);
}
