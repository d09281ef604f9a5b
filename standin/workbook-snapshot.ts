// A saved workbook (the stand-in's `save` hook): plain JSON of what an .xlsx keeps — cells as shown,
// formulas, number formats, rich values, tables, charts, the document's settings and the add-in's
// startup behaviour — and the way back into a stand-in workbook when the page opens with it.
import type { StandInCell } from "./standin-engine";
import {
  k,
  parseRef,
  rectAddress,
  rowCol,
  Workbook,
  type CellRecord,
  type ChartRecord,
  type SheetRecord,
} from "./workbook-model";

/** Office.StartupBehavior's values (Microsoft: Office.StartupBehavior enum, "Load" / "None"). */
export type StartupBehavior = "Load" | "None";

interface SavedCell {
  address: string;
  value?: unknown;
  formula?: string;
  numberFormat?: string;
  format?: Record<string, unknown>;
  /** What the formula showed when saved (a spill: every cell of it). */
  result?: StandInCell[][];
}

interface SavedSheet {
  name: string;
  visibility: string;
  cells: SavedCell[];
  columnFormats: [number, string][];
  tables: { name: string; address: string; hasHeaders: boolean }[];
  charts: ChartRecord[];
}

export interface WorkbookSnapshot {
  format: "kaisha-standin-workbook/1";
  sheets: SavedSheet[];
  activeSheet: string;
  selection: { sheet: string; address: string };
  /** Office.context.document.settings as last saved with saveAsync. */
  settings: Record<string, unknown>;
  /** Office.addin.setStartupBehavior's last value for this document. */
  startupBehavior: StartupBehavior;
}

/** What the document keeps besides cells (office-document.ts fills it). */
export interface DocumentState {
  settings: Record<string, unknown>;
  startupBehavior: StartupBehavior;
}

/** A deep copy through JSON: what a file keeps, and nothing shared with the live workbook. */
function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function saveCell(s: SheetRecord, key: string, cell: CellRecord): SavedCell {
  const [r, c] = rowCol(key);
  const out: SavedCell = { address: rectAddress({ top: r, left: c, bottom: r, right: c }) };
  if (cell.value !== "" && cell.value !== undefined) out.value = cell.value;
  if (cell.formula !== undefined) out.formula = cell.formula;
  if (cell.numberFormat !== undefined) out.numberFormat = cell.numberFormat;
  if (cell.format !== undefined) out.format = cell.format;
  const anchor = s.anchors.get(key);
  // A spill that was blocked shows #SPILL! in its cell; the file keeps that, not the array.
  if (cell.formula !== undefined && anchor?.result)
    out.result = anchor.blocked ? [[{ value: "#SPILL!", error: "Spill" }]] : anchor.result;
  return out;
}

/** The workbook as a file keeps it. */
export function saveWorkbook(wb: Workbook, doc: DocumentState): WorkbookSnapshot {
  return plain<WorkbookSnapshot>({
    format: "kaisha-standin-workbook/1",
    sheets: wb.sheets.map((s) => ({
      name: s.name,
      visibility: s.visibility,
      cells: [...s.cells].map(([key, cell]) => saveCell(s, key, cell)),
      columnFormats: [...s.colFormats],
      tables: s.tables.map((t) => ({
        name: t.name,
        address: rectAddress(t.rect),
        hasHeaders: t.hasHeaders === true,
      })),
      charts: s.charts,
    })),
    activeSheet: wb.activeSheet.name,
    selection: wb.selection,
    settings: doc.settings,
    startupBehavior: doc.startupBehavior,
  });
}

/**
 * Opens a saved workbook into `wb` (a fresh one): every cell as saved, formulas showing their saved
 * results without being calculated (what calculates them is the host model's, install.ts).
 */
export function openWorkbook(wb: Workbook, snapshot: WorkbookSnapshot): DocumentState {
  const saved = plain(snapshot);
  wb.sheets = [];
  for (const sheet of saved.sheets) {
    const s = wb.newSheet(sheet.name);
    s.visibility = sheet.visibility;
    for (const [c, f] of sheet.columnFormats) s.colFormats.set(c, f);
    for (const cell of sheet.cells) {
      const at = parseRef(cell.address);
      const record: CellRecord = { value: cell.value ?? "" };
      if (cell.formula !== undefined) record.formula = cell.formula;
      if (cell.numberFormat !== undefined) record.numberFormat = cell.numberFormat;
      if (cell.format !== undefined) record.format = cell.format;
      s.cells.set(k(at.top, at.left), record);
      if (cell.formula !== undefined) wb.restoreResult(s, at.top, at.left, cell.result);
    }
    for (const t of sheet.tables) {
      const at = parseRef(t.address);
      s.tables.push({
        name: t.name,
        sheet: s,
        rect: { top: at.top, left: at.left, bottom: at.bottom, right: at.right },
        hasHeaders: t.hasHeaders,
      });
    }
    s.charts = sheet.charts;
    wb.relayout(s);
  }
  if (wb.sheets.length === 0) wb.newSheet("Sheet1");
  const first = wb.sheets[0] as SheetRecord;
  wb.activeSheet = wb.findSheet(saved.activeSheet) ?? first;
  wb.selection = wb.findSheet(saved.selection.sheet)
    ? saved.selection
    : { sheet: wb.activeSheet.name, address: "A1" };
  wb.tableSeq = wb.allTables().length;
  wb.chartSeq = wb.sheets.reduce((n, s) => n + s.charts.length, 0);
  return { settings: saved.settings, startupBehavior: saved.startupBehavior };
}
