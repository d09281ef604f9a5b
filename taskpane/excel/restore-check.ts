// Checks one KaishaProvenance record before Restore formulas acts on it: the sheet is workbook data.

import { parseAddress, qualify, type CellRef } from "../state/a1";
import { AddinFormula } from "./addin-formula";

/** A record Restore formulas left alone: its row on KaishaProvenance (1-based) and why. */
export interface RefusedRecord {
  row: number;
  /** the record's address column as written (may be anything). */
  address: string;
  /** formula: calls something besides KAISHA and pure helpers; range: values_range is not the cell's own; address: not a cell */
  reason: "formula" | "range" | "address";
  /** the refused part: a function or name, a range, or the address. */
  detail: string;
}

export interface RestorableRecord {
  address: string;
  anchor: CellRef;
  formula: AddinFormula;
  /** the range to clear, without sheet, starting at the anchor. */
  valuesRange: string;
}

const CELL = /^\$?([A-Z]{1,3})\$?([1-9]\d{0,6})$/;
const MAX_ROW = 1_048_576;
const MAX_COL = 16_384;

function cellOk(text: string): boolean {
  const m = CELL.exec(text);
  if (!m) return false;
  let col = 0;
  for (const ch of m[1] ?? "") col = col * 26 + ch.charCodeAt(0) - 64;
  return col <= MAX_COL && Number(m[2]) <= MAX_ROW;
}

/** Splits "Sheet!B2" / "'My sheet'!B2:C3" into sheet and A1 part (undefined when unqualified). */
function splitSheet(text: string): { sheet: string | undefined; a1: string } {
  const bang = text.lastIndexOf("!");
  if (bang < 0) return { sheet: undefined, a1: text };
  const raw = text.slice(0, bang);
  const sheet = /^'.*'$/.test(raw) ? raw.slice(1, -1).replace(/''/g, "'") : raw;
  return { sheet, a1: text.slice(bang + 1) };
}

/**
 * The verdict on one provenance row (`row` as read: address, formula, values_range, …):
 * undefined when the record belongs to another sheet than `sheetName` (out of scope, not refused),
 * a RefusedRecord, or what to restore. A record passes only when its address is one cell of
 * `sheetName`, its formula passes AddinFormula.restored (KAISHA calls and pure helpers, nothing
 * after them, no names or other workbooks), and its values range is on the same sheet and starts
 * at that cell (freeze records the spill range, which always starts at its formula's cell).
 * @example checkRecord(["Sheet1!B2", "=KAISHA.PRICE(7203)", "B2", …], 2, "Sheet1")
 */
export function checkRecord(
  row: readonly unknown[],
  rowNumber: number,
  sheetName: string,
): RefusedRecord | RestorableRecord | undefined {
  const rawAddress = row[0];
  const address = typeof rawAddress === "string" ? rawAddress : String(rawAddress ?? "");
  const refuse = (reason: RefusedRecord["reason"], detail: string): RefusedRecord => ({
    row: rowNumber,
    address,
    reason,
    detail,
  });
  const where = splitSheet(address);
  if (where.sheet === undefined || !cellOk(where.a1)) return refuse("address", address);
  if (where.sheet !== sheetName) return undefined;
  const anchor = parseAddress(address);

  const formulaText = typeof row[1] === "string" ? row[1] : String(row[1] ?? "");
  const formula = AddinFormula.restored(formulaText);
  if (!(formula instanceof AddinFormula)) return refuse("formula", formula.refused);

  const rawRange = typeof row[2] === "string" && row[2] !== "" ? row[2] : where.a1;
  const range = splitSheet(rawRange);
  if (range.sheet !== undefined && range.sheet !== sheetName) return refuse("range", rawRange);
  const corners = range.a1.split(":");
  if (corners.length > 2 || !corners.every(cellOk)) return refuse("range", rawRange);
  const start = parseAddress(corners[0] ?? "");
  const end = parseAddress(corners[1] ?? corners[0] ?? "");
  if (
    start.row !== anchor.row ||
    start.col !== anchor.col ||
    end.row < start.row ||
    end.col < start.col
  ) {
    return refuse("range", rawRange);
  }
  return {
    address: qualify(sheetName, where.a1.replace(/\$/g, "")),
    anchor,
    formula,
    valuesRange: range.a1,
  };
}
