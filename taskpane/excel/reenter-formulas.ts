// Re-enters KAISHA formulas so Excel evaluates them again, never over what the analyst typed meanwhile.

import { isFormulaCell, isKaishaFormula, TEXT_FORMAT } from "./cell-content";
import { runExcel } from "./run";

/** Cells per Excel.run batch (office-js: very large batches fail on the web, ~5 MB a request). */
const BATCH = 500;

/** A cell to re-enter: with `formula`, only while it holds exactly that formula; without, any KAISHA formula. */
export interface ReenterTarget {
  sheet: string;
  /** the cell's address without its sheet, e.g. "B3". */
  address: string;
  formula?: string;
}

/** "'Sheet 1'!B2" -> ["Sheet 1", "B2"]; undefined for an address without a sheet. */
export function splitAddress(address: string): [string, string] | undefined {
  const bang = address.lastIndexOf("!");
  if (bang <= 0) return undefined;
  let sheet = address.slice(0, bang);
  if (sheet.startsWith("'") && sheet.endsWith("'")) sheet = sheet.slice(1, -1).replace(/''/g, "'");
  return [sheet, address.slice(bang + 1)];
}

/**
 * Re-enters the formulas of these cells, which makes Excel evaluate a non-volatile custom function
 * again (no force-recalculation API exists for custom functions: office-js#6575). A cell is
 * re-entered only while it still holds the formula meant (a cell the analyst typed over, or whose
 * formula they edited, is left alone: their own edit already made Excel evaluate it), and a cell
 * the analyst changed between the read and the write gets their content back at once. Returns how
 * many cells were really re-entered.
 * @example await reenterFormulas([{ sheet: "Model", address: "C2", formula: '=KAISHA.PRICE(7203)' }]) // 1
 */
export async function reenterFormulas(targets: readonly ReenterTarget[]): Promise<number> {
  let done = 0;
  // One Excel.run per batch, one after the other (200+ concurrent calls fail: office-js#2874).
  for (let start = 0; start < targets.length; start += BATCH)
    done += await reenterBatch(targets.slice(start, start + BATCH));
  return done;
}

/**
 * Re-enters the KAISHA formulas of the cells at these addresses (as Excel's invocation gives them,
 * with their sheet), e.g. after a background revalidation changed their answers.
 * @example await recalculateAddresses(["'Sheet 1'!B2"]) // 1
 */
export async function recalculateAddresses(addresses: readonly string[]): Promise<number> {
  return reenterFormulas(
    addresses
      .map(splitAddress)
      .filter((c): c is [string, string] => c !== undefined)
      .map(([sheet, address]) => ({ sheet, address })),
  );
}

interface Planned {
  range: Excel.Range;
  /** a second proxy on the same cell, loaded just before the write (see reenterBatch). */
  probe: Excel.Range;
  formula: string;
}

async function reenterBatch(batch: readonly ReenterTarget[]): Promise<number> {
  return runExcel(async (context) => {
    const cellOf = (t: ReenterTarget) =>
      context.workbook.worksheets.getItem(t.sheet).getRange(t.address);
    // Batch 1: what each cell holds now. `values` tells a formula from text that looks like one.
    const read = batch.map((target) => ({
      target,
      range: cellOf(target).load("formulas,values,numberFormat"),
    }));
    await context.sync();

    // Batch 2: the writes. Commands in a batch run in order at sync (Office.js: "Excel JavaScript
    // object model", load and sync), so a probe loaded on a separate proxy just before a write
    // captures what the cell held at that moment, even if the analyst typed after batch 1 (Excel
    // holds API batches while a cell is being edited and runs them after the edit is committed).
    const planned: Planned[] = [];
    for (const { target, range } of read) {
      const formula = range.formulas[0]?.[0];
      if (!isKaishaFormula(formula) || !isFormulaCell(formula, range.values[0]?.[0])) continue;
      if (target.formula !== undefined && formula !== target.formula) continue;
      const probe = cellOf(target).load("formulas,values,numberFormat");
      writeFormula(range, formula, range.numberFormat[0]?.[0]);
      planned.push({ range, probe, formula });
    }
    if (planned.length === 0) return 0;
    await context.sync();

    // Batch 3: a cell whose probe shows anything but the formula re-entered was changed by the
    // analyst between the batches: the write went over their content, so it goes back at once.
    const overwritten = planned.filter(({ probe, formula }) => {
      const held = probe.formulas[0]?.[0];
      return !(held === formula && isFormulaCell(held, probe.values[0]?.[0]));
    });
    for (const { range, probe } of overwritten) restoreCell(range, probe);
    if (overwritten.length > 0) await context.sync();
    return planned.length - overwritten.length;
  });
}

/**
 * Writes back what a probe read, exactly: a formula as a formula, a number or boolean as itself,
 * text as text, each under the number format the cell had (the write of a formula may change it).
 */
function restoreCell(range: Excel.Range, probe: Excel.Range): void {
  const held = probe.formulas[0]?.[0];
  const value = probe.values[0]?.[0];
  const format = probe.numberFormat[0]?.[0] ?? "General";
  if (isFormulaCell(held, value)) {
    writeFormula(range, held, format);
    range.numberFormat = [[format]];
    return;
  }
  range.numberFormat = [[format]];
  range.values = [[textSafe(value, format)]];
}

/**
 * Writes a formula into a cell of this number format. A Text ("@") cell keeps whatever is written
 * as text (Range.values: a Text cell keeps "=…"), yet holds a formula entered before the format was
 * set: the formula goes in under General and the Text format after it, so it stays a formula.
 */
function writeFormula(range: Excel.Range, formula: string, format: unknown): void {
  if (format !== TEXT_FORMAT) {
    range.formulas = [[formula]];
    return;
  }
  range.numberFormat = [["General"]];
  range.formulas = [[formula]];
  range.numberFormat = [[TEXT_FORMAT]];
}

/**
 * Text stays text: a Text ("@") cell keeps any string as written; elsewhere Range.values reads a
 * string as the analyst's typing would ("=…", "+…", "-…" become formulas, "0012" a number), and
 * Excel's documented escape for an entry that must stay text is a leading apostrophe (Microsoft
 * Support, "Format numbers as text"), which Excel does not keep in the value (office-js#6687).
 */
function textSafe(value: unknown, format: string): unknown {
  if (typeof value !== "string" || value === "" || format === TEXT_FORMAT) return value;
  return `'${value}`;
}
