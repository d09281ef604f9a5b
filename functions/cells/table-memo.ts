// A table function's result remembered per answer object and argument signature: a warm
// recalculation of VALUATION or an up-to-latest PRICES spill gives the table it built from the
// same fresh answer, not a rebuild; its all-number rows are kept packed, 8 bytes a cell.

import { EMPTY, type Cell } from "../../src/excel/values";

/** Signatures kept per answer (a workbook asks one answer in a few shapes; past this it starts over). */
const MAX_SHAPES = 64;

/**
 * A table whose last rows hold only numbers and empty cells: those rows packed into one
 * Float64Array (an empty cell as NaN: no cell is NaN, a non-finite number is shown empty), the
 * rows before them (title, headers) kept as they were built. A five-year PRICES spill of date,
 * close and volume is 24 bytes a row packed against ~90 as arrays of numbers (bench: Model 500
 * kept 625k such rows, ~50 MB).
 */
class PackedTable {
  constructor(
    private readonly head: readonly (readonly Cell[])[],
    private readonly width: number,
    private readonly cells: Float64Array,
  ) {}

  /** The table again: the head rows shared (frozen), the packed rows new arrays. */
  unpack(): Cell[][] {
    const { head, width, cells } = this;
    const out = head.slice() as Cell[][];
    for (let at = 0; at < cells.length; at += width) {
      const row: Cell[] = [];
      for (let c = 0; c < width; c += 1) {
        const value = cells[at + c] as number;
        row.push(value === value ? value : EMPTY);
      }
      out.push(row);
    }
    return out;
  }
}

/** A number or an empty cell: what a packed row can hold (and give back as it was). */
function packable(cell: Cell): boolean {
  return cell === EMPTY || (typeof cell === "number" && !Number.isNaN(cell));
}

/**
 * The table packed from the first row after which every row is `width` packable cells; the table
 * itself (frozen) when no such rows end it (text or formatted-number cells, a ragged edge).
 */
function pack(table: Cell[][]): PackedTable | readonly (readonly Cell[])[] {
  const width = table[table.length - 1]?.length ?? 0;
  let start = table.length;
  while (start > 0) {
    const row = table[start - 1] as Cell[];
    if (row.length !== width || !row.every(packable)) break;
    start -= 1;
  }
  if (width === 0 || start === table.length) {
    for (const row of table) Object.freeze(row);
    return Object.freeze(table);
  }
  const cells = new Float64Array((table.length - start) * width);
  for (let r = start, at = 0; r < table.length; r += 1)
    for (const cell of table[r] as Cell[])
      cells[at++] = cell === EMPTY ? Number.NaN : (cell as number);
  const head = table.slice(0, start);
  for (const row of head) Object.freeze(row);
  return new PackedTable(Object.freeze(head), width, cells);
}

/**
 * Tables by the answer they were built from (a cached body: the same frozen object while it is
 * fresh; a refreshed or stale-marked answer is another object) and the arguments that shaped them.
 */
export class TableMemo {
  private readonly byAnswer = new WeakMap<
    object,
    Map<string, PackedTable | readonly (readonly Cell[])[]>
  >();

  get(answer: object, signature: string): Cell[][] | undefined {
    const known = this.byAnswer.get(answer)?.get(signature);
    if (known === undefined) return undefined;
    return known instanceof PackedTable ? known.unpack() : (known as Cell[][]);
  }

  /**
   * Remembers `table` (for a frozen answer only: another could change under the key) and returns
   * it; a table kept unpacked is frozen, as every later call shares it.
   */
  set(answer: object, signature: string, table: Cell[][]): Cell[][] {
    if (!Object.isFrozen(answer)) return table;
    let shapes = this.byAnswer.get(answer);
    if (shapes === undefined) {
      shapes = new Map();
      this.byAnswer.set(answer, shapes);
    }
    if (shapes.size >= MAX_SHAPES) shapes.clear();
    shapes.set(signature, pack(table));
    return table;
  }
}
