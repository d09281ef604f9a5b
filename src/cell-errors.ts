// The last error each KAISHA cell returned, kept in the shared runtime so the task pane can show it.

/**
 * Excel does not hand the task pane a custom function's error message (valuesAsJson carries only the
 * error type), so the functions record what they threw per cell address (`@requiresAddress`) and the
 * Problems list reads it here. No Office globals: both bundles share this one module instance.
 */
export interface RecordedCellError {
  /** the error value the cell shows. */
  code: "#N/A" | "#VALUE!";
  /** the message the cell carries, in the language the function answered in. */
  message: string;
  /** when it was recorded (ms since epoch). */
  at: number;
}

/** Enough for every formula of a large workbook; the oldest entries go first beyond it. */
export const MAX_CELL_ERRORS = 5000;

const errors = new Map<string, RecordedCellError>();

/**
 * One key per cell however the address is written: "Sheet1!B2", "'Sheet1'!$B$2", "sheet1!b2" and
 * "'My ''Q'' sheet'!B2:C3" (first cell) all reduce to the same form. Excel sheet names are
 * case-insensitive. Undefined when the text is not a cell address.
 *
 * @example cellKey("'Sheet1'!$B$2") // "sheet1!B2"
 */
export function cellKey(address: string): string | undefined {
  const bang = address.lastIndexOf("!");
  if (bang <= 0) return undefined;
  const rawSheet = address.slice(0, bang).trim();
  const sheet = /^'.*'$/.test(rawSheet) ? rawSheet.slice(1, -1).replace(/''/g, "'") : rawSheet;
  const cell = address
    .slice(bang + 1)
    .split(":")[0]
    ?.replace(/\$/g, "")
    .trim()
    .toUpperCase();
  if (!sheet || !cell || !/^[A-Z]{1,3}[1-9]\d*$/.test(cell)) return undefined;
  return `${sheet.toLowerCase()}!${cell}`;
}

/**
 * Records the error a cell now shows (a later record for the same cell replaces it).
 *
 * @example recordCellError("Sheet1!A70", "#N/A", "Not found (company 9999): check the code or ID")
 */
export function recordCellError(
  address: string,
  code: RecordedCellError["code"],
  message: string,
  at: number = Date.now(),
): void {
  const key = cellKey(address);
  if (key === undefined) return;
  // Delete first so a re-recorded cell moves to the newest end of the insertion order.
  errors.delete(key);
  errors.set(key, { code, message, at });
  while (errors.size > MAX_CELL_ERRORS) {
    const oldest = errors.keys().next().value;
    if (oldest === undefined) break;
    errors.delete(oldest);
  }
}

/** The cell answered with a value: its earlier error no longer applies. */
export function clearCellError(address: string): void {
  // Every answered cell calls this: with nothing recorded there is nothing to parse the address for.
  if (errors.size === 0) return;
  const key = cellKey(address);
  if (key !== undefined) errors.delete(key);
}

/**
 * The last error recorded for the cell, if it has not answered with a value since.
 *
 * @example getCellError("'Sheet1'!$A$70")?.message // the message recorded for Sheet1!A70
 */
export function getCellError(address: string): RecordedCellError | undefined {
  const key = cellKey(address);
  return key === undefined ? undefined : errors.get(key);
}

/** A snapshot of every recorded error, keyed by `cellKey`, oldest first. */
export function cellErrors(): ReadonlyMap<string, RecordedCellError> {
  return new Map(errors);
}

/** Tests: forget everything. */
export function resetCellErrors(): void {
  errors.clear();
}
