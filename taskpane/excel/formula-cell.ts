// The builder's cell: reads the active cell's formula, writes a formula only into an empty cell, the
// KAISHA cell it was opened on, or a cell the user agreed to overwrite.

import { cellAddress, parseAddress } from "../state/a1";
import { isFormulaCell, isKaishaFormula } from "./cell-content";
import { contentOf, guardedWrite, settleWrites } from "./guarded-write";
import { runCellWrites, runExcel } from "./run";

export type FormulaWrite =
  | { written: true; address: string }
  /** the active cell holds something: nothing was written; `content` is its formula or value. */
  | { written: false; address: string; content: string };

/**
 * Writes `formula` into the active cell (top-left of the selection) if it is empty, in one run, so
 * the cell checked is the cell written. Imports refuse non-empty targets the same way.
 */
export async function insertFormulaIfEmpty(formula: string): Promise<FormulaWrite> {
  return runCellWrites(async (context) => {
    const cell = context.workbook.getSelectedRange().getCell(0, 0);
    cell.load("address,formulas,values,numberFormat"); // CELL_CONTENT and the address
    await context.sync();
    const content = textOf(cell.formulas[0]?.[0]);
    if (content !== "") return { written: false, address: cell.address, content };
    return writeOverRead(context, cell, formula);
  });
}

/** A cell's formula bar text ("" when empty). */
function textOf(formula: unknown): string {
  return formula === undefined || formula === null ? "" : String(formula);
}

/**
 * Writes `formula` into `cell` (loaded with its address and CELL_CONTENT) only over what was read:
 * when the analyst typed into it meanwhile, their content goes back and the pane asks, as it does
 * for a cell found holding something (guarded-write.ts).
 */
async function writeOverRead(
  context: Excel.RequestContext,
  cell: Excel.Range,
  formula: string,
): Promise<FormulaWrite> {
  const write = guardedWrite(cell, cellAt(context, cell.address), formula, contentOf(cell));
  await context.sync();
  // What the analyst left there last (their newest entry, when they typed again meanwhile).
  const [typed] = await settleWrites(context, [write]);
  if (typed === undefined) return { written: true, address: cell.address };
  return { written: false, address: cell.address, content: textOf(typed.formula) };
}

/** The one cell at `address` ("Sheet1!H60"; unqualified: the active sheet). */
function cellAt(context: Excel.RequestContext, address: string): Excel.Range {
  const ref = parseAddress(address);
  const sheet = ref.sheet
    ? context.workbook.worksheets.getItem(ref.sheet)
    : context.workbook.worksheets.getActiveWorksheet();
  return sheet.getRange(cellAddress(ref.row, ref.col));
}

/** Writes `formula` at a sheet-qualified address the user agreed to overwrite ("Sheet1!H60"). */
export async function writeFormulaAt(address: string, formula: string): Promise<string> {
  return runCellWrites(async (context) => {
    const cell = cellAt(context, address);
    cell.formulas = [[formula]];
    cell.load("address");
    await context.sync();
    return cell.address;
  });
}

/** The active cell (top-left of the selection): its sheet-qualified address and formula text. */
export async function readActiveCell(): Promise<{ address: string; formula: string }> {
  return runExcel(async (context) => {
    const cell = context.workbook.getSelectedRange().getCell(0, 0);
    cell.load("address,formulas");
    await context.sync();
    const f = cell.formulas[0]?.[0];
    return { address: cell.address, formula: f === undefined || f === null ? "" : String(f) };
  });
}

/**
 * Writes the edited formula back into the cell the builder was opened on, in one run: when it
 * still holds a KAISHA formula (or nothing). Anything else there now (the analyst typed over it,
 * also between the read and the write) is not replaced: `content` says what is there, and the
 * pane asks.
 */
export async function writeBackFormula(address: string, formula: string): Promise<FormulaWrite> {
  return runCellWrites(async (context) => {
    const cell = cellAt(context, address);
    cell.load("address,formulas,values,numberFormat"); // CELL_CONTENT and the address
    await context.sync();
    const held = cell.formulas[0]?.[0];
    const content = textOf(held);
    // What the builder may replace without asking: a KAISHA formula, not text that reads like one
    // (a Text cell's "=KAISHA…" comes back from Range.formulas as it is: cell-content.ts).
    const kaisha = isKaishaFormula(held) && isFormulaCell(held, cell.values[0]?.[0]);
    if (content !== "" && !kaisha) return { written: false, address: cell.address, content };
    return writeOverRead(context, cell, formula);
  });
}
