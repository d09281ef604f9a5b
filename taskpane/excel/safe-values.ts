// The one policy for what the add-in writes into cells: text stays text, only AddinFormulas are formulas.

import { AddinFormula } from "./addin-formula";
import { TEXT_FORMAT } from "./cell-content";

/**
 * A cell the add-in writes: text, a number, a boolean, empty (null/undefined/""), or a formula the
 * add-in built. Any string is text, whatever it starts with.
 */
export type WriteCell = string | number | boolean | null | undefined | AddinFormula;

/** What a range receives: number formats first, then values (or formulas when there are any). */
interface SafeCells {
  numberFormat: string[][];
  /** the cell contents; with `hasFormulas`, to be assigned to `Range.formulas` (text cells are "@"). */
  contents: (string | number | boolean)[][];
  hasFormulas: boolean;
}

/**
 * Turns cells and their intended formats into what a range is given. Strings get the Text format
 * whatever their column's format; numbers and booleans keep theirs (General when none); an
 * AddinFormula is written as a formula in a non-text format (a Text cell would keep it as text);
 * non-finite numbers are left empty (Excel has no NaN).
 * @example safeCells([["=1+1", 5]], [["General", "#,##0"]]) // numberFormat [["@", "#,##0"]]
 * @internal Tests check cell shaping directly; the product writes through writeCells.
 */
export function safeCells(
  cells: readonly (readonly WriteCell[])[],
  formats?: readonly (readonly (string | undefined)[])[],
): SafeCells {
  let hasFormulas = false;
  const numberFormat: string[][] = [];
  const contents: (string | number | boolean)[][] = [];
  cells.forEach((row, r) => {
    const fmtRow: string[] = [];
    const valueRow: (string | number | boolean)[] = [];
    row.forEach((cell, c) => {
      const given = formats?.[r]?.[c] ?? "General";
      if (cell instanceof AddinFormula) {
        hasFormulas = true;
        fmtRow.push(given === TEXT_FORMAT ? "General" : given);
        valueRow.push(cell.text);
      } else if (typeof cell === "string") {
        fmtRow.push(cell === "" ? given : TEXT_FORMAT);
        valueRow.push(cell);
      } else if (typeof cell === "number") {
        fmtRow.push(given);
        valueRow.push(Number.isFinite(cell) ? cell : "");
      } else if (typeof cell === "boolean") {
        fmtRow.push(given);
        valueRow.push(cell);
      } else {
        fmtRow.push(given);
        valueRow.push("");
      }
    });
    numberFormat.push(fmtRow);
    contents.push(valueRow);
  });
  return { numberFormat, contents, hasFormulas };
}

/**
 * Writes `cells` into `range` (same size) under the policy of `safeCells`: formats before contents,
 * so a string lands in a cell that is already Text. Queues the writes; the caller syncs.
 * @example writeCells(sheet.getRange("A1:B1"), [["-", AddinFormula.sheet("=KAISHA.USAGE()")]])
 */
export function writeCells(
  range: Excel.Range,
  cells: readonly (readonly WriteCell[])[],
  formats?: readonly (readonly (string | undefined)[])[],
): void {
  const safe = safeCells(cells, formats);
  range.numberFormat = safe.numberFormat;
  if (safe.hasFormulas) range.formulas = safe.contents;
  else range.values = safe.contents;
}
