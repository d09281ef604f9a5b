// Gzip of text as bytes for the persistent cache tier (IndexedDB keeps bytes as they are, no base64).

import { joinChunks } from "./join-chunks";
import { hasCompression } from "./storage-platform";

/** Gzip and gunzip run natively by the host, in place of the compression streams. */
interface NativeCompression {
  gzip(bytes: Uint8Array): Uint8Array;
  gunzip(bytes: Uint8Array): Uint8Array;
}

let native: NativeCompression | undefined;

/**
 * Makes gzipText/gunzipBytes use a host's native zlib instead of CompressionStream and
 * DecompressionStream (undefined: the streams again). The add-in's runtime is a browser engine,
 * whose compression streams are native code, and never sets it. Node's are script: web-streams
 * adapters over node:zlib that cost a Model 500 reopen several times its whole decompression
 * (bench/RESULTS.md), so the bench's Node processes set node:zlib here to stand in for the
 * browser's streams (bench/native-compression.ts). The bytes are the same gzip either way.
 *
 * @example useNativeCompression({ gzip: zlib.gzipSync, gunzip: zlib.gunzipSync });
 * @internal The bench's seam (bench/native-compression.ts); the add-in itself never calls it.
 */
export function useNativeCompression(host: NativeCompression | undefined): void {
  native = host;
}

/**
 * `text` as gzip bytes (UTF-8). API answers are repetitive JSON (the same keys on every row), so
 * gzip shrinks them about tenfold. Given lines, their text joined by newlines, each line encoded on
 * its own: the stored form of a 30-year answer is 100-360 KB of lines (stored-form.ts), and one
 * string of it all is a large object V8 keeps until its next full collection (bench: the whole
 * text and its flattening for the encoder were a quarter of a cold Model's allocation, the gap
 * between its live heap and its peak). Throws where the platform has no CompressionStream.
 *
 * @example decodeUtf8(await gunzipBytes(await gzipText('{"a":1}'))) // '{"a":1}'
 */
export async function gzipText(text: string | readonly string[]): Promise<Uint8Array<ArrayBuffer>> {
  const chunks = utf8Lines(typeof text === "string" ? [text] : text);
  if (native !== undefined) {
    const whole = joinChunks(
      chunks,
      chunks.reduce((sum, c) => sum + c.byteLength, 0),
    );
    return new Uint8Array(native.gzip(whole)); // a plain, exact copy
  }
  if (!hasCompression()) throw new Error("no CompressionStream on this platform");
  const gzip = await through(chunks, new CompressionStream("gzip"));
  // Stored as it is, and a structured clone keeps a view's whole buffer: a chunk may be a view
  // into a larger output buffer (Node's zlib), so the bytes are copied out unless exact.
  const exact = gzip.byteOffset === 0 && gzip.byteLength === gzip.buffer.byteLength;
  return exact ? gzip : new Uint8Array(gzip);
}

const NEWLINE = new Uint8Array([0x0a]);

/** Each line's UTF-8 bytes with a newline's between them (bytes live outside the JS heap). */
function utf8Lines(lines: readonly string[]): Uint8Array<ArrayBuffer>[] {
  const encoder = new TextEncoder();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  for (const line of lines) {
    if (chunks.length > 0) chunks.push(NEWLINE);
    chunks.push(encoder.encode(line));
  }
  return chunks;
}

/**
 * The text `gzipText` compressed, as its UTF-8 bytes (gathered whole): a reader that parses it
 * decodes it in the same step as its parse (utf8.ts decodeUtf8). Throws on corrupt bytes or where
 * the platform cannot decompress.
 */
export async function gunzipBytes(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  if (native !== undefined) return native.gunzip(bytes);
  if (!hasCompression()) throw new Error("no DecompressionStream on this platform");
  return through([bytes], new DecompressionStream("gzip"));
}

/**
 * `input`, chunk after chunk, through a (de)compression stream, written to and read from it
 * directly. A Blob's stream piped in and a Response gathering the output cost a third more per
 * answer (bench: a reopen decompresses 2,300 answers; `Response.text()` was its largest single
 * cost).
 */
async function through(
  input: readonly Uint8Array<ArrayBuffer>[],
  transform: CompressionStream | DecompressionStream,
): Promise<Uint8Array<ArrayBuffer>> {
  const writer = transform.writable.getWriter();
  // Not awaited: a write completes only as the output is read. A failure (corrupt gzip) errors
  // the readable side too, so it surfaces as the read's rejection below.
  for (const bytes of input) writer.write(bytes).catch(() => undefined);
  writer.close().catch(() => undefined);
  const reader = transform.readable.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.byteLength;
  }
  return joinChunks(chunks, length) as Uint8Array<ArrayBuffer>;
}
