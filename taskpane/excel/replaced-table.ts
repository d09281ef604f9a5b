// A Refresh's old table, read before it is removed, so a refresh the analyst's typing stops can put it back.

import { styleCaption } from "./caption-style";
import { probeArea, areaAddress, rowParts, type Area, type TypedCell } from "./import-guard";

/** What a refreshed table held before the refresh removed it. */
export interface OldTable {
  name: string;
  /** The table's range: header and rows. */
  table: Area;
  /** What the table owns: its range, the blank row and the caption under it. */
  area: Area;
  /** Range.formulas and Range.numberFormat of `area`, row by row. */
  formulas: unknown[][];
  formats: unknown[][];
}

/**
 * Reads the area a refreshed table owns, `step` rows per sync (the ~5 MB limit on a response),
 * before the refresh removes it.
 * @example const old = await readOldTable(context, sheet, "Kaisha_prices_7203", { row: 4, col: 2, rows: 5, cols: 3 }, 2500);
 */
export async function readOldTable(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  name: string,
  table: Area,
  step: number,
): Promise<OldTable> {
  const area = { ...table, rows: table.rows + 2 };
  const old: OldTable = { name, table, area, formulas: [], formats: [] };
  for (const part of rowParts(area, step)) {
    const range = sheet.getRange(areaAddress(part)).load("formulas,numberFormat");
    // eslint-disable-next-line office-addins/no-context-sync-in-loop -- bounded reads of a large table
    await context.sync();
    old.formulas.push(...range.formulas);
    old.formats.push(...range.numberFormat);
  }
  return old;
}

/** What the old table's area held at a cell (0-based on the sheet): its formula bar text, "" outside. */
export function oldAt(old: OldTable, row: number, col: number): unknown {
  return old.formulas[row - old.area.row]?.[col - old.area.col] ?? "";
}

/**
 * Writes the old table back where the refresh cleared it, `step` rows per sync: number formats
 * first, then Range.formulas as read (a Text cell keeps "=…" as text, a formula stays a formula),
 * each block after a probe of its area, which the refresh had cleared: anything found there the
 * analyst typed since, and it goes back over the old content afterwards (the caller puts it back).
 * The table is added again under its name, and the caption gets its look back.
 * @example const typedSince = await writeOldTable(context, sheet, old, 2500);
 */
export async function writeOldTable(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  old: OldTable,
  step: number,
): Promise<TypedCell[]> {
  const typed: TypedCell[] = [];
  const { area } = old;
  for (const part of rowParts(area, step)) {
    const probe = probeArea(sheet, part);
    const range = sheet.getRange(areaAddress(part));
    const at = part.row - area.row;
    range.numberFormat = old.formats.slice(at, at + part.rows) as string[][];
    range.formulas = old.formulas.slice(at, at + part.rows) as string[][];
    // eslint-disable-next-line office-addins/no-context-sync-in-loop -- bounded writes of a large table
    await context.sync();
    typed.push(...probe());
  }
  sheet.tables.add(areaAddress(old.table), true).name = old.name;
  const captionRow = area.row + area.rows - 1;
  if (oldAt(old, captionRow, area.col) !== "") {
    styleCaption(sheet.getRange(areaAddress({ ...area, row: captionRow, rows: 1, cols: 1 })));
  }
  return typed;
}
