// The one form the persistent tier keeps of an answer: its JSON in lines, gzip-compressed, as bytes.

import { gunzipBytes, gzipText } from "./compress";
import { decodeUtf8 } from "./utf8";
import { parsedParts, partsOfLine } from "./part-lines";
import { isPlainObject } from "./plain-object";
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
 * IndexedDB stores as they are (structured clone, no base64). The JSON is written in lines of at
 * most LINE_CHARS: first the answer with each long top-level array left empty, then per such array
 * a line with its key and lines of its elements (`[row,row,…]`), a part shared by many answers (a
 * units list: shared-parts.ts) on a line of its own before them; a short answer is one line, its
 * plain JSON. Read back it is one decompression off the JS heap and a JSON.parse per line, whose
 * rows are the answer's own objects (bench: rebuilding rows from any other form made most of a
 * reopened model's heap peak). Why lines: the text of a 30-year answer is 100-360 KB, and a string
 * that long is a large object, which Node decodes 6-20 times slower per byte than a shorter one
 * (a Model 500 reopen's decoding: 1.5 s of CPU in one text per answer, 0.04 s in lines). Throws
 * where the platform cannot compress (src/client/storage-platform.ts hasCompression): the add-in
 * then persists nothing.
 *
 * @example await fromStoredForm(await toStoredForm({ a: [1] })) // { a: [1] }, frozen
 */
export function toStoredForm(body: unknown): Promise<Uint8Array<ArrayBuffer>> {
  return gzipText(storedLines(body));
}

/**
 * The stored text of `body` as its lines: `asciiJson(JSON.stringify(body))` for all but a plain
 * answer object, which is made property by property, its long arrays in lines of their own
 * (toStoredForm). The
 * non-ASCII text of an answer sits in its units list and attribution (shared by many answers,
 * shared-parts.ts: their JSON is made once), while its rows are ASCII. Escaping the whole text at
 * once made a two-byte copy of every row and then its ASCII copy: the largest share of a cold
 * Model's garbage (bench: 1.3 GB of 5 GB).
 */
function storedLines(body: unknown): string[] {
  if (!isPlainObject(body)) return [asciiJson(JSON.stringify(body))];
  // Kept as lines, never joined: gzipText encodes each in turn (compress.ts says why).
  const blocks: string[] = [];
  const members: Array<{ keyJson: string; value: string; shared: boolean }> = [];
  for (const key of Object.keys(body)) {
    const part = body[key];
    const keyJson = asciiJson(JSON.stringify(key));
    const lines = Array.isArray(part) && !isSharedPart(part) ? elementLines(part) : undefined;
    // A short array is written in place, so the first line stays short however many it has (and
    // a short answer is its plain JSON); a longer one gets lines of its own.
    const ownLines =
      lines !== undefined && (lines.length > 1 || (lines[0]?.length ?? 0) > IN_PLACE_CHARS);
    const value = lines === undefined ? partJson(part) : ownLines ? "[]" : (lines[0] ?? "[]");
    if (value === undefined) continue; // as JSON.stringify leaves out undefined and functions
    const shared = isSharedPart(part) && keyJson.length + value.length + 3 <= LINE_CHARS;
    members.push({ keyJson, value, shared });
    if (ownLines) blocks.push(keyJson, ...lines);
  }
  // An answer in lines (a short one stays its plain JSON) writes each shared part on a part line
  // of its own, null in its place in the first line: read back, a part line already seen is found
  // by its text, not parsed (part-lines.ts).
  const partLines: string[] = [];
  let json = "{";
  for (const { keyJson, value, shared } of members) {
    const own = shared && blocks.length > 0;
    json += `${json.length > 1 ? "," : ""}${keyJson}:${own ? "null" : value}`;
    if (own) partLines.push(`{${keyJson}:${value}}`);
  }
  return [`${json}}`, ...partLines, ...blocks];
}

/**
 * Characters a line of elements holds at most (one element longer than this is a line of its
 * own): well under V8's large-object size (128 KB), so each line decodes to an ordinary string.
 * @internal Tests check each stored line against it.
 */
export const LINE_CHARS = 60_000;

/** An array whose JSON is at most this long stays in the answer's own line. */
const IN_PLACE_CHARS = 8_000;

/**
 * `list`'s elements as JSON arrays of consecutive elements, each at most LINE_CHARS long (an
 * element longer than that alone on its line). Each line is one JSON.stringify of a slice, as many
 * elements as fit at the length per element seen so far (a slice that came out too long is halved
 * until it fits). A string per element joined into lines made several times the text's own
 * garbage (bench: building stored forms was 1.2 GB of the 4.3 GB a cold Model 500 allocates; over
 * 800 of its answers this takes 12% less CPU and half the GC time).
 */
function elementLines(list: readonly unknown[]): string[] {
  const lines: string[] = [];
  // A first guess from the first element (what has no JSON is null, as in an array's JSON).
  let perElement = (JSON.stringify(list[0]) ?? "null").length + 1;
  for (let start = 0; start < list.length;) {
    let end = Math.min(list.length, start + Math.max(1, Math.floor(LINE_FILL / perElement)));
    let line = asciiJson(JSON.stringify(list.slice(start, end)));
    while (line.length > LINE_CHARS && end - start > 1) {
      end = start + ((end - start) >> 1);
      line = asciiJson(JSON.stringify(list.slice(start, end)));
    }
    lines.push(line);
    perElement = line.length / (end - start);
    start = end;
  }
  return lines;
}

/** What a line is filled to at the length per element seen so far: rows differ in length. */
const LINE_FILL = LINE_CHARS * 0.9;

/** The line break between lines: JSON text never holds one raw (JSON.stringify escapes it). */
const NEWLINE = 0x0a;

/** `{`: how a part line starts (any other line is a key, `"…"`, or elements, `[…]`). */
const OPEN_BRACE = 0x7b;

/**
 * The answer from its stored text's UTF-8 bytes, a line at a time (storedLines): the first line is
 * the answer, a part line (`{…}`, before any key line) fills shared parts' null places with what
 * `partsOf` makes of it, a string line names the array the element lines after it extend. Each
 * line is decoded and parsed in one step, so its text is garbage before anything else runs
 * (utf8.ts). Records stored before part lines carry their parts in the first line and read the
 * same, so the database keeps its name (idb-backend.ts CACHE_DB_NAME: a new name would drop every
 * stored answer, each then asked of the API again); an earlier version refuses a part line as not
 * a stored answer, a miss, never a wrong value.
 */
function parseLines(
  bytes: Uint8Array,
  partsOf: (text: string) => Readonly<Record<string, unknown>>,
): unknown {
  let end = bytes.indexOf(NEWLINE);
  if (end < 0) return JSON.parse(decodeUtf8(bytes));
  const answer: unknown = JSON.parse(decodeUtf8(bytes.subarray(0, end)));
  if (!isPlainObject(answer)) throw new Error("not a stored answer (lines)");
  let target: unknown[] | undefined;
  while (end < bytes.length) {
    const start = end + 1;
    end = bytes.indexOf(NEWLINE, start);
    if (end < 0) end = bytes.length;
    if (target === undefined && bytes[start] === OPEN_BRACE) {
      // A part line (storedLines), before any key line: it fills its parts' null places.
      const parts = partsOf(decodeUtf8(bytes.subarray(start, end)));
      for (const name in parts) {
        if (answer[name] !== null) throw new Error("not a stored answer (lines)");
        answer[name] = parts[name];
      }
      continue;
    }
    const line: unknown = JSON.parse(decodeUtf8(bytes.subarray(start, end)));
    if (typeof line === "string") {
      const named = answer[line];
      if (!Array.isArray(named)) throw new Error("not a stored answer (lines)");
      target = named;
    } else if (Array.isArray(line) && target !== undefined) {
      for (const item of line) target.push(item);
    } else throw new Error("not a stored answer (lines)");
  }
  return answer;
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
 * The answer in `stored` (gzip bytes of its lines), decompressed and parsed, neither frozen nor
 * checked: the least a reopen must do per answer, which the bench times over every stored answer
 * as the reopen's floor (bench/reopen-child.ts).
 * @internal The bench's floor; the add-in reads answers with fromStoredForm.
 */
export async function parseStoredForm(stored: Uint8Array<ArrayBuffer>): Promise<unknown> {
  return parseLines(await gunzipBytes(stored), parsedParts);
}

/**
 * The answer from its stored form, deep-frozen like every answer the client hands out. Throws on
 * anything but readable gzip bytes of JSON (corrupt, or not this form): the caller counts a miss.
 */
export async function fromStoredForm(stored: unknown): Promise<unknown> {
  if (!isBytes(stored)) throw new Error("not a stored answer (gzip bytes)");
  return freezeAnswer(parseLines(await gunzipBytes(stored), partsOfLine));
}
