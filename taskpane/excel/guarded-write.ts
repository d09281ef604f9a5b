// Writes a formula over a cell only while it holds what was read; what the analyst typed meanwhile goes back.

import { isFormulaCell, TEXT_FORMAT } from "./cell-content";

/** The Range properties a guarded write reads: formula bar text, value, number format. */
export const CELL_CONTENT = "formulas,values,numberFormat";

/** One cell's content as loaded with `CELL_CONTENT`. */
export interface CellContent {
  /** Range.formulas: the formula, or the constant as typed. */
  formula: unknown;
  value: unknown;
  format: unknown;
}

/** The content of a one-cell range loaded with `CELL_CONTENT` (and synced). */
export function contentOf(range: Excel.Range): CellContent {
  return {
    formula: range.formulas[0]?.[0],
    value: range.values[0]?.[0],
    format: range.numberFormat[0]?.[0],
  };
}

/**
 * Queues the write of `formula` into `target`, whose content was `read` in an earlier batch, with
 * a probe just before it: commands in a batch run in order at sync (Office.js: "Excel JavaScript
 * object model", load and sync), so `probe` (a second proxy on the same cell) captures what the
 * cell held when the write ran, even if the analyst typed after the read (Excel holds API batches
 * while a cell is being edited and runs them once the edit is committed). After the sync,
 * `settle()` returns undefined when the write went over the content read; otherwise it queues the
 * analyst's content back into the cell (the caller syncs at once) and returns it.
 * @example const w = guardedWrite(cell, sheet.getRange("B2"), "=KAISHA.PRICE(7203)", contentOf(cell)); await context.sync(); if (w.settle()) await context.sync();
 */
export function guardedWrite(
  target: Excel.Range,
  probe: Excel.Range,
  formula: string,
  read: CellContent,
): { settle(): CellContent | undefined } {
  probe.load(CELL_CONTENT);
  writeFormula(target, formula, read.format);
  return {
    settle() {
      const held = contentOf(probe);
      if (sameContent(held, read)) return undefined;
      restoreCell(target, held);
      return held;
    },
  };
}

/** Same formula bar text, same kind (a formula is not text that looks like it), same format. */
function sameContent(a: CellContent, b: CellContent): boolean {
  return (
    a.formula === b.formula &&
    a.format === b.format &&
    isFormulaCell(a.formula, a.value) === isFormulaCell(b.formula, b.value)
  );
}

/**
 * Writes back what a probe read, exactly: a formula as a formula, a number or boolean as itself,
 * text as text, each under the number format the cell had (the write of a formula may change it).
 */
function restoreCell(range: Excel.Range, held: CellContent): void {
  const format = typeof held.format === "string" ? held.format : "General";
  if (isFormulaCell(held.formula, held.value)) {
    writeFormula(range, held.formula, format);
    range.numberFormat = [[format]];
    return;
  }
  range.numberFormat = [[format]];
  range.values = [[textSafe(held.value, format) as string]];
}

/**
 * Writes a formula into a cell of this number format. A Text ("@") cell keeps whatever is written
 * as text (Range.values: a Text cell keeps "=…"), yet holds a formula entered before the format was
 * set: the formula goes in under General and the Text format after it, so it stays a formula.
 */
function writeFormula(range: Excel.Range, formula: string, format: unknown): void {
  if (format !== TEXT_FORMAT) {
    range.formulas = [[formula]];
    return;
  }
  range.numberFormat = [["General"]];
  range.formulas = [[formula]];
  range.numberFormat = [[TEXT_FORMAT]];
}

/**
 * Text stays text: a Text ("@") cell keeps any string as written; elsewhere Range.values reads a
 * string as the analyst's typing would ("=…", "+…", "-…" become formulas, "0012" a number), and
 * Excel's documented escape for an entry that must stay text is a leading apostrophe (Microsoft
 * Support, "Format numbers as text"), which Excel does not keep in the value (office-js#6687).
 */
function textSafe(value: unknown, format: string): unknown {
  if (typeof value !== "string" || value === "" || format === TEXT_FORMAT) return value;
  return `'${value}`;
}
