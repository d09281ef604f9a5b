// Writes an imported table into the workbook: header, rows in blocks with formats, links, table, caption.

import { cellAddress, parseAddress, qualify, rangeAddress } from "../state/a1";
import type { CellValue, TableData } from "../state/table-data";
import { AddinFormula } from "./addin-formula";
import { runExcel } from "./run";
import { writeCells, type WriteCell } from "./safe-values";

/** Rows per sync: at most 5,000, and fewer for wide tables to stay well below the ~5 MB request limit. */
export function blockRows(columns: number): number {
  return Math.max(100, Math.min(5_000, Math.floor(100_000 / Math.max(1, columns))));
}

export class TargetNotEmptyError extends Error {
  override readonly name = "TargetNotEmptyError";
  constructor(readonly address: string) {
    super(`Cells ${address} are not empty`);
  }
}

export class WriteCancelledError extends Error {
  override readonly name = "WriteCancelledError";
  constructor() {
    super("Import cancelled");
  }
}

export interface WriteTableOptions {
  /** Table name (unique in the workbook). */
  name: string;
  /** Replace the existing table of this name at its place (Refresh imports). */
  replace?: boolean;
  /** Where to write; default the active cell. */
  anchor?: { sheet: string; address: string };
  /** Attribution caption under the table. */
  caption: string;
  signal?: AbortSignal;
  onProgress?: (rowsWritten: number) => void;
}

export interface WrittenTable {
  name: string;
  sheet: string;
  /** Address of the whole table (header included), without sheet. */
  address: string;
  rows: number;
}

/** A link cell: a HYPERLINK for an http(s) URL, the API's text as text for anything else. */
function linkCell(url: CellValue | undefined, text: string): WriteCell {
  if (typeof url !== "string") return url;
  return AddinFormula.hyperlink(url, text) ?? url;
}

/**
 * Writes `table` as an Excel table through safe-values.ts: number formats go in before values, every
 * string (codes, names, dates the API sent unparsable) lands as text whatever it starts with, http(s)
 * links become HYPERLINK formulas; blocks of rows are synced one at a time.
 * @example await writeTable(data, { name: "Kaisha_prices_7203", caption: "出典: ..." })
 */
export async function writeTable(
  table: TableData,
  options: WriteTableOptions,
): Promise<WrittenTable> {
  return runExcel(async (context) => {
    const cols = Math.max(1, table.columns.length);
    const total = table.rows.length;
    let sheet: Excel.Worksheet;
    let startRow: number;
    let startCol: number;
    // Rows at the place already owned by the table being replaced (header + rows + gap + caption).
    let ownedRows = 0;
    // The area the replaced table owns, cleared only once the new rows are known to fit.
    let replaced: { table: Excel.Table; area: string; columns: number } | undefined;

    const existing = context.workbook.tables.getItemOrNullObject(options.name);
    await context.sync();
    if (!existing.isNullObject && options.replace) {
      const old = existing.getRange();
      old.load("address,rowCount,columnCount");
      await context.sync();
      const ref = parseAddress(old.address);
      sheet = context.workbook.worksheets.getItem(ref.sheet ?? "");
      startRow = ref.row;
      startCol = ref.col;
      ownedRows = old.rowCount + 2;
      // Only the old table's own columns are cleared: cells beside it are the analyst's.
      replaced = {
        table: existing,
        area: rangeAddress(startRow, startCol, ownedRows, old.columnCount),
        columns: old.columnCount,
      };
    } else {
      if (!existing.isNullObject) throw new Error(`A table named ${options.name} already exists`);
      if (options.anchor) {
        sheet = context.workbook.worksheets.getItem(options.anchor.sheet);
        const ref = parseAddress(options.anchor.address);
        startRow = ref.row;
        startCol = ref.col;
      } else {
        const selected = context.workbook.getSelectedRange();
        selected.load("address");
        sheet = context.workbook.worksheets.getActiveWorksheet();
        await context.sync();
        const ref = parseAddress(selected.address);
        startRow = ref.row;
        startCol = ref.col;
      }
    }
    sheet.load("name");

    // Refuse to overwrite the user's data (beyond what the replaced table owned): the rows below
    // it, and the columns a refresh adds beside it (the analyst's notes next to a table).
    const needed = total + 3; // header, rows, blank, caption
    const checks: Excel.Range[] = [];
    if (needed > ownedRows) {
      checks.push(
        sheet
          .getRange(rangeAddress(startRow + ownedRows, startCol, needed - ownedRows, cols))
          .getUsedRangeOrNullObject(true),
      );
    }
    if (replaced && cols > replaced.columns) {
      const extra = cols - replaced.columns;
      const rows = Math.min(ownedRows, needed);
      checks.push(
        sheet
          .getRange(rangeAddress(startRow, startCol + replaced.columns, rows, extra))
          .getUsedRangeOrNullObject(true),
      );
    }
    if (checks.length > 0) {
      for (const free of checks) free.load("address");
      await context.sync();
      // Checked before the old table goes: a refresh that cannot fit keeps the data it had.
      const taken = checks.find((free) => !free.isNullObject);
      if (taken) throw new TargetNotEmptyError(taken.address);
    }
    if (replaced) {
      replaced.table.delete();
      sheet.getRange(replaced.area).clear("All");
    }

    writeCells(sheet.getRange(rangeAddress(startRow, startCol, 1, cols)), [
      table.columns.map((c) => c.header),
    ]);

    const step = blockRows(cols);
    const formats = table.columns.map((c) => c.numberFormat);
    const linkCols = table.columns.flatMap((c, i) => (c.kind === "link" ? [i] : []));
    let written = 0;
    for (let start = 0; start < total; start += step) {
      if (options.signal?.aborted) {
        sheet.getRange(rangeAddress(startRow, startCol, written + 1, cols)).clear("All");
        // eslint-disable-next-line office-addins/no-context-sync-in-loop -- cancellation cleans up once
        await context.sync();
        throw new WriteCancelledError();
      }
      const block = table.rows.slice(start, start + step);
      const range = sheet.getRange(
        rangeAddress(startRow + 1 + start, startCol, block.length, cols),
      );
      const cells = block.map((row) =>
        linkCols.length
          ? row.map((v, i) => {
              const column = table.columns[i];
              return column?.kind === "link" ? linkCell(v, column.linkText ?? "Link") : v;
            })
          : row,
      );
      writeCells(
        range,
        cells,
        block.map(() => formats),
      );
      // One sync per block on purpose: bounded request size (~5 MB limit) and visible progress.
      // eslint-disable-next-line office-addins/no-context-sync-in-loop
      await context.sync();
      written += block.length;
      options.onProgress?.(written);
    }

    const rowsInTable = Math.max(1, total);
    const address = rangeAddress(startRow, startCol, rowsInTable + 1, cols);
    const created = sheet.tables.add(address, true);
    created.name = options.name;
    created.getRange().format.autofitColumns();

    const captionCell = sheet.getRange(cellAddress(startRow + rowsInTable + 2, startCol));
    // The caption carries the API's source_label and license_note: text like every API string.
    writeCells(captionCell, [[options.caption]]);
    captionCell.format.font.italic = true;
    captionCell.format.font.color = "#605E5C";
    await context.sync();
    return { name: options.name, sheet: sheet.name, address, rows: total };
  });
}

/** Address with sheet of a written table, for messages. */
export function writtenAddress(t: WrittenTable): string {
  return qualify(t.sheet, t.address);
}
