// Text compression for persistent cache entries: gzip bytes (IndexedDB), or gzip + base64 (text-only storage).

/** Marks a compressed value, so entries written before compression (or without it) still read. */
const GZIP_PREFIX = "gz1:";

function hasCompression(): boolean {
  return (
    typeof CompressionStream === "function" &&
    typeof DecompressionStream === "function" &&
    typeof Blob === "function" &&
    typeof Response === "function"
  );
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  // Chunks keep String.fromCharCode's argument list small.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

function base64ToBytes(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * `text` as gzip bytes (UTF-8), or undefined where the platform has no CompressionStream. For
 * stores that keep bytes as they are (IndexedDB): no base64.
 */
export async function gzipText(text: string): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (!hasCompression()) return undefined;
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Reverses `gzipText`. Throws on corrupt bytes or where the platform cannot decompress. */
export async function gunzipText(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  if (!hasCompression()) throw new Error("compressed cache entry, but no DecompressionStream");
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).text();
}

/**
 * Compresses `text` for storage. API answers are repetitive JSON (the same keys on every row), so
 * gzip shrinks them about tenfold even after base64: OfficeRuntime.storage's 10 MB then holds a
 * whole morning model. Without CompressionStream the text is stored as it is.
 *
 * @example await unpackText(await packText('{"a":1}')) // '{"a":1}'
 */
export async function packText(text: string): Promise<string> {
  const bytes = await gzipText(text);
  return bytes === undefined ? text : GZIP_PREFIX + bytesToBase64(bytes);
}

/** Reverses `packText`; plain (uncompressed) text passes through. Throws on a corrupt value. */
export async function unpackText(stored: string): Promise<string> {
  if (!stored.startsWith(GZIP_PREFIX)) return stored;
  return gunzipText(base64ToBytes(stored.slice(GZIP_PREFIX.length)));
}
