// The one form the persistent tier keeps of an answer: its JSON gzip-compressed, as bytes.

import { gunzipText, gzipText } from "./compress";
import { deepFreeze } from "./deep-freeze";

/**
 * Gzip bytes of an answer's JSON. Checked by tag, not `instanceof`: a structured clone read back
 * from storage may come from another realm (a test environment, a worker).
 */
function isBytes(value: unknown): value is Uint8Array<ArrayBuffer> {
  return Object.prototype.toString.call(value) === "[object Uint8Array]";
}

/**
 * The stored form of `body`: gzip of its JSON (about a tenth of the text) kept as bytes, which
 * IndexedDB stores as they are (structured clone, no base64). Read back it is one decompression off
 * the JS heap and one JSON.parse, as the answer arrived (bench: rebuilding rows from any other form
 * made most of a reopened model's heap peak). Throws where the platform cannot compress
 * (src/client/compress.ts hasCompression): the add-in then persists nothing.
 *
 * @example await fromStoredForm(await toStoredForm({ a: [1] })) // { a: [1] }, frozen
 */
export function toStoredForm(body: unknown): Promise<Uint8Array<ArrayBuffer>> {
  return gzipText(JSON.stringify(body));
}

/**
 * Bytes a stored form takes in storage: the gzip bytes plus the record's small fixed part. The
 * persistent tier's budget counts these, not the size received: a 308 MB model of answers is 45 MB
 * of gzip on disk.
 *
 * @example storedSize(await toStoredForm(body)) // about a tenth of JSON.stringify(body).length
 */
export function storedSize(stored: Uint8Array): number {
  return stored.byteLength + RECORD_OVERHEAD_BYTES;
}

/** A record's key, times and wrapper besides its bytes (an estimate; keys are ~80 characters). */
const RECORD_OVERHEAD_BYTES = 128;

/**
 * The answer from its stored form, deep-frozen like every answer the client hands out. Throws on
 * anything but readable gzip bytes of JSON (corrupt, or not this form): the caller counts a miss.
 */
export async function fromStoredForm(stored: unknown): Promise<unknown> {
  if (!isBytes(stored)) throw new Error("not a stored answer (gzip bytes)");
  return deepFreeze(JSON.parse(await gunzipText(stored)));
}
