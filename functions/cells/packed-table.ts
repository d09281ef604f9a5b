// A table kept for warm recalculations (functions/cells/define-table.ts): its all-number rows
// packed, 8 bytes a cell, instead of an array per row.

import { vouchWithinLimits } from "../../src/excel/limits";
import { EMPTY, type Cell } from "../../src/excel/values";

/**
 * A table whose last rows hold only numbers and empty cells: those rows packed into one
 * Float64Array (an empty cell as NaN: no cell is NaN, a non-finite number is shown empty), the
 * rows before them (title, headers) kept as they were built. A five-year PRICES spill of date,
 * close and volume is 24 bytes a row packed against ~90 as arrays of numbers (bench: Model 500
 * keeps 625k such rows, ~50 MB).
 */
class PackedTable {
  constructor(
    private readonly head: readonly (readonly Cell[])[],
    private readonly width: number,
    private readonly cells: Float64Array,
  ) {}

  /**
   * The table again: the head rows shared (frozen), the packed rows new arrays, each made at its
   * size (a pushed-to array reserves room for 17 cells: three times the garbage of a five-year
   * PRICES spill on every warm recalculation). The copy is vouched for against Excel's limits: the
   * table it was packed from passed them (define-table.ts settled), so run does not count it again.
   */
  unpack(): Cell[][] {
    const { head, width, cells } = this;
    const heads = head.length;
    const out = new Array<Cell[]>(heads + cells.length / width);
    for (let r = 0; r < heads; r += 1) out[r] = head[r] as Cell[];
    for (let at = 0, r = heads; at < cells.length; at += width, r += 1)
      out[r] = rowAt(cells, at, width);
    return vouchWithinLimits(out);
  }
}

/**
 * The packed row at `at`, a new array of `width` cells. A row of two to four numbers is an array
 * literal of its own: V8 makes it a packed array of unboxed doubles. Filled cell by cell, every row
 * took the storage kind the one allocation site had learned from any row with an empty cell (any
 * value: each fraction boxed), ~129 B a row of a PRICES spill against ~80
 * (test/functions/packed-table.test.ts); such spills were most of a warm recalculation's garbage
 * (bench profile-warm HEAP=1).
 */
function rowAt(cells: Float64Array, at: number, width: number): Cell[] {
  // NaN (an empty cell) is the only value not equal to itself: a row with one is filled below.
  if (width === 2) {
    const a = cells[at] as number;
    const b = cells[at + 1] as number;
    if (a === a && b === b) return [a, b];
  } else if (width === 3) {
    const a = cells[at] as number;
    const b = cells[at + 1] as number;
    const c = cells[at + 2] as number;
    if (a === a && b === b && c === c) return [a, b, c];
  } else if (width === 4) {
    const a = cells[at] as number;
    const b = cells[at + 1] as number;
    const c = cells[at + 2] as number;
    const d = cells[at + 3] as number;
    if (a === a && b === b && c === c && d === d) return [a, b, c, d];
  }
  const row = new Array<Cell>(width);
  for (let i = 0; i < width; i += 1) {
    const value = cells[at + i] as number;
    row[i] = value === value ? value : EMPTY;
  }
  return row;
}

/** A kept table: packed, or the frozen table itself (text or formatted cells end it). */
export type KeptTable = PackedTable | readonly (readonly Cell[])[];

/** `width` numbers or empty cells: what a packed row can hold (and give back as it was). */
function isPackableRow(row: readonly Cell[], width: number): boolean {
  if (row.length !== width) return false;
  for (let c = 0; c < width; c += 1) {
    const cell = row[c];
    if (cell !== EMPTY && (typeof cell !== "number" || Number.isNaN(cell))) return false;
  }
  return true;
}

/**
 * `table` as kept: packed from the first row after which every row is `width` packable cells;
 * the table itself (frozen, shared by every later call) when no such rows end it.
 *
 * @example tableOf(keepTable([["date"], [46000]])) // [["date"], [46000]], rows new after the head
 */
export function keepTable(table: Cell[][]): KeptTable {
  const width = table[table.length - 1]?.length ?? 0;
  let start = table.length;
  while (start > 0 && isPackableRow(table[start - 1] as Cell[], width)) start -= 1;
  if (width === 0 || start === table.length) {
    for (const row of table) Object.freeze(row);
    return Object.freeze(table);
  }
  const cells = new Float64Array((table.length - start) * width);
  // Index loops: this runs once per spill, seldom long enough for V8 to optimise it, and an
  // unoptimised for…of makes an iterator result per cell (a reopened Model 500: 94 MB of garbage).
  for (let r = start, at = 0; r < table.length; r += 1) {
    const row = table[r] as Cell[];
    for (let c = 0; c < width; c += 1) {
      const cell = row[c];
      cells[at++] = cell === EMPTY ? Number.NaN : (cell as number);
    }
  }
  const head = table.slice(0, start);
  for (const row of head) Object.freeze(row);
  return new PackedTable(Object.freeze(head), width, cells);
}

/** The table a kept one stands for: the very frozen table, or the packed rows unpacked anew. */
export function tableOf(kept: KeptTable): Cell[][] {
  return kept instanceof PackedTable ? kept.unpack() : (kept as Cell[][]);
}
