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

/**
 * Enough for every formula of a large workbook; the oldest entries go first beyond it.
 * @internal Tests fill the registry to its bound.
 */
export const MAX_CELL_ERRORS = 5000;

const errors = new Map<string, RecordedCellError>();

/**
 * One key per cell however the address is written: "Sheet1!B2", "'Sheet1'!$B$2", "sheet1!b2" and
 * "'My ''Q'' sheet'!B2:C3" (first cell) all reduce to the same form. Excel sheet names are
 * case-insensitive. Undefined when the text is not a cell address.
 *
 * @example cellKey("'Sheet1'!$B$2") // "sheet1!B2"
 * The open (taskpane/open/start.ts) keys its cells by it, as Excel's invocation writes addresses.
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
 * Hashes of the recorded keys' cell references (with how many keys share each): every answered
 * cell asks whether it had an error, and nearly all did not; a hash of its cell reference alone
 * ("B2" of "'Sheet 1'!$B$2"), computed without building strings, answers that exactly (a cell
 * whose hash is not here has no record), so the full `cellKey` parse runs only for the few that
 * may. The sheet name is not hashed: it is most of the address, often Japanese, and the same
 * reference on two sheets only costs the second one that parse (bench: a twentieth of a warm
 * recalculation went to hashing whole addresses).
 */
const recordedHashes = new Map<number, number>();

/**
 * FNV-1a's step kept to 30 bits: a small integer in every V8 (31-bit where pointers are
 * compressed, as in Chromium), so the hash and the map's key never become a heap number per cell
 * (the full unsigned 32 bits were one). A filter only: a match is confirmed by `cellKey`.
 */
function hashAdd(h: number, code: number): number {
  return Math.imul(h ^ code, 16777619) & 0x3fffffff;
}

const FNV_OFFSET = 2166136261;

/** Not a reference this hash can read exactly (spaces, odd characters): the caller parses. */
const UNSURE = -1;

/**
 * The hash of the cell reference from `from` to the end or a colon, `$` left out and letters in
 * upper case: what `cellKey` keeps of it. UNSURE for anything `cellKey` might read differently.
 */
function referenceHash(text: string, from: number): number {
  let h = FNV_OFFSET;
  let letters = 0;
  let digits = 0;
  for (let i = from; i < text.length; i += 1) {
    let c = text.charCodeAt(i);
    if (c === COLON) break;
    if (c === DOLLAR) continue;
    if (c >= LOWER_A && c <= LOWER_Z) c -= 32;
    if (c >= UPPER_A && c <= UPPER_Z) {
      if (digits > 0) return UNSURE;
      letters += 1;
    } else if (c >= ZERO && c <= NINE) {
      if (letters === 0 || (digits === 0 && c === ZERO)) return UNSURE;
      digits += 1;
    } else return UNSURE;
    h = hashAdd(h, c);
  }
  if (letters === 0 || letters > 3 || digits === 0) return UNSURE;
  return h;
}

/** A recorded key's hash: its reference follows the last "!" (`cellKey`'s form). */
function keyHash(key: string): number {
  return referenceHash(key, key.lastIndexOf("!") + 1);
}

/** An address's hash, equal to its key's whenever it is not UNSURE. */
function addressHash(address: string): number {
  const bang = address.lastIndexOf("!");
  return bang <= 0 ? UNSURE : referenceHash(address, bang + 1);
}

const COLON = 58;
const DOLLAR = 36;
const UPPER_A = 65;
const UPPER_Z = 90;
const LOWER_A = 97;
const LOWER_Z = 122;
const ZERO = 48;
const NINE = 57;

function remember(key: string, error: RecordedCellError): void {
  if (!errors.has(key)) {
    const h = keyHash(key);
    recordedHashes.set(h, (recordedHashes.get(h) ?? 0) + 1);
  }
  errors.set(key, error);
}

function forget(key: string): void {
  if (!errors.delete(key)) return;
  const h = keyHash(key);
  const n = (recordedHashes.get(h) ?? 1) - 1;
  if (n <= 0) recordedHashes.delete(h);
  else recordedHashes.set(h, n);
}

/** KAISHA cells answered by this runtime, each call counted (`cellsAnswered`). */
let answered = 0;

/**
 * How many times a KAISHA cell answered (a value or an error) in this runtime: the open tells a
 * host that called every cell at load (the web) from one that called none (Windows, Mac:
 * taskpane/open/morning-open.ts).
 */
export function cellsAnswered(): number {
  return answered;
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
  answered += 1;
  const key = cellKey(address);
  if (key === undefined) return;
  // Delete first so a re-recorded cell moves to the newest end of the insertion order.
  forget(key);
  remember(key, { code, message, at });
  while (errors.size > MAX_CELL_ERRORS) {
    const oldest = errors.keys().next().value;
    if (oldest === undefined) break;
    forget(oldest);
  }
}

/**
 * True while Excel shows the formula's value preview (the cell is still being typed):
 * CustomFunctionsRuntime 1.5's `isInValuePreview`, typed as string in @types, a boolean in practice.
 */
export function inPreview(
  invocation: { isInValuePreview?: boolean | string } | undefined,
): boolean {
  const flag = invocation?.isInValuePreview;
  return flag === true || flag === "true";
}

/**
 * A cell Excel called (`@requiresAddress`) answered with a value at once: counted, and its earlier
 * error no longer applies. Not for a value preview: its answer is not what the cell keeps.
 */
export function answeredCell(invocation: {
  address?: string;
  isInValuePreview?: boolean | string;
}): void {
  const { address } = invocation;
  if (address && !inPreview(invocation)) clearCellError(address);
}

/** The cell answered with a value: its earlier error no longer applies. */
export function clearCellError(address: string): void {
  answered += 1;
  // Every answered cell calls this: with nothing recorded there is nothing to parse the address for.
  if (errors.size === 0) return;
  const h = addressHash(address);
  if (h !== UNSURE && !recordedHashes.has(h)) return;
  const key = cellKey(address);
  if (key !== undefined) forget(key);
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

/**
 * A snapshot of every recorded error, keyed by `cellKey`, oldest first.
 * @internal Tests count the registry's entries; the product reads cells by address (getCellError).
 */
export function cellErrors(): ReadonlyMap<string, RecordedCellError> {
  return new Map(errors);
}

/**
 * Tests: forget everything.
 * @internal Tests start each case with an empty registry.
 */
export function resetCellErrors(): void {
  errors.clear();
  recordedHashes.clear();
}
