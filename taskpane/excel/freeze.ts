// Freeze values / Restore formulas: swap KAISHA formulas for their values, recorded on "KaishaProvenance".

import { sha256Hex } from "../../src/util/sha256";
import { cellAddress, parseAddress, qualify, rangeAddress } from "../state/a1";
import { isoInstantToJstSerial } from "../../src/excel/dates";
import { AddinFormula } from "./addin-formula";
import { isFormulaCell, isKaishaFormula } from "./cell-content";
import { recordRows, recordSheet, type RecordSheetSpec } from "./record-sheet";
import { ExcelApiMissingError, excelApiSupported } from "./requirements";
import { checkRecord, type RefusedRecord } from "./restore-check";
import { runCellWrites } from "./run";
import { writeCells, type WriteCell } from "./safe-values";

const PROVENANCE_SHEET = "KaishaProvenance";
/** @internal Tests read the provenance sheet by its header. */
export const PROVENANCE_HEADER = [
  "address",
  "formula",
  "values_range",
  "frozen_at",
  "source",
  "status",
  "restored_at",
  "values_digest",
] as const;
const COLS = PROVENANCE_HEADER.length;
const PROVENANCE: RecordSheetSpec = {
  name: PROVENANCE_SHEET,
  header: PROVENANCE_HEADER,
  boldHeader: true,
};

export type FreezeScope = "selection" | "sheet";

/**
 * Why a formula was left as a formula: still calculating, a blocked spill, another error, or it
 * calls functions Restore formulas would refuse to write back (`code` names the first).
 */
export type SkipReason = "calculating" | "spill" | "error" | "unrestorable";

interface SkippedCell {
  /** "Sheet1!B2": the formula's own cell. */
  address: string;
  /** the first error its result shows, e.g. "#BUSY!", "#N/A". */
  code: string;
  reason: SkipReason;
}

export interface FreezeResult {
  frozen: number;
  cells: string[];
  /** formulas left as they are (only from freezeFormulas). */
  skipped: SkippedCell[];
  /** provenance records Restore formulas refused to act on (only from restoreFormulas). */
  refused?: RefusedRecord[];
}

/**
 * The error values `Range.values` reports, as text (Microsoft: Excel.ErrorCellValueType lists
 * blocked, busy, calc, connect, div0, external, field, gettingData, notAvailable, name, null, num,
 * python, ref, spill, timeout, value). Freezing one would write an error, or the text "#BUSY!",
 * where a number belongs, and the formula that could still calculate would be gone.
 */
const ERROR_VALUE =
  /^#(NULL!|DIV\/0!|VALUE!|REF!|NAME\?|NUM!|N\/A|GETTING_DATA|SPILL!|CALC!|FIELD!|BUSY!|BLOCKED!|CONNECT!|UNKNOWN!|EXTERNAL!|PYTHON!|TIMEOUT!)$/;

/**
 * The first error in a result, if any, and what it means for freezing.
 * @internal Tests check error detection directly.
 */
export function errorIn(values: unknown[][]): { code: string; reason: SkipReason } | undefined {
  for (const row of values) {
    for (const v of row) {
      if (typeof v !== "string" || !ERROR_VALUE.test(v)) continue;
      const reason: SkipReason =
        v === "#BUSY!" || v === "#GETTING_DATA"
          ? "calculating"
          : v === "#SPILL!"
            ? "spill"
            : "error";
      return { code: v, reason };
    }
  }
  return undefined;
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
 * A one-way digest of a frozen range's values (SHA-256 of their JSON, 32 hex digits): Restore
 * formulas clears a range only while it still holds exactly these values.
 * @internal Tests compute the digest a restore compares.
 */
export function valuesDigest(values: readonly (readonly unknown[])[]): string {
  return sha256Hex(JSON.stringify(values)).slice(0, 32);
}

/**
 * Replaces KAISHA formulas in the selection or the active sheet by their current values (whole spill
 * ranges included) and records address, formula, time and source for each on KaishaProvenance.
 * A formula whose result shows an error or is still calculating (#BUSY!, #GETTING_DATA) anywhere in
 * its spill is left as it is and listed in `skipped`. Needs ExcelApi 1.12 (spill ranges): older
 * hosts get ExcelApiMissingError before anything changes.
 */
export async function freezeFormulas(
  scope: FreezeScope,
  source: string,
  now: Date = new Date(),
): Promise<FreezeResult> {
  // Without the spill range, freezing an anchor would leave its spilled cells to vanish.
  if (!excelApiSupported("1.12")) throw new ExcelApiMissingError("1.12", "freeze");
  return runCellWrites(async (context) => {
    const sheet = context.workbook.worksheets.getActiveWorksheet();
    const area =
      scope === "selection"
        ? context.workbook.getSelectedRange()
        : sheet.getUsedRangeOrNullObject(false);
    sheet.load("name");
    area.load("address,formulas,values");
    await context.sync();
    if (area.isNullObject) return { frozen: 0, cells: [], skipped: [] };
    const origin = rectOf(area.address);
    const anchors: { address: string; formula: string; range: Excel.Range; spill: Excel.Range }[] =
      [];
    area.formulas.forEach((row, r) =>
      row.forEach((formula, c) => {
        // Text that reads "=KAISHA…" (an API string kept as text) is not a formula to freeze.
        if (!isKaishaFormula(formula) || !isFormulaCell(formula, area.values[r]?.[c])) return;
        const address = cellAddress(origin.top + r, origin.left + c);
        const range = sheet.getRange(address);
        const spill = range.getSpillingToRangeOrNullObject();
        range.load("values,numberFormat");
        spill.load("address,values,numberFormat");
        anchors.push({ address, formula, range, spill });
      }),
    );
    if (anchors.length === 0) return { frozen: 0, cells: [], skipped: [] };
    await context.sync();

    // Cells inside another formula's spill range are that formula's output, not formulas of their own.
    const spillRects = anchors.flatMap((a) =>
      a.spill.isNullObject ? [] : [{ anchor: a.address, rect: rectOf(a.spill.address) }],
    );
    const own = anchors.filter((a) => {
      const ref = parseAddress(a.address);
      return !spillRects.some((s) => s.anchor !== a.address && inside(s.rect, ref.row, ref.col));
    });
    const skipped: SkippedCell[] = [];
    const ready = own.filter((a) => {
      const bad = errorIn(a.spill.isNullObject ? a.range.values : a.spill.values);
      if (bad) skipped.push({ address: qualify(sheet.name, a.address), ...bad });
      // What is frozen must be restorable: Restore formulas writes back only what it can check.
      const restorable = AddinFormula.restored(a.formula);
      if (!bad && !(restorable instanceof AddinFormula)) {
        skipped.push({
          address: qualify(sheet.name, a.address),
          code: restorable.refused,
          reason: "unrestorable",
        });
        return false;
      }
      return !bad;
    });
    anchors.splice(0, anchors.length, ...ready);
    if (anchors.length === 0) return { frozen: 0, cells: [], skipped };

    const prov = await recordSheet(context, PROVENANCE, true);
    if (!prov) return { frozen: 0, cells: [], skipped };
    const existing = await recordRows(prov, context);
    const next = Math.max(1, existing.length);
    const stamp = isoInstantToJstSerial(now.toISOString()) ?? "";
    const records: unknown[][] = [];
    // Every result as checked above, taken before the first write: freezing one formula changes
    // the inputs of others (a PEERS spill feeds FINANCIAL cells), which must not freeze mid-calculation.
    const results = anchors.map((a) => {
      const target = a.spill.isNullObject ? a.range : a.spill;
      return { target, values: target.values, formats: target.numberFormat };
    });
    for (const [i, a] of anchors.entries()) {
      const result = results[i];
      if (!result) continue;
      // A function's text result stays text ("=…", "-", "+5%"), numbers stay numbers in their format.
      writeCells(result.target, result.values as WriteCell[][], result.formats as string[][]);
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
        valuesDigest(result.values),
      ]);
    }
    // The formula column is text like every other: "=KAISHA…" is kept, not evaluated.
    writeCells(
      prov.getRange(rangeAddress(next, 0, records.length, COLS)),
      records as WriteCell[][],
      records.map(() => [
        "@",
        "@",
        "@",
        "yyyy-mm-dd hh:mm:ss",
        "@",
        "@",
        "yyyy-mm-dd hh:mm:ss",
        "@",
      ]),
    );
    await context.sync();
    return {
      frozen: anchors.length,
      cells: anchors.map((a) => qualify(sheet.name, a.address)),
      skipped,
    };
  });
}

/**
 * Restores the frozen formulas recorded for cells in the selection or the active sheet: clears the
 * frozen values of the spill range, re-enters the formula, and marks the record restored. The sheet
 * is the workbook's, editable by anyone who sent it: every record in scope is checked first
 * (restore-check.ts: a KAISHA formula with nothing else smuggled in, its values range on the same
 * sheet, anchored at its cell, holding no formula and exactly the values freeze wrote there), and
 * the rest are left alone and listed in `refused`.
 */
export async function restoreFormulas(
  scope: FreezeScope,
  now: Date = new Date(),
): Promise<FreezeResult> {
  return runCellWrites(async (context) => {
    const prov = await recordSheet(context, PROVENANCE, false);
    if (!prov) return { frozen: 0, cells: [], skipped: [], refused: [] };
    const active = context.workbook.worksheets.getActiveWorksheet();
    active.load("name");
    const selected = scope === "selection" ? context.workbook.getSelectedRange() : undefined;
    selected?.load("address");
    await context.sync();
    const rows = await recordRows(prov, context);
    const rect = selected ? rectOf(selected.address) : undefined;
    const sheet = context.workbook.worksheets.getItem(active.name);
    const refused: RefusedRecord[] = [];
    const candidates: {
      row: number;
      address: string;
      formula: AddinFormula;
      area: Excel.Range;
      cell: Excel.Range;
      range: string;
    }[] = [];
    rows.forEach((row, i) => {
      if (i === 0 || row[5] !== "frozen") return;
      const verdict = checkRecord(row, i + 1, active.name);
      if (verdict === undefined) return; // another sheet's record: not in scope
      if ("reason" in verdict) {
        refused.push(verdict);
        return;
      }
      if (rect && !inside(rect, verdict.anchor.row, verdict.anchor.col)) return;
      const area = sheet.getRange(verdict.valuesRange);
      const cell = sheet.getRange(cellAddress(verdict.anchor.row, verdict.anchor.col));
      area.load("formulas,values");
      cell.load("numberFormat");
      candidates.push({
        row: i,
        address: verdict.address,
        formula: verdict.formula,
        area,
        cell,
        range: verdict.valuesRange,
      });
    });
    if (candidates.length > 0) await context.sync();
    const restored: string[] = [];
    const stamp = isoInstantToJstSerial(now.toISOString()) ?? "";
    for (const c of candidates) {
      // Frozen values are values: a record whose range holds formulas would clear someone's work.
      const values = c.area.values;
      const formulaInside = c.area.formulas.some((row, r) =>
        row.some((f, col) => isFormulaCell(f, values[r]?.[col])),
      );
      // Only the values freeze wrote, as it wrote them (values_digest): a crafted record cannot
      // stretch its range over the analyst's cells, and a range edited since is left alone.
      if (formulaInside || rows[c.row]?.[7] !== valuesDigest(values)) {
        refused.push({ row: c.row + 1, address: c.address, reason: "range", detail: c.range });
        continue;
      }
      c.area.clear("Contents");
      // Its own format back (a text result frozen as "@" would keep the formula as text: General).
      writeCells(c.cell, [[c.formula]], c.cell.numberFormat as string[][]);
      writeCells(
        prov.getRange(rangeAddress(c.row, 5, 1, 2)),
        [["restored", stamp]],
        [["@", "yyyy-mm-dd hh:mm:ss"]],
      );
      restored.push(c.address);
    }
    await context.sync();
    refused.sort((a, b) => a.row - b.row);
    return { frozen: restored.length, cells: restored, skipped: [], refused };
  });
}
