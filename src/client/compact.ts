// Compact stored form of an answer: arrays of same-shaped rows kept as columns (names once), no text.

const COLUMNS = "$kaishaColumns";

interface Columnar {
  [COLUMNS]: string[];
  rows: unknown[][];
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function sameKeys(rows: readonly unknown[]): string[] | undefined {
  const first = rows[0];
  if (!isPlainRecord(first)) return undefined;
  const keys = Object.keys(first);
  for (const row of rows) {
    if (!isPlainRecord(row)) return undefined;
    // Key by key in order, without an array of keys per row (a stored answer has ~150 rows).
    let i = 0;
    for (const k in row) {
      if (!Object.prototype.hasOwnProperty.call(row, k) || k !== keys[i]) return undefined;
      i += 1;
    }
    if (i !== keys.length) return undefined;
  }
  return keys;
}

/**
 * The form written to the persistent tier: every array of two or more rows with the same keys in
 * the same order (financial periods, daily prices, valuation points) becomes column names once plus
 * value arrays. A 30-year quarterly /financials answer repeats ~110 field names on each of ~120 rows;
 * stored as records they are a third of its size. Lossless: `expand(compact(x))` deep-equals `x`.
 * Structured clone stores the result as it is (no JSON text, no base64).
 *
 * @example expand(compact({ p: [{ a: 1 }, { a: 2 }] })) // { p: [{ a: 1 }, { a: 2 }] }
 */
export function compact(value: unknown): unknown {
  if (Array.isArray(value)) {
    const keys = value.length >= 2 ? sameKeys(value) : undefined;
    if (keys !== undefined) {
      const rows = value.map((row) =>
        keys.map((k) => compact((row as Record<string, unknown>)[k])),
      );
      const out: Columnar = { [COLUMNS]: keys, rows };
      return out;
    }
    return value.map(compact);
  }
  if (isPlainRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value)) out[k] = compact(value[k]);
    return out;
  }
  return value;
}

/**
 * Reverses `compact`, deep-frozen like every answer the client hands out. Each columnar array's
 * rows are copies of one template object with its fields in order (a spread of a fast object is a
 * fast object of the same shape), filled in place: rows assembled property by property (about 110
 * fields) end up as slow dictionary objects in V8 (bench: reopened models used 2x the heap and
 * CPU), and building JSON text to parse instead made most of a reopen's garbage.
 */
export function expand(value: unknown): unknown {
  return freeze(rebuild(value));
}

function rebuild(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rebuild);
  if (!isPlainRecord(value)) return value;
  const keys = value[COLUMNS];
  const rows = value["rows"];
  if (Array.isArray(keys) && Array.isArray(rows))
    return rowsOf(keys as string[], rows as unknown[][]);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) out[k] = rebuild(value[k]);
  return out;
}

function rowsOf(keys: readonly string[], rows: readonly unknown[][]): Record<string, unknown>[] {
  // One object literal with these fields in this order, parsed (so it is a fast object).
  const template = JSON.parse(
    `{${keys.map((k) => `${JSON.stringify(k)}:null`).join(",")}}`,
  ) as Record<string, unknown>;
  const out: Record<string, unknown>[] = new Array(rows.length);
  for (let r = 0; r < rows.length; r += 1) {
    const cells = rows[r] as unknown[];
    const row = { ...template };
    for (let i = 0; i < keys.length; i += 1) {
      const cell = cells[i];
      // compact keeps an absent field as undefined: drop it, as JSON text would have.
      if (cell === undefined) delete row[keys[i] as string];
      else row[keys[i] as string] = rebuild(cell);
    }
    out[r] = row;
  }
  return out;
}

function freeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    const record = value as Record<string, unknown>;
    for (const k in record) freeze(record[k]);
  }
  return value;
}
