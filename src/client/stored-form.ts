// What the persistent tier keeps of an answer: its JSON gzip-compressed as bytes, or (no
// CompressionStream) the columnar compact form; and the answer read back from either.

import { compact, expand } from "./compact";
import { gunzipText, gzipText } from "./compress";
import { deepFreeze } from "./deep-freeze";

const GZIP_JSON = "$kaishaGzipJson";

interface GzipJson {
  [GZIP_JSON]: 1;
  bytes: Uint8Array<ArrayBuffer>;
}

function isGzipJson(value: unknown): value is GzipJson {
  return (
    value !== null &&
    typeof value === "object" &&
    (value as Record<string, unknown>)[GZIP_JSON] === 1 &&
    (value as { bytes?: unknown }).bytes instanceof Uint8Array
  );
}

/**
 * The stored form of `body`. Gzip of its JSON (about a tenth of the text, a third of the columnar
 * form) kept as bytes, which IndexedDB stores as they are (no base64). Read back it is one
 * decompression off the JS heap and one JSON.parse, as the answer arrived: rebuilding rows from
 * columns through generated JSON text made 1.5 MB of garbage per answer, most of a reopened
 * model's heap peak (bench).
 *
 * @example await fromStoredForm(await toStoredForm({ a: [1] })) // { a: [1] }, frozen
 */
export async function toStoredForm(body: unknown): Promise<unknown> {
  const bytes = await gzipText(JSON.stringify(body));
  if (bytes === undefined) return compact(body);
  const stored: GzipJson = { [GZIP_JSON]: 1, bytes };
  return stored;
}

/**
 * Bytes a stored form takes in storage: the gzip bytes (plus the record's small fixed part), or the
 * columnar form's JSON length. The persistent tier's budget counts these, not the size received:
 * a 308 MB model of answers is 45 MB of gzip on disk.
 *
 * @example storedSize(await toStoredForm(body)) // about a tenth of JSON.stringify(body).length
 */
export function storedSize(stored: unknown): number {
  if (isGzipJson(stored)) return stored.bytes.byteLength + RECORD_OVERHEAD_BYTES;
  return JSON.stringify(stored)?.length ?? 0;
}

/** A record's key, times and wrapper besides its bytes (an estimate; keys are ~80 characters). */
const RECORD_OVERHEAD_BYTES = 128;

/** The answer from its stored form (either kind, and records written before either), deep-frozen. */
export async function fromStoredForm(stored: unknown): Promise<unknown> {
  if (isGzipJson(stored)) return deepFreeze(JSON.parse(await gunzipText(stored.bytes)));
  return expand(stored);
}
