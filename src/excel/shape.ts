// Records -> 2-D arrays: header modes 0/1/2, key or Japanese headers, empty cells, padded rows.

import type { HeaderMode } from "./args";
import { EMPTY, plainCell, type Cell } from "./values";

/** Header cells show API field keys or the Japanese labels (a user setting, not per workbook). */
export type HeaderLanguage = "keys" | "ja";

/** One output column. */
export interface Column<R> {
  /** Field key: the header cell in `keys` mode. */
  key: string;
  /** Japanese label: the header cell in `ja` mode (falls back to the key). */
  label?: string;
  /** The cell for a record; defaults to `plainCell(record[key])`. */
  value?: (record: R) => Cell;
}

/** The title row of headers mode 2: [identifier, dataset, as-of, source label]. */
export interface TitleRow {
  identifier: string;
  dataset: string;
  asOf: Cell;
  source: string;
}

export interface TableSpec<R> {
  columns: readonly Column<R>[];
  rows: readonly R[];
  headers: HeaderMode;
  headerLanguage: HeaderLanguage;
  title?: TitleRow;
}

/** The header cell of a column in the chosen language. */
export function headerCell(
  column: { key: string; label?: string },
  language: HeaderLanguage,
): string {
  return language === "ja" && column.label ? column.label : column.key;
}

function readField(record: unknown, key: string): unknown {
  return record !== null && typeof record === "object"
    ? (record as Record<string, unknown>)[key]
    : undefined;
}

/**
 * Builds the 2-D result: optional title row, optional header row, then one row per record.
 *
 * @example
 * buildTable({ columns: [{ key: "code" }], rows: [{ code: "7203" }], headers: 1, headerLanguage: "keys" })
 * // [["code"], ["7203"]]
 */
export function buildTable<R>(spec: TableSpec<R>): Cell[][] {
  const out: Cell[][] = [];
  if (spec.headers === 2 && spec.title) out.push(titleCells(spec.title));
  if (spec.headers >= 1) out.push(spec.columns.map((c) => headerCell(c, spec.headerLanguage)));
  for (const record of spec.rows) {
    out.push(
      spec.columns.map((c) => (c.value ? c.value(record) : plainCell(readField(record, c.key)))),
    );
  }
  return padRows(out);
}

/** The title row's four cells. */
export function titleCells(title: TitleRow): Cell[] {
  return [title.identifier, title.dataset, title.asOf, title.source];
}

/** Pads every row with empty cells to the widest row (Excel needs a rectangle). */
export function padRows(rows: Cell[][], minWidth = 0): Cell[][] {
  const width = rows.reduce((w, r) => Math.max(w, r.length), minWidth);
  return rows.map((r) =>
    r.length === width ? r : [...r, ...new Array<Cell>(width - r.length).fill(EMPTY)],
  );
}
