// The task pane's single entry to Excel.run (cell writes one run at a time), and the check that an Excel host (or stand-in) is present.

/** True when the Excel JavaScript API is available (Excel, or the e2e page's stand-in). */
export function isExcelAvailable(): boolean {
  return typeof Excel !== "undefined" && typeof Excel.run === "function";
}

/** @internal Tests check the error's class and text. */
export class ExcelUnavailableError extends Error {
  override readonly name = "ExcelUnavailableError";
  constructor() {
    super("Excel is not available");
  }
}

/** Runs a batch against the workbook; every module in taskpane/excel goes through here. */
export async function runExcel<T>(
  batch: (context: Excel.RequestContext) => Promise<T>,
): Promise<T> {
  if (!isExcelAvailable()) throw new ExcelUnavailableError();
  return Excel.run(batch);
}

/** The last cell-writing run queued: the next one starts after it settles. */
let cellWrites: Promise<unknown> = Promise.resolve();

/**
 * Runs a batch that reads cells and writes over what it read (guarded-write.ts) after every such
 * run queued before it has finished. Each guards against the analyst's typing, but two of the
 * pane's own interleaved (the builder's Update and a background revalidation re-entering the same
 * cell) could not see each other: one's restore of typed content landed over the other's write,
 * which then reported a formula the cell no longer held. Excel interleaves separate Excel.run
 * calls at their syncs, so the pane orders its own.
 */
export function runCellWrites<T>(batch: (context: Excel.RequestContext) => Promise<T>): Promise<T> {
  const run = cellWrites.then(() => runExcel(batch));
  cellWrites = run.catch(() => undefined);
  return run;
}
