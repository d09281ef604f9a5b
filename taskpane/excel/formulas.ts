// Finding, inserting and recalculating KAISHA formulas in the workbook.

import { cellAddress, parseAddress, qualify, rangeAddress } from "../state/a1";
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

/**
 * Cells whose content one sync loads at most: a model's sheets are read in blocks of rows, so no
 * request carries more than this many cells' formulas and values (Excel on the web refuses a
 * request or answer over 5 MB: 301k cells of KAISHA formulas are ~15 MB), and Excel gets control
 * back between blocks (Windows and Mac restart an add-in unresponsive for 5 s).
 * test/taskpane/formulas-scan-bound.test.ts reads a 301k-cell workbook within it.
 * @internal Tests check the bound.
 */
export const SCAN_BLOCK_CELLS = 40_000;

/** A block of rows of a used range: its first row and column (0-based), rows and columns. */
interface Block {
  sheet: Excel.Worksheet;
  row: number;
  col: number;
  rows: number;
  cols: number;
}

/** The used ranges in blocks of whole rows of at most SCAN_BLOCK_CELLS cells (one row at least). */
function blocksOf(sheet: Excel.Worksheet, used: Excel.Range): Block[] {
  const ref = parseAddress(used.address);
  const cols = Math.max(1, used.columnCount);
  const step = Math.max(1, Math.floor(SCAN_BLOCK_CELLS / cols));
  const out: Block[] = [];
  for (let r = 0; r < used.rowCount; r += step)
    out.push({
      sheet,
      row: ref.row + r,
      col: ref.col,
      rows: Math.min(step, used.rowCount - r),
      cols,
    });
  return out;
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
    // First the used ranges' size only, then their content in bounded blocks (SCAN_BLOCK_CELLS).
    const used = sheets.map((s) => {
      s.load("name");
      const r = s.getUsedRangeOrNullObject(false);
      r.load("address,rowCount,columnCount");
      return r;
    });
    await context.sync();
    const blocks = used.flatMap((r, i) => {
      const sheet = sheets[i];
      return r.isNullObject || !sheet ? [] : blocksOf(sheet, r);
    });
    for (let i = 0; i < blocks.length;) {
      const batch: { block: Block; range: Excel.Range }[] = [];
      let cells = 0;
      for (; i < blocks.length; i++) {
        const block = blocks[i] as Block;
        const size = block.rows * block.cols;
        if (batch.length > 0 && cells + size > SCAN_BLOCK_CELLS) break;
        cells += size;
        const address = rangeAddress(block.row, block.col, block.rows, block.cols);
        batch.push({ block, range: block.sheet.getRange(address).load(props) });
      }
      // eslint-disable-next-line office-addins/no-context-sync-in-loop -- bounded reads of a large workbook
      await context.sync();
      for (const { block, range } of batch) scanRange(block.sheet.name, range, out, withErrors);
    }
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
