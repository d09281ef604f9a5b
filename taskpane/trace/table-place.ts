// Where a selected cell stands in a KAISHA table: its row and column under the table's header row,
// for a table written with headers 1 or 2 as it stands, and for one without headers (headers 0) in
// the same table given again with its header row, from the answers in memory (no request).

import { headersArg } from "../../src/excel/args";
import type { TracedCellRead as SelectedCell } from "../excel/kaisha-values";

/** A cell's place in a table with a header row: `spill[head]` is the header row. */
export interface TablePlace {
  spill: readonly (readonly unknown[])[];
  /** the header row's index (1 under a title row). */
  head: number;
  row: number;
  col: number;
}

/**
 * The same function called again with other arguments, as Excel's value preview calls it (fresh
 * answers in memory only, taskpane/state/formula-preview.ts): its table, or undefined.
 */
export type Rerun = (fn: string, args: readonly unknown[]) => Promise<unknown[][] | undefined>;

/**
 * The cell's place under its table's header row; undefined for a title or header cell, a table not
 * in memory, or arguments the function refuses. Without headers, the table is given again with
 * headers 1: its header row is added above, and a label column where the function adds one with
 * its headers (FINANCIALS items_down names its items in column A only then), told by the sizes.
 * @example (await tablePlace(cell, 7, "FINANCIALS", rerun))?.spill[0] // ["item", "2024/03", …]
 */
export async function tablePlace(
  cell: SelectedCell,
  headersAt: number,
  fn: string,
  rerun: Rerun | undefined,
): Promise<TablePlace | undefined> {
  const spill = cell.spill;
  if (spill === undefined) return undefined;
  let mode: number;
  try {
    mode = headersArg(cell.args[headersAt] ?? null);
  } catch {
    return undefined;
  }
  const { row, col } = cell.offset;
  if (mode === 1 || mode === 2) {
    const head = mode === 2 ? 1 : 0;
    return row <= head ? undefined : { spill, head, row, col };
  }
  if (rerun === undefined) return undefined;
  const args = cell.args.slice();
  while (args.length <= headersAt) args.push(null);
  args[headersAt] = 1;
  const headed = await rerun(fn, args).catch(() => undefined);
  if (headed === undefined || headed.length !== spill.length + 1) return undefined;
  const width = (t: readonly (readonly unknown[])[]) => Math.max(0, ...t.map((r) => r.length));
  const extra = width(headed) - width(spill);
  if (extra !== 0 && extra !== 1) return undefined;
  return { spill: headed, head: 0, row: row + 1, col: col + extra };
}

/** Why a table cell has no place: a title or header cell, else one the trace cannot place. */
export function cellReason(cell: SelectedCell, headersAt: number): "header" | "place" {
  let mode = 1;
  try {
    mode = headersArg(cell.args[headersAt] ?? null);
  } catch {
    return "place";
  }
  const head = mode === 2 ? 1 : mode === 1 ? 0 : -1;
  return cell.offset.row <= head ? "header" : "place";
}
