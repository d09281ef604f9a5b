// Compact stored form of an answer: arrays of same-shaped rows kept as columns (names once), no text.

import { deepFreeze } from "./deep-freeze";

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
 * Reverses `compact`, deep-frozen like every answer the client hands out. Built as JSON text and
 * parsed once: rows assembled property by property (about 110 fields) end up as slow dictionary
 * objects in V8, JSON.parse builds them fast (bench: reopened models used 2x the heap and CPU);
 * copies of one parsed template row filled in place stay fast but take 3x the memory of parsed
 * rows (measured: 640 kB against 220 kB for a 112-row quarterly answer), so JSON it is.
 */
export function expand(value: unknown): unknown {
  const out: string[] = [];
  writeJson(value, out);
  return deepFreeze(JSON.parse(out.join("")));
}

/**
 * Appends `value` as JSON text to `out`, piece by piece (field names are reused strings, commas
 * and colons literals): one join at the end instead of a string per field and per row, most of a
 * reopen's garbage before (bench).
 */
function writeJson(value: unknown, out: string[]): void {
  if (Array.isArray(value)) {
    out.push("[");
    for (let i = 0; i < value.length; i += 1) {
      if (i > 0) out.push(",");
      writeJson(value[i], out);
    }
    out.push("]");
    return;
  }
  if (isPlainRecord(value)) {
    const keys = value[COLUMNS];
    if (Array.isArray(keys) && Array.isArray(value["rows"])) {
      const names = (keys as string[]).map((k) => `${JSON.stringify(k)}:`);
      const rows = value["rows"] as unknown[][];
      out.push("[");
      for (let r = 0; r < rows.length; r += 1) {
        const cells = rows[r] as unknown[];
        out.push(r > 0 ? ",{" : "{");
        let first = true;
        for (let i = 0; i < names.length; i += 1) {
          const cell = cells[i];
          if (cell === undefined) continue;
          if (!first) out.push(",");
          first = false;
          out.push(names[i] as string);
          writeJson(cell, out);
        }
        out.push("}");
      }
      out.push("]");
      return;
    }
    out.push("{");
    let first = true;
    for (const k of Object.keys(value)) {
      const v = value[k];
      if (v === undefined) continue;
      if (!first) out.push(",");
      first = false;
      out.push(JSON.stringify(k), ":");
      writeJson(v, out);
    }
    out.push("}");
    return;
  }
  out.push(value === undefined ? "null" : JSON.stringify(value));
}
