// Recalculates the KAISHA cells whose answers a background revalidation changed (by their addresses).

import { runExcel } from "./run";

/** Cells per Excel.run batch (office-js: very large batches fail on the web, ~5 MB a request). */
const BATCH = 500;

/** "'Sheet 1'!B2" -> ["Sheet 1", "B2"]; undefined for an address without a sheet. */
export function splitAddress(address: string): [string, string] | undefined {
  const bang = address.lastIndexOf("!");
  if (bang <= 0) return undefined;
  let sheet = address.slice(0, bang);
  if (sheet.startsWith("'") && sheet.endsWith("'")) sheet = sheet.slice(1, -1).replace(/''/g, "'");
  return [sheet, address.slice(bang + 1)];
}

/**
 * Re-enters the formulas of these cells (what makes Excel evaluate a non-volatile custom function
 * again, as `recalculateCells` in formulas.ts does): only cells still holding a KAISHA formula, so
 * a cell the user has since overwritten is left alone. Returns how many were recalculated.
 */
export async function recalculateAddresses(addresses: readonly string[]): Promise<number> {
  const cells = addresses.map(splitAddress).filter((c): c is [string, string] => c !== undefined);
  let done = 0;
  // One Excel.run per batch, one after the other (200+ concurrent calls fail: office-js#2874).
  for (let start = 0; start < cells.length; start += BATCH)
    done += await recalculateBatch(cells.slice(start, start + BATCH));
  return done;
}

async function recalculateBatch(batch: readonly [string, string][]): Promise<number> {
  return runExcel(async (context) => {
    const ranges = batch.map(([sheet, cell]) => {
      const range = context.workbook.worksheets.getItem(sheet).getRange(cell);
      range.load("formulas");
      return range;
    });
    await context.sync();
    let n = 0;
    for (const range of ranges) {
      const formula = range.formulas[0]?.[0];
      if (typeof formula !== "string" || !/KAISHA\./i.test(formula)) continue;
      range.formulas = [[formula]];
      n += 1;
    }
    await context.sync();
    return n;
  });
}
