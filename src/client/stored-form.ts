// The one form the persistent tier keeps of an answer: its JSON gzip-compressed, as bytes.

import { gunzipBytes, gzipText } from "./compress";
import { decodeUtf8 } from "./utf8";
import { freezeAnswer, isSharedPart } from "./shared-parts";

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
 * (src/client/storage-platform.ts hasCompression): the add-in then persists nothing.
 *
 * @example await fromStoredForm(await toStoredForm({ a: [1] })) // { a: [1] }, frozen
 */
export function toStoredForm(body: unknown): Promise<Uint8Array<ArrayBuffer>> {
  return gzipText(storedJson(body));
}

/**
 * `asciiJson(JSON.stringify(body))`, character for character, made property by property for a
 * plain answer object: the non-ASCII text of an answer sits in its units list and attribution
 * (shared by many answers, shared-parts.ts: their JSON is made once), while its rows are ASCII.
 * Escaping the whole text at once made a two-byte copy of every row and then its ASCII copy: the
 * largest share of a cold Model's garbage (bench: 1.3 GB of 5 GB).
 */
function storedJson(body: unknown): string {
  if (!isPlainObject(body)) return asciiJson(JSON.stringify(body));
  let json = "{";
  for (const key of Object.keys(body)) {
    const value = partJson(body[key]);
    if (value === undefined) continue; // as JSON.stringify leaves out undefined and functions
    json += `${json.length > 1 ? "," : ""}${asciiJson(JSON.stringify(key))}:${value}`;
  }
  return `${json}}`;
}

/** An object literal's kind (what JSON.parse makes): no prototype of its own, no toJSON. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype &&
    !("toJSON" in value)
  );
}

/**
 * The ASCII JSON of shared parts already written (a units list, an attribution: shared-parts.ts).
 * Only those: an answer's own rows are written once, and keeping their text would double the
 * memory tier (bench: a cold Model 500 retained 300 MB more).
 */
const partTexts = new WeakMap<object, string>();

function partJson(value: unknown): string | undefined {
  const shared = isSharedPart(value);
  const known = shared ? partTexts.get(value) : undefined;
  if (known !== undefined) return known;
  const json = JSON.stringify(value) as string | undefined;
  if (json === undefined) return undefined;
  const ascii = asciiJson(json);
  if (shared) partTexts.set(value, ascii);
  return ascii;
}

/** Any character outside ASCII (JSON.stringify leaves them as they are; lone surrogates it escapes). */
const NON_ASCII = /[\u0080-\uffff]/g;

/**
 * `json` with every non-ASCII character written as a `\uXXXX` escape: the same JSON (JSON.parse
 * gives back the same strings, surrogate pairs included), but text a reopen decodes and parses as
 * one-byte characters. A single Japanese label (every /financials answer has them in `fields`)
 * otherwise makes the whole decoded answer a two-byte string: twice the memory, and UTF-8 decoding
 * and parsing at about half the speed (bench: Model 200, 123 MB of JSON of which ~1% non-ASCII).
 * Records stored before this are UTF-8 JSON and read back the same way.
 */
function asciiJson(json: string): string {
  if (!HAS_NON_ASCII.test(json)) return json;
  return json.replace(NON_ASCII, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** NON_ASCII without the global flag: a test that keeps no position between calls. */
const HAS_NON_ASCII = /[\u0080-\uffff]/;

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
  const json = await gunzipBytes(stored);
  // Decoded and parsed in one step: the text is garbage before anything else runs (utf8.ts).
  return freezeAnswer(JSON.parse(decodeUtf8(json)));
}
