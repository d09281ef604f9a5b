// The task pane's single entry to Excel.run, and the check that an Excel host (or stand-in) is present.

/** True when the Excel JavaScript API is available (Excel, or the e2e page's stand-in). */
export function isExcelAvailable(): boolean {
  return typeof Excel !== "undefined" && typeof Excel.run === "function";
}

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
