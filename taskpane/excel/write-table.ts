// Writes an imported table into the workbook: header, rows in blocks with formats, links, table, caption.

import { cellAddress, parseAddress, qualify, rangeAddress } from "../state/a1";
import type { CellValue, TableData } from "../state/table-data";
import { AddinFormula } from "./addin-formula";
import { styleCaption } from "./caption-style";
import { runExcel } from "./run";
import {
  probeArea,
  takeBack,
  typedAddress,
  TypedDuringImportError,
  type TypedCell,
  type Written,
} from "./import-guard";
import { oldAt, readOldTable, writeOldTable } from "./replaced-table";
import { writeCells, type WriteCell } from "./safe-values";

/**
 * Rows per sync: at most 5,000, and fewer for wide tables to stay well below the ~5 MB request limit.
 * @internal Tests check the block size directly.
 */
export function blockRows(columns: number): number {
  return Math.max(100, Math.min(5_000, Math.floor(100_000 / Math.max(1, columns))));
}

/** @internal Tests check the refusal's class. */
export class TargetNotEmptyError extends Error {
  override readonly name = "TargetNotEmptyError";
  constructor(readonly address: string) {
    super(`Cells ${address} are not empty`);
  }
}

/** @internal Tests check the cancellation's class. */
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
  /** Rows per sync. @default blockRows(columns) */
  rowsPerSync?: number;
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
    const rowsInTable = Math.max(1, total);
    const needed = rowsInTable + 3; // header, rows (an empty table keeps one), blank, caption
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

    const step = options.rowsPerSync ?? blockRows(cols);
    // A block's read back (formulas, values, formats) is about 1.5 times its write.
    const readStep = Math.ceil(step / 2);
    // A refresh reads the old table before removing it: if the analyst's typing stops the
    // refresh, it goes back where it was rather than leave them without it.
    const old =
      replaced &&
      (await readOldTable(
        context,
        sheet,
        options.name,
        { row: startRow, col: startCol, rows: ownedRows - 2, cols: replaced.columns },
        readStep,
      ));

    const formats = table.columns.map((c) => c.numberFormat);
    const bodyCell = (v: CellValue | undefined, i: number): WriteCell => {
      const column = table.columns[i];
      return column?.kind === "link" ? linkCell(v, column.linkText ?? "Link") : v;
    };
    const captionRow = startRow + rowsInTable + 2;
    // What the import has written, to take back if it stops (import-guard.ts).
    const done: Written = {
      sheet,
      blocks: [],
      wrote: (row, col) => {
        const c = col - startCol;
        if (row === startRow) return table.columns[c]?.header;
        if (row === captionRow) return c === 0 ? options.caption : undefined;
        return bodyCell(table.rows[row - startRow - 1]?.[c], c);
      },
      step: readStep,
    };
    // The analyst typed where the import had just written: their entries go back, the import's
    // cells go (a Refresh puts its old table back), and the pane names the cell.
    const stop = async (typed: TypedCell[]): Promise<never> => {
      const theirs = await takeBack(context, done, typed);
      const first = theirs[0] ?? typed[0];
      throw new TypedDuringImportError(
        first ? typedAddress(sheet.name, first) : sheet.name,
        replaced ? options.name : undefined,
      );
    };

    // The header goes with the first block (alone for an empty table). Each batch carries a probe
    // of its area just before its writes: what the analyst typed after the check is never lost.
    let written = 0;
    for (let start = 0; start === 0 || start < total; start += step) {
      if (options.signal?.aborted) {
        await takeBack(context, done, []);
        throw new WriteCancelledError();
      }
      if (replaced && start === 0) {
        // Only once the new rows are known to fit, and not for an import cancelled before it wrote.
        replaced.table.delete();
        sheet.getRange(replaced.area).clear("All");
        if (old) {
          done.old = {
            write: () => writeOldTable(context, sheet, old, readStep),
            at: (row, col) => oldAt(old, row, col),
          };
        }
      }
      const block = table.rows.slice(start, start + step);
      const header = start === 0 ? 1 : 0;
      const area = {
        row: startRow + 1 + start - header,
        col: startCol,
        rows: block.length + header,
        cols,
      };
      const typed = probeArea(sheet, area);
      if (header) {
        writeCells(sheet.getRange(rangeAddress(startRow, startCol, 1, cols)), [
          table.columns.map((c) => c.header),
        ]);
      }
      if (block.length > 0) {
        writeCells(
          sheet.getRange(rangeAddress(startRow + 1 + start, startCol, block.length, cols)),
          block.map((row) => row.map(bodyCell)),
          block.map(() => formats),
        );
      }
      // One sync per block on purpose: bounded request size (~5 MB limit) and visible progress.
      // eslint-disable-next-line office-addins/no-context-sync-in-loop
      await context.sync();
      done.blocks.push(area);
      const found = typed();
      if (found.length > 0) await stop(found);
      written += block.length;
      if (block.length > 0) options.onProgress?.(written);
    }

    const address = rangeAddress(startRow, startCol, rowsInTable + 1, cols);
    const captionArea = { row: captionRow, col: startCol, rows: 1, cols: 1 };
    const typedCaption = probeArea(sheet, captionArea);
    const created = sheet.tables.add(address, true);
    created.name = options.name;
    created.getRange().format.autofitColumns();

    const captionCell = sheet.getRange(cellAddress(captionRow, startCol));
    // The caption carries the API's source_label and license_note: text like every API string.
    writeCells(captionCell, [[options.caption]]);
    styleCaption(captionCell);
    await context.sync();
    const found = typedCaption();
    if (found.length > 0) {
      done.blocks.push(captionArea);
      done.table = created;
      await stop(found);
    }
    return { name: options.name, sheet: sheet.name, address, rows: total };
  });
}

/** Address with sheet of a written table, for messages. */
export function writtenAddress(t: WrittenTable): string {
  return qualify(t.sheet, t.address);
}
