// Freeze values / Restore formulas: swap KAISHA formulas for their values, recorded on "KaishaProvenance".

import { cellAddress, parseAddress, qualify, rangeAddress } from "../state/a1";
import { dateTimeSerialJst } from "../state/units";
import { isKaishaFormula } from "./formulas";
import { recordRows, recordSheet, type RecordSheetSpec } from "./record-sheet";
import { runExcel } from "./run";

export const PROVENANCE_SHEET = "KaishaProvenance";
export const PROVENANCE_HEADER = [
  "address",
  "formula",
  "values_range",
  "frozen_at",
  "source",
  "status",
  "restored_at",
] as const;
const COLS = PROVENANCE_HEADER.length;
const PROVENANCE: RecordSheetSpec = {
  name: PROVENANCE_SHEET,
  header: PROVENANCE_HEADER,
  boldHeader: true,
};

export type FreezeScope = "selection" | "sheet";

export interface FreezeResult {
  frozen: number;
  cells: string[];
}

interface Rect {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

function rectOf(address: string): Rect {
  const [a, b] = (address.split("!").pop() ?? address).split(":");
  const start = parseAddress(a ?? "A1");
  const end = b ? parseAddress(b) : start;
  return { top: start.row, left: start.col, bottom: end.row, right: end.col };
}

function inside(rect: Rect, row: number, col: number): boolean {
  return row >= rect.top && row <= rect.bottom && col >= rect.left && col <= rect.right;
}

/**
 * Replaces KAISHA formulas in the selection or the active sheet by their current values (whole spill
 * ranges included) and records address, formula, time and source for each on KaishaProvenance.
 */
export async function freezeFormulas(
  scope: FreezeScope,
  source: string,
  now: Date = new Date(),
): Promise<FreezeResult> {
  return runExcel(async (context) => {
    const sheet = context.workbook.worksheets.getActiveWorksheet();
    const area =
      scope === "selection"
        ? context.workbook.getSelectedRange()
        : sheet.getUsedRangeOrNullObject(false);
    sheet.load("name");
    area.load("address,formulas");
    await context.sync();
    if (area.isNullObject) return { frozen: 0, cells: [] };
    const origin = rectOf(area.address);
    const anchors: { address: string; formula: string; range: Excel.Range; spill: Excel.Range }[] =
      [];
    area.formulas.forEach((row, r) =>
      row.forEach((formula, c) => {
        if (!isKaishaFormula(formula)) return;
        const address = cellAddress(origin.top + r, origin.left + c);
        const range = sheet.getRange(address);
        const spill = range.getSpillingToRangeOrNullObject();
        range.load("values");
        spill.load("address,values");
        anchors.push({ address, formula, range, spill });
      }),
    );
    if (anchors.length === 0) return { frozen: 0, cells: [] };
    await context.sync();

    // Cells inside another formula's spill range are that formula's output, not formulas of their own.
    const spillRects = anchors.flatMap((a) =>
      a.spill.isNullObject ? [] : [{ anchor: a.address, rect: rectOf(a.spill.address) }],
    );
    const own = anchors.filter((a) => {
      const ref = parseAddress(a.address);
      return !spillRects.some((s) => s.anchor !== a.address && inside(s.rect, ref.row, ref.col));
    });
    anchors.splice(0, anchors.length, ...own);

    const prov = await recordSheet(context, PROVENANCE, true);
    if (!prov) return { frozen: 0, cells: [] };
    const existing = await recordRows(prov, context);
    const next = Math.max(1, existing.length);
    const stamp = dateTimeSerialJst(now.toISOString()) ?? "";
    const records: unknown[][] = [];
    for (const a of anchors) {
      const target = a.spill.isNullObject ? a.range : a.spill;
      const values = target.values;
      target.values = values;
      const valuesRange = a.spill.isNullObject
        ? a.address
        : (a.spill.address.split("!").pop() ?? a.address);
      records.push([
        qualify(sheet.name, a.address),
        a.formula,
        valuesRange,
        stamp,
        source,
        "frozen",
        "",
      ]);
    }
    const out = prov.getRange(rangeAddress(next, 0, records.length, COLS));
    // Formats first: the formula column is text, so "=KAISHA…" is kept as text, not evaluated.
    out.numberFormat = records.map(() => [
      "@",
      "@",
      "@",
      "yyyy-mm-dd hh:mm:ss",
      "@",
      "@",
      "yyyy-mm-dd hh:mm:ss",
    ]);
    out.values = records as (string | number)[][];
    await context.sync();
    return { frozen: anchors.length, cells: anchors.map((a) => qualify(sheet.name, a.address)) };
  });
}

/**
 * Restores the frozen formulas recorded for cells in the selection or the active sheet: clears the
 * frozen values of the spill range, re-enters the formula, and marks the record restored.
 */
export async function restoreFormulas(
  scope: FreezeScope,
  now: Date = new Date(),
): Promise<FreezeResult> {
  return runExcel(async (context) => {
    const prov = await recordSheet(context, PROVENANCE, false);
    if (!prov) return { frozen: 0, cells: [] };
    const active = context.workbook.worksheets.getActiveWorksheet();
    active.load("name");
    const selected = scope === "selection" ? context.workbook.getSelectedRange() : undefined;
    selected?.load("address");
    await context.sync();
    const rows = await recordRows(prov, context);
    const rect = selected ? rectOf(selected.address) : undefined;
    const restored: string[] = [];
    const stamp = dateTimeSerialJst(now.toISOString()) ?? "";
    rows.forEach((row, i) => {
      if (
        i === 0 ||
        row[5] !== "frozen" ||
        typeof row[0] !== "string" ||
        typeof row[1] !== "string"
      )
        return;
      const ref = parseAddress(row[0]);
      if (ref.sheet !== active.name) return;
      if (rect && !inside(rect, ref.row, ref.col)) return;
      const sheet = context.workbook.worksheets.getItem(active.name);
      const valuesRange =
        typeof row[2] === "string" && row[2] !== "" ? row[2] : cellAddress(ref.row, ref.col);
      sheet.getRange(valuesRange).clear("Contents");
      sheet.getRange(cellAddress(ref.row, ref.col)).formulas = [[row[1]]];
      const status = prov.getRange(rangeAddress(i, 5, 1, 2));
      status.values = [["restored", stamp]];
      restored.push(row[0]);
    });
    await context.sync();
    return { frozen: restored.length, cells: restored };
  });
}
