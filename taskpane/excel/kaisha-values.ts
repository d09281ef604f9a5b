// Reads what the "Why this number" and Changes views need of the workbook: every KAISHA cell's value
// with the cells of its spill, and a cell's formula with its arguments' values (read only).

import { cellAddress, parseAddress, qualify } from "../state/a1";
import { parseKaishaCall } from "../state/refresh-cost";
import type { CellValue } from "../changes/change-diff";
import { isFormulaCell, isKaishaFormula } from "./cell-content";
import { splitAddress } from "./cell-address";
import { findKaishaFormulas, type KaishaCell } from "./formulas";
import { excelApiSupported } from "./requirements";
import { runExcel } from "./run";

/** Functions whose value is one cell (functions/index.ts): every other KAISHA function may spill. */
const ONE_CELL = new Set(["FINANCIAL", "PRICE"]);
/** Cells read per sync when given addresses, spills read per sync (office-js: ~5 MB a request). */
const CELLS_PER_SYNC = 5_000;
const SPILLS_PER_SYNC = 200;

/**
 * KAISHA formulas (the workbook's, found by formulas.ts findKaishaFormulas in bounded blocks, or
 * the cells at `addresses`, "'Sheet 1'!B2") with their values and, for a formula that spills
 * (ExcelApi 1.12 Range.getSpillingToRangeOrNullObject), the value of every cell of its spill.
 * @example (await readKaishaValues()).length // cells of KAISHA formulas and their spills
 */
export async function readKaishaValues(addresses?: readonly string[]): Promise<CellValue[]> {
  const anchors =
    addresses === undefined ? await findKaishaFormulas("workbook") : await readAt(addresses);
  const out: CellValue[] = [];
  const tables: KaishaCell[] = [];
  for (const a of anchors) {
    const name = parseKaishaCall(a.formula)?.name ?? "";
    if (ONE_CELL.has(name) || !excelApiSupported("1.12"))
      out.push(own(a, a.address, 0, 0, a.value));
    else tables.push(a);
  }
  for (let i = 0; i < tables.length; i += SPILLS_PER_SYNC) {
    const batch = tables.slice(i, i + SPILLS_PER_SYNC);
    const spills = await runExcel(async (context) => {
      const ranges = batch.map((a) =>
        context.workbook.worksheets
          .getItem(a.sheet)
          .getRange(a.address)
          .getSpillingToRangeOrNullObject()
          .load("values"),
      );
      // eslint-disable-next-line office-addins/no-context-sync-in-loop -- one sync per bounded batch (SPILLS_PER_SYNC): a request stays under Excel on the web's 5 MB
      await context.sync();
      return ranges.map((r) => (r.isNullObject ? undefined : r.values));
    });
    batch.forEach((a, k) => {
      const values = spills[k];
      if (values === undefined) {
        out.push(own(a, a.address, 0, 0, a.value));
        return;
      }
      const at = parseAddress(a.address);
      values.forEach((line, r) =>
        line.forEach((v, c) => out.push(own(a, cellAddress(at.row + r, at.col + c), r, c, v))),
      );
    });
  }
  return out;
}

function own(a: KaishaCell, address: string, row: number, col: number, value: unknown): CellValue {
  return {
    sheet: a.sheet,
    address,
    anchor: qualify(a.sheet, a.address),
    formula: a.formula,
    row,
    col,
    value: value ?? "",
  };
}

/** The KAISHA formula cells among `addresses` ("'Sheet 1'!B2"), with their values. */
async function readAt(addresses: readonly string[]): Promise<KaishaCell[]> {
  const cells = addresses.map(splitAddress).filter((c): c is [string, string] => c !== undefined);
  const out: KaishaCell[] = [];
  for (let i = 0; i < cells.length; i += CELLS_PER_SYNC) {
    const batch = cells.slice(i, i + CELLS_PER_SYNC);
    const read = await runExcel(async (context) => {
      const ranges = batch.map(([sheet, address]) =>
        context.workbook.worksheets.getItem(sheet).getRange(address).load("formulas,values"),
      );
      // eslint-disable-next-line office-addins/no-context-sync-in-loop -- one sync per bounded batch (CELLS_PER_SYNC)
      await context.sync();
      return ranges.map((r) => ({ formula: r.formulas[0]?.[0], value: r.values[0]?.[0] }));
    });
    batch.forEach(([sheet, address], k) => {
      const { formula, value } = read[k] ?? {};
      if (isKaishaFormula(formula) && isFormulaCell(formula, value))
        out.push({ sheet, address, formula: String(formula), value });
    });
  }
  return out;
}

/** A literal argument's value as Excel passes it; undefined for a reference or an expression. */
function literal(arg: string): { value: unknown } | undefined {
  const a = arg.trim();
  if (a === "") return { value: null };
  const quoted = /^"((?:[^"]|"")*)"$/.exec(a);
  if (quoted) return { value: (quoted[1] ?? "").replace(/""/g, '"') };
  if (/^-?\d+(\.\d+)?$/.test(a)) return { value: Number(a) };
  if (/^(TRUE|FALSE)$/i.test(a)) return { value: a.toUpperCase() === "TRUE" };
  return undefined;
}

/** A one-cell reference ("B2", "$B$2", "Inputs!B2", "'My sheet'!$B$2"). */
function isCellReference(arg: string): boolean {
  return /^(?:(?:'[^']+'|[A-Za-z_][\w.]*)!)?\$?[A-Za-z]{1,3}\$?\d+$/.test(arg.trim());
}

/** A KAISHA cell as the trace reads it (taskpane/trace/resolve-trace.ts SelectedCell). */
export interface TracedCellRead {
  /** the selected cell, sheet-qualified ("Model!C5"). */
  address: string;
  /** the formula's cell: itself, or the anchor of the spill it is in. */
  anchor: string;
  formula: string;
  /** the call's arguments as Excel passes them: literals read, a one-cell reference by its value. */
  args: unknown[];
  /** the cell's place in its anchor's spill (0, 0 for the anchor). */
  offset: { row: number; col: number };
  /** the cell's value and its text as shown. */
  value: unknown;
  shown: string;
  /** the spill's values (tables), for reading its header row and first columns. */
  spill?: unknown[][];
}

/**
 * The active cell as the trace reads it: its formula's cell (itself, or the anchor of the spill it
 * is in, found among the sheet's KAISHA formulas), the formula's arguments (literals, one-cell
 * references by their value; an expression stays undefined), its value and text, and the spill's
 * values. Undefined when the cell holds no KAISHA formula and is in no KAISHA spill.
 */
export async function readSelectedKaishaCell(): Promise<TracedCellRead | undefined> {
  return runExcel(async (context) => {
    const cell = context.workbook.getSelectedRange().getCell(0, 0);
    const sheet = context.workbook.worksheets.getActiveWorksheet();
    cell.load("address,formulas,values,text");
    sheet.load("name");
    await context.sync();
    const at = parseAddress(cell.address);
    return readKaishaCellAt(context, sheet.name, at.row, at.col, {
      value: cell.values[0]?.[0],
      shown: String(cell.text[0]?.[0] ?? ""),
    });
  });
}

/** The same read for a cell at a known place (a changed cell the Changes log traces). */
export async function readKaishaCellsAt(
  cells: readonly { sheet: string; address: string }[],
): Promise<(TracedCellRead | undefined)[]> {
  return runExcel(async (context) => {
    const out: (TracedCellRead | undefined)[] = [];
    for (const c of cells) {
      const at = parseAddress(c.address);
      const range = context.workbook.worksheets.getItem(c.sheet).getRange(c.address);
      range.load("values,text");
      // eslint-disable-next-line office-addins/no-context-sync-in-loop -- each cell's spill anchor is found from its own read; at most record-update.ts MAX_TRACED cells
      await context.sync();
      out.push(
        await readKaishaCellAt(context, c.sheet, at.row, at.col, {
          value: range.values[0]?.[0],
          shown: String(range.text[0]?.[0] ?? ""),
        }),
      );
    }
    return out;
  });
}

async function readKaishaCellAt(
  context: Excel.RequestContext,
  sheetName: string,
  row: number,
  col: number,
  shown: { value: unknown; shown: string },
): Promise<TracedCellRead | undefined> {
  const sheet = context.workbook.worksheets.getItem(sheetName);
  const own = sheet.getRange(cellAddress(row, col)).load("formulas,values");
  await context.sync();
  let anchor: { row: number; col: number; formula: string } | undefined;
  const f = own.formulas[0]?.[0];
  if (isKaishaFormula(f) && isFormulaCell(f, own.values[0]?.[0])) anchor = { row, col, formula: f };
  let spill: unknown[][] | undefined;
  if (excelApiSupported("1.12")) {
    if (anchor === undefined) {
      // A cell of a spill: the KAISHA formula of the sheet whose spill covers it.
      const used = sheet.getUsedRangeOrNullObject(false).load("address,formulas,values");
      await context.sync();
      if (used.isNullObject) return undefined;
      const top = parseAddress(used.address);
      const candidates: { row: number; col: number; formula: string; range: Excel.Range }[] = [];
      used.formulas.forEach((line, r) =>
        line.forEach((formula, c) => {
          const ar = top.row + r;
          const ac = top.col + c;
          if (ar > row || ac > col || !isKaishaFormula(formula)) return;
          if (!isFormulaCell(formula, used.values[r]?.[c])) return;
          const range = sheet
            .getRange(cellAddress(ar, ac))
            .getSpillingToRangeOrNullObject()
            .load("address,rowCount,columnCount");
          candidates.push({ row: ar, col: ac, formula, range });
        }),
      );
      await context.sync();
      const hit = candidates.find(
        (x) =>
          !x.range.isNullObject &&
          row < x.row + x.range.rowCount &&
          col < x.col + x.range.columnCount,
      );
      if (hit === undefined) return undefined;
      anchor = { row: hit.row, col: hit.col, formula: hit.formula };
    }
    const s = sheet
      .getRange(cellAddress(anchor.row, anchor.col))
      .getSpillingToRangeOrNullObject()
      .load("values");
    await context.sync();
    if (!s.isNullObject) spill = s.values;
  }
  if (anchor === undefined) return undefined;
  const call = parseKaishaCall(anchor.formula);
  const args: unknown[] = [];
  const refs: { index: number; range: Excel.Range }[] = [];
  (call?.args ?? []).forEach((arg, index) => {
    const lit = literal(arg);
    if (lit !== undefined) {
      args[index] = lit.value;
      return;
    }
    args[index] = undefined;
    if (!isCellReference(arg)) return;
    const ref = parseAddress(arg.trim());
    const target = ref.sheet ? context.workbook.worksheets.getItem(ref.sheet) : sheet;
    refs.push({ index, range: target.getRange(cellAddress(ref.row, ref.col)).load("values") });
  });
  if (refs.length > 0) await context.sync();
  for (const r of refs) args[r.index] = r.range.values[0]?.[0] ?? null;
  return {
    address: qualify(sheetName, cellAddress(row, col)),
    anchor: qualify(sheetName, cellAddress(anchor.row, anchor.col)),
    formula: anchor.formula,
    args,
    offset: { row: row - anchor.row, col: col - anchor.col },
    value: shown.value,
    shown: shown.shown,
    ...(spill ? { spill } : {}),
  };
}
