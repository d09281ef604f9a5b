// Re-enters KAISHA formulas so Excel evaluates them again, never over what the analyst typed meanwhile.

import { isFormulaCell, isKaishaFormula } from "./cell-content";
import { CELL_CONTENT, contentOf, guardedWrite, settleWrites } from "./guarded-write";
import { runCellWrites } from "./run";
import { splitAddress } from "./cell-address";

/** Cells per Excel.run batch (office-js: very large batches fail on the web, ~5 MB a request). */
const BATCH = 500;

/** A cell to re-enter: with `formula`, only while it holds exactly that formula; without, any KAISHA formula. */
export interface ReenterTarget {
  sheet: string;
  /** the cell's address without its sheet, e.g. "B3". */
  address: string;
  formula?: string;
}

/**
 * Re-enters the formulas of these cells, which makes Excel evaluate a non-volatile custom function
 * again (no force-recalculation API exists for custom functions: office-js#6575). A cell is
 * re-entered only while it still holds the formula meant (a cell the analyst typed over, or whose
 * formula they edited, is left alone: their own edit already made Excel evaluate it), and a cell
 * the analyst changed between the read and the write gets their content back at once
 * (guarded-write.ts). Returns how many cells were really re-entered.
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

async function reenterBatch(batch: readonly ReenterTarget[]): Promise<number> {
  return runCellWrites(async (context) => {
    const cellOf = (t: ReenterTarget) =>
      context.workbook.worksheets.getItem(t.sheet).getRange(t.address);
    // Batch 1: what each cell holds now. `values` tells a formula from text that looks like one.
    const read = batch.map((target) => ({ target, range: cellOf(target).load(CELL_CONTENT) }));
    await context.sync();

    // Batch 2: the writes, each over the content just read and no other (guardedWrite).
    const writes = read.flatMap(({ target, range }) => {
      const content = contentOf(range);
      const formula = content.formula;
      if (!isKaishaFormula(formula) || !isFormulaCell(formula, content.value)) return [];
      if (target.formula !== undefined && formula !== target.formula) return [];
      return [guardedWrite(range, cellOf(target), formula, content)];
    });
    if (writes.length === 0) return 0;
    await context.sync();

    // Batch 3: the analyst's content back where they typed between the batches, at once (and
    // again, newest entry, where they typed once more before it ran).
    const restored = (await settleWrites(context, writes)).filter((c) => c !== undefined).length;
    return writes.length - restored;
  });
}
