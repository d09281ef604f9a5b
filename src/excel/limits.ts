// Refuses results over about 5 MB or larger than the grid (1,048,576 x 16,384 cells).

import type { Cell } from "./values";

/** @internal Tests and the preview page's grid (a development build) read Excel's row limit. */
export const MAX_ROWS = 1_048_576;
const MAX_COLUMNS = 16_384;
/**
 * Excel takes about 5 MB per custom-function result (Microsoft Learn, custom functions
 * limits); keep a margin for the host's own envelope.
 */
const MAX_RESULT_BYTES = 5_000_000;
/** Excel's limit on characters in one cell. */
export const MAX_CELL_CHARS = 32_767;

/** A result too large for a cell formula; the message suggests `limit` or the task pane import. */
export class ResultTooLargeError extends Error {
  override readonly name = "ResultTooLargeError";
  readonly messageJa: string;
  readonly rows: number;
  readonly columns: number;
  readonly bytes: number;

  constructor(rows: number, columns: number, bytes: number, reason: "grid" | "bytes") {
    const what =
      reason === "grid"
        ? `${rows.toLocaleString("en")} x ${columns.toLocaleString("en")} cells is larger than the sheet`
        : `about ${(bytes / 1_000_000).toFixed(1)} MB is over Excel's 5 MB result limit`;
    const whatJa =
      reason === "grid"
        ? `${rows} 行 x ${columns} 列はシートに収まりません`
        : `約 ${(bytes / 1_000_000).toFixed(1)} MB で Excel の上限 5 MB を超えます`;
    super(
      `Result too large (${what}): narrow it with limit or dates, or use Import in the Kaisha pane`,
    );
    this.messageJa = `結果が大きすぎます（${whatJa}）：limit や期間で絞るか、作業ウィンドウの取り込みを使ってください`;
    this.rows = rows;
    this.columns = columns;
    this.bytes = bytes;
  }
}

/** Approximate serialized size of one cell (what the host transfers). */
function cellBytes(cell: Cell): number {
  if (typeof cell === "string") return cell.length * 2 + 3; // UTF-16 worst case for Japanese text
  if (typeof cell === "number") return 12;
  if (typeof cell === "boolean") return 5;
  // A stale-marked or formatted number (every number of a stale table): an upper bound on its
  // JSON without serialising it, which was a tenth of a desktop morning's CPU at Model 200. A
  // number's JSON is at most 24 characters; a format's at most two per character (escapes).
  if (cell.type === "Double") return DOUBLE_ENVELOPE + 24 + cell.numberFormat.length * 2 + 3;
  return JSON.stringify(cell).length + 1;
}

/** The JSON of a formatted number without its number and format. */
const DOUBLE_ENVELOPE = '{"type":"Double","basicValue":,"numberFormat":}'.length;

/**
 * Returns `rows` unchanged when Excel can take it, else throws ResultTooLargeError.
 * `maxBytes` is injectable for tests.
 */
export function assertWithinLimits(rows: Cell[][], maxBytes = MAX_RESULT_BYTES): Cell[][] {
  // A frozen table already checked (a remembered table given again on a warm recalculation)
  // cannot have changed; a vouched copy is one of those, unpacked anew.
  if (withinLimits.has(rows)) return rows;
  // Indexed loops: every spill of a recalculation passes here (no iterator objects).
  const height = rows.length;
  let width = 0;
  for (let r = 0; r < height; r += 1) width = Math.max(width, (rows[r] as Cell[]).length);
  if (height > MAX_ROWS || width > MAX_COLUMNS)
    throw new ResultTooLargeError(height, width, 0, "grid");
  let bytes = 2;
  for (let r = 0; r < height; r += 1) {
    const row = rows[r] as Cell[];
    bytes += 2;
    for (let c = 0; c < row.length; c += 1) bytes += cellBytes(row[c] as Cell);
    if (bytes > maxBytes)
      throw new ResultTooLargeError(height, width, estimateTotal(rows, maxBytes), "bytes");
  }
  if (Object.isFrozen(rows) && maxBytes === MAX_RESULT_BYTES) withinLimits.add(rows);
  return rows;
}

/** Tables known within the default limits: frozen ones checked, and copies vouched for. */
const withinLimits = new WeakSet<Cell[][]>();

/**
 * `copy`, marked within the default limits without counting it again: for a new copy of a table
 * that passed them (functions/cells/packed-table.ts unpacks a kept spill on every warm
 * recalculation), handed straight to Excel and changed by no one after.
 */
export function vouchWithinLimits(copy: Cell[][]): Cell[][] {
  withinLimits.add(copy);
  return copy;
}

function estimateTotal(rows: Cell[][], floor: number): number {
  let bytes = 0;
  for (const row of rows) for (const cell of row) bytes += cellBytes(cell);
  return Math.max(bytes, floor);
}
