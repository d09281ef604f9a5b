// Keeps an import from writing over what the analyst types while it runs: a probe before each write, and the stop that gives their cells back.

import { cellAddress, parseAddress, qualify, rangeAddress } from "../state/a1";
import { AddinFormula } from "./addin-formula";
import { isFormulaCell } from "./cell-content";
import { CELL_CONTENT, putBack, type CellContent } from "./guarded-write";
import type { WriteCell } from "./safe-values";

/**
 * The analyst typed into cells an import was writing, after it found them empty: their entries
 * were put back, what the import had written was removed, and it stopped.
 */
export class TypedDuringImportError extends Error {
  override readonly name = "TypedDuringImportError";
  constructor(
    /** The first cell they typed into, sheet-qualified. */
    readonly address: string,
    /** The refreshed table's name when its old rows had already been removed (a Refresh). */
    readonly replacedTable: string | undefined,
  ) {
    super(`Cell ${address} was typed into during the import`);
  }
}

/** A cell the analyst left content in (0-based row and column on the import's sheet). */
export interface TypedCell {
  row: number;
  col: number;
  content: CellContent;
}

/** An area the import writes (0-based on its sheet). */
export interface Area {
  row: number;
  col: number;
  rows: number;
  cols: number;
}

/**
 * Queues a probe of an area, to stand just before the import's write of it in the same batch:
 * commands run in order at sync, so it reads what the cells held when the write ran (Office.js,
 * "Excel JavaScript object model": load and sync). The area was empty when the import checked it
 * (or cleared by the import), so whatever the probe finds there the analyst typed meanwhile (Excel
 * holds a batch while a cell is being edited: STANDIN.md, "Loaded range content is a copy").
 * @example const typed = probeArea(sheet, { row: 2, col: 1, rows: 5000, cols: 3 }); await context.sync(); typed();
 */
export function probeArea(sheet: Excel.Worksheet, area: Area): () => TypedCell[] {
  const used = sheet.getRange(areaAddress(area)).getUsedRangeOrNullObject(true);
  used.load(`address,${CELL_CONTENT}`);
  return () => typedIn(used);
}

/** The non-empty cells of a synced probe (a used range, or its null object when all is empty). */
function typedIn(used: Excel.Range): TypedCell[] {
  if (used.isNullObject) return [];
  const at = parseAddress(used.address);
  const found: TypedCell[] = [];
  used.formulas.forEach((line, r) =>
    line.forEach((formula, c) => {
      const content = { formula, value: used.values[r]?.[c], format: used.numberFormat[r]?.[c] };
      if (!isEmpty(content)) found.push({ row: at.row + r, col: at.col + c, content });
    }),
  );
  return found;
}

/** "B3:D10" for an area. */
export function areaAddress(a: Area): string {
  return rangeAddress(a.row, a.col, a.rows, a.cols);
}

/**
 * An area cut into parts of at most `step` rows, top to bottom (one sync each: the ~5 MB limit on a
 * request or a response).
 * @example rowParts({ row: 0, col: 0, rows: 5, cols: 2 }, 2) // rows 0-1, 2-3, 4
 */
export function rowParts(area: Area, step: number): Area[] {
  const parts: Area[] = [];
  for (let row = area.row; row < area.row + area.rows; row += step)
    parts.push({ ...area, row, rows: Math.min(step, area.row + area.rows - row) });
  return parts;
}

function isEmpty(content: CellContent): boolean {
  const blank = (x: unknown) => x === "" || x === null || x === undefined;
  return blank(content.formula) && blank(content.value);
}

/**
 * True when a cell holds what the import wrote there: the formula it built, or the constant. Read
 * back loosely on purpose, so that nothing the import wrote is ever taken for the analyst's entry
 * and left behind: text without case (TRUE and true agree, Excel may case a formula's names),
 * numbers to Excel's 15 significant digits (Microsoft Support, "Excel specifications and limits":
 * number precision 15 digits).
 */
function holdsWrite(now: CellContent, wrote: WriteCell): boolean {
  if (wrote instanceof AddinFormula)
    return isFormulaCell(now.formula, now.value) && asText(now.formula) === asText(wrote.text);
  if (isFormulaCell(now.formula, now.value)) return false;
  if (typeof wrote === "number" && typeof now.formula === "number")
    return wrote.toPrecision(15) === now.formula.toPrecision(15);
  return asText(now.formula) === asText(wrote);
}

/** A cell's content as comparable text: empty for nothing, upper case, one kind of line break. */
function asText(x: unknown): string {
  return x === null || x === undefined || (typeof x === "number" && !Number.isFinite(x))
    ? ""
    : String(x).replace(/\r\n/g, "\n").toUpperCase();
}

/** What an import has written so far, to take back when it stops. */
export interface Written {
  sheet: Excel.Worksheet;
  /** The areas written (header, rows, caption), in order. */
  blocks: Area[];
  /** What the import wrote at a cell (0-based on the sheet). */
  wrote(row: number, col: number): WriteCell;
  /** Rows per clearing batch. */
  step: number;
  /** The table the import added, when it got that far. */
  table?: Excel.Table;
  /** A Refresh's old table, removed by the refresh, to put back (replaced-table.ts). */
  old?: {
    /** Writes it back; resolves to the cells the analyst typed into its area since. */
    write(): Promise<TypedCell[]>;
    /** Its formula bar text at a cell ("" outside it). */
    at(row: number, col: number): unknown;
  };
}

/**
 * Takes back what an import wrote and gives the analyst their cells: each block is read and
 * cleared in one batch (the read stands before the clear, so a cell typed over the import's values
 * since is found and kept as the newest entry), then every typed cell gets its content back exactly
 * (formula, constant, number format: guarded-write.ts `putBack`, guarded in turn). Resolves to the
 * typed cells in the order found.
 * @example await takeBack(context, written, probe()); throw new TypedDuringImportError(...);
 */
export async function takeBack(
  context: Excel.RequestContext,
  written: Written,
  typed: readonly TypedCell[],
): Promise<TypedCell[]> {
  const { sheet } = written;
  const theirs = new Map(typed.map((t) => [`${t.row},${t.col}`, t]));
  let table = written.table;
  for (const block of written.blocks) {
    for (const part of rowParts(block, written.step)) {
      const { row } = part;
      const range = sheet.getRange(areaAddress(part)).load(CELL_CONTENT);
      // The table goes before its cells are cleared (Excel names a table's emptied header cells
      // Column1, Column2…), after the first read; a cell a later read finds empty is skipped below.
      table?.delete();
      table = undefined;
      sheet.getRange(areaAddress(part)).clear("All");
      // eslint-disable-next-line office-addins/no-context-sync-in-loop -- bounded reads, only when an import stops
      await context.sync();
      range.formulas.forEach((line, r) =>
        line.forEach((formula, c) => {
          const at = { row: row + r, col: block.col + c };
          const now = { formula, value: range.values[r]?.[c], format: range.numberFormat[r]?.[c] };
          if (!isEmpty(now) && !holdsWrite(now, written.wrote(at.row, at.col)))
            theirs.set(`${at.row},${at.col}`, { ...at, content: now });
        }),
      );
    }
  }
  for (const t of (await written.old?.write()) ?? []) theirs.set(`${t.row},${t.col}`, t);
  const cells = [...theirs.values()];
  const cell = (t: TypedCell) => sheet.getRange(cellAddress(t.row, t.col));
  await putBack(
    context,
    cells.map((t) => ({
      target: cell(t),
      probe: cell(t),
      held: t.content,
      // The cell was cleared (or given the old table's content back): anything else there the
      // analyst typed since.
      stands: (now: CellContent) =>
        asText(now.formula) === asText(written.old?.at(t.row, t.col) ?? ""),
    })),
  );
  return cells;
}

/** The sheet-qualified address of a typed cell, for the message. */
export function typedAddress(sheetName: string, cell: TypedCell): string {
  return qualify(sheetName, cellAddress(cell.row, cell.col));
}
