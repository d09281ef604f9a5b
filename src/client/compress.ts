// Gzip of text as bytes for the persistent cache tier (IndexedDB keeps bytes as they are, no base64).

/**
 * Whether this platform can gzip and gunzip: CompressionStream and DecompressionStream (Compression
 * Streams standard; Chromium/WebView2 80+, Safari/WKWebView 16.4+, Node 18+). Where it cannot, the
 * add-in keeps answers in memory only (functions/addin-cache.ts), never in another stored form.
 */
export function hasCompression(): boolean {
  return (
    typeof CompressionStream === "function" &&
    typeof DecompressionStream === "function" &&
    typeof Blob === "function" &&
    typeof Response === "function"
  );
}

/**
 * `text` as gzip bytes (UTF-8). API answers are repetitive JSON (the same keys on every row), so
 * gzip shrinks them about tenfold. Throws where the platform has no CompressionStream.
 *
 * @example await gunzipText(await gzipText('{"a":1}')) // '{"a":1}'
 */
export async function gzipText(text: string): Promise<Uint8Array<ArrayBuffer>> {
  if (!hasCompression()) throw new Error("no CompressionStream on this platform");
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** One decoder for every read: decoding is stateless without `stream: true`. */
const utf8 = new TextDecoder();

/**
 * Reverses `gzipText`. Throws on corrupt bytes or where the platform cannot decompress. The bytes
 * are gathered whole, then decoded in one call: `Response.text()` decodes chunk by chunk through
 * the stream machinery (bench: its decoding was a reopen's largest single cost).
 */
export async function gunzipText(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  if (!hasCompression()) throw new Error("no DecompressionStream on this platform");
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return utf8.decode(await new Response(stream).arrayBuffer());
}
