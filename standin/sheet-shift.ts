// Inserting and deleting rows and columns in the stand-in's workbook: cells, spills, tables and
// column formats move, and references in formulas follow them as Excel's do (a reference to a
// deleted cell becomes #REF!).
import { columnIndex, columnLetter } from "../taskpane/state/a1";
import { k, rowCol, type Rect, type SheetRecord, type Workbook } from "./workbook-model";

/** What moves: rows or columns from `at` (0-based); `count` inserted (> 0) or deleted (< 0). */
export interface Shift {
  axis: "row" | "col";
  at: number;
  count: number;
}

/** A position after the shift; undefined when it was deleted. */
function moved(pos: number, shift: Shift): number | undefined {
  if (pos < shift.at) return pos;
  if (shift.count > 0) return pos + shift.count;
  if (pos < shift.at - shift.count) return undefined;
  return pos + shift.count;
}

/** A span [from, to] after the shift (a range shrinks around deleted lines); undefined if gone. */
function movedSpan(from: number, to: number, shift: Shift): [number, number] | undefined {
  if (shift.count > 0) return [moved(from, shift) ?? from, moved(to, shift) ?? to];
  const a = moved(from, shift) ?? shift.at;
  const b = moved(to, shift) ?? shift.at - 1;
  return a <= b ? [a, b] : undefined;
}

const REF =
  /(?<![A-Za-z0-9_.$'!])((?:'(?:[^']|'')+'|[A-Za-z_][A-Za-z0-9_.]*)!)?(\$?)([A-Z]{1,3})(\$?)(\d+)(?::(\$?)([A-Z]{1,3})(\$?)(\d+))?(?![A-Za-z0-9_(!])/g;

/**
 * A formula of sheet `home` with its references to sheet `shifted` moved by `shift` (text in
 * string literals is left alone).
 * @example shiftFormula("=KAISHA.PRICE(A5)", "Sheet1", "Sheet1", { axis: "row", at: 2, count: 1 }) // "=KAISHA.PRICE(A6)"
 */
function shiftFormula(formula: string, home: string, shifted: string, shift: Shift): string {
  return formula
    .split(/("(?:[^"]|"")*")/)
    .map((part, i) => (i % 2 === 1 ? part : shiftRefs(part, home, shifted, shift)))
    .join("");
}

function shiftRefs(code: string, home: string, shifted: string, shift: Shift): string {
  return code.replace(
    REF,
    (
      whole,
      prefix: string | undefined,
      d1: string,
      c1: string,
      d2: string,
      r1: string,
      d3?: string,
      c2?: string,
      d4?: string,
      r2?: string,
    ) => {
      const sheet = prefix
        ? prefix
            .slice(0, -1)
            .replace(/^'(.*)'$/, "$1")
            .replace(/''/g, "'")
        : home;
      if (sheet !== shifted) return whole;
      const from = { row: Number(r1) - 1, col: columnIndex(c1) };
      const to = c2 && r2 ? { row: Number(r2) - 1, col: columnIndex(c2) } : from;
      const key = shift.axis;
      const span = movedSpan(from[key], to[key], shift);
      if (!span || (!c2 && moved(from[key], shift) === undefined)) return "#REF!";
      const start = { ...from, [key]: span[0] };
      const end = { ...to, [key]: span[1] };
      const first = `${d1}${columnLetter(start.col)}${d2}${start.row + 1}`;
      const second = c2 ? `:${d3 ?? ""}${columnLetter(end.col)}${d4 ?? ""}${end.row + 1}` : "";
      return `${prefix ?? ""}${first}${second}`;
    },
  );
}

function movedRect(rect: Rect, shift: Shift): Rect | undefined {
  const [lo, hi]: ["top", "bottom"] | ["left", "right"] =
    shift.axis === "row" ? ["top", "bottom"] : ["left", "right"];
  const span = movedSpan(rect[lo], rect[hi], shift);
  return span ? { ...rect, [lo]: span[0], [hi]: span[1] } : undefined;
}

/**
 * Inserts or deletes rows or columns of sheet `s`: its cells and spills move, every formula of the
 * workbook that refers to them follows, and every formula is calculated again (the custom
 * functions among them included: STANDIN.md "Host model").
 */
export function shiftSheet(wb: Workbook, s: SheetRecord, shift: Shift): void {
  const cells = [...s.cells];
  for (const a of s.anchors.values()) a.cancel();
  const anchors = [...s.anchors.values()];
  s.cells.clear();
  s.anchors.clear();
  for (const [key, cell] of cells) {
    const [r, c] = rowCol(key);
    const pos = moved(shift.axis === "row" ? r : c, shift);
    if (pos === undefined) continue;
    s.cells.set(shift.axis === "row" ? k(pos, c) : k(r, pos), cell);
  }
  // What a formula showed stays until its new calculation answers.
  for (const a of anchors) {
    const pos = moved(shift.axis === "row" ? a.row : a.col, shift);
    if (pos === undefined) continue;
    const [row, col] = shift.axis === "row" ? [pos, a.col] : [a.row, pos];
    wb.restoreResult(s, row, col, a.result);
  }
  if (shift.axis === "col") {
    const formats = [...s.colFormats];
    s.colFormats.clear();
    for (const [c, f] of formats) {
      const pos = moved(c, shift);
      if (pos !== undefined) s.colFormats.set(pos, f);
    }
  }
  s.tables = s.tables.flatMap((t) => {
    const rect = movedRect(t.rect, shift);
    return rect ? [{ ...t, rect }] : [];
  });
  for (const sheet of wb.sheets)
    for (const cell of sheet.cells.values())
      if (typeof cell.formula === "string")
        cell.formula = shiftFormula(cell.formula, sheet.name, s.name, shift);
  for (const sheet of wb.sheets) {
    for (const [key, cell] of sheet.cells) {
      if (typeof cell.formula !== "string") continue;
      const [r, c] = rowCol(key);
      void wb.evaluateAnchor(sheet, r, c);
    }
  }
  wb.relayout(s);
}
