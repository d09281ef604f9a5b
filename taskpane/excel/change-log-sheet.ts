// Writes the Changes log to a sheet of its own (変更履歴 / Change log) as values: appended below
// what the sheet holds, so nothing there is ever overwritten, and each update written once.

import { rangeAddress } from "../state/a1";
import type { LoggedUpdate } from "../changes/change-diff";
import { writeCells, type WriteCell } from "./safe-values";
import { runExcel } from "./run";

/** The sheet's name and header row in the pane's language. */
export interface LogSheetText {
  sheet: string;
  header: readonly string[];
  /** the words of each kind of change (new_period, restatement, new_price_day, changed). */
  kind: Readonly<Record<string, string>>;
}

/** JST wall-clock time as an Excel serial (days since 1899-12-30): dates are serials in cells. */
function jstSerial(ms: number): number {
  return (ms + 9 * 3_600_000) / 86_400_000 + 25_569;
}

function valueCell(v: unknown): WriteCell {
  return typeof v === "number" || typeof v === "string" || typeof v === "boolean" ? v : null;
}

/**
 * The rows of the updates not yet on the sheet (by update id, column A), one per changed cell:
 * update id, time (JST), kind, company, period or day, filing, sheet, cell, item, period, old,
 * new, difference (a fraction: percentages are fractions in cells).
 * @internal Tests check the rows directly.
 */
export function logRows(
  updates: readonly LoggedUpdate[],
  written: ReadonlySet<string>,
  text: LogSheetText,
): { cells: WriteCell[][]; formats: (string | undefined)[][] } {
  const cells: WriteCell[][] = [];
  const formats: (string | undefined)[][] = [];
  // Oldest first, as a log reads down.
  for (const u of [...updates].reverse()) {
    if (written.has(u.id)) continue;
    for (const g of u.groups)
      for (const c of g.cells) {
        cells.push([
          u.id,
          jstSerial(u.at),
          text.kind[g.kind] ?? g.kind,
          g.company ?? "",
          g.label ?? "",
          g.filing ? `${g.filing.title} (${g.filing.doc_id})` : "",
          c.sheet,
          c.address,
          c.item ?? "",
          c.period ?? "",
          valueCell(c.old),
          valueCell(c.new),
          c.pct === undefined ? null : c.pct / 100,
        ]);
        formats.push([
          "@",
          "yyyy-mm-dd hh:mm",
          "@",
          "@",
          "@",
          "@",
          "@",
          "@",
          "@",
          "@",
          undefined,
          undefined,
          "0.0%",
        ]);
      }
  }
  return { cells, formats };
}

/**
 * Appends the updates not yet written to the log sheet (created with its header when missing),
 * below its used range: the analyst's own cells there stay as they are. Returns rows written.
 */
export async function writeChangeLogSheet(
  updates: readonly LoggedUpdate[],
  text: LogSheetText,
): Promise<number> {
  return runExcel(async (context) => {
    let sheet = context.workbook.worksheets.getItemOrNullObject(text.sheet);
    await context.sync();
    if (sheet.isNullObject) {
      sheet = context.workbook.worksheets.add(text.sheet);
      const header = sheet.getRange(rangeAddress(0, 0, 1, text.header.length));
      writeCells(header, [[...text.header]]);
      header.format.font.bold = true;
    }
    const used = sheet.getUsedRangeOrNullObject(true);
    used.load("values,rowIndex,rowCount");
    await context.sync();
    const written = new Set<string>();
    if (!used.isNullObject) for (const row of used.values) written.add(String(row[0] ?? ""));
    const { cells, formats } = logRows(updates, written, text);
    if (cells.length === 0) return 0;
    const first = used.isNullObject ? 1 : used.rowIndex + used.rowCount;
    const width = text.header.length;
    writeCells(sheet.getRange(rangeAddress(first, 0, cells.length, width)), cells, formats);
    await context.sync();
    return cells.length;
  });
}
