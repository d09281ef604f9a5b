// UTF-8 bytes to text for the two places answers arrive as bytes: the wire (http.ts) and storage (compress.ts).

/** One decoder for every read: decoding is stateless without `stream: true`. */
const utf8 = new TextDecoder();

/**
 * `bytes` as text (a BOM dropped, invalid sequences replaced, as `Response.text()` does). A reader
 * that parses the text calls this in the same synchronous step as its parse: a decoded answer is a
 * string of ~100-360 KB, allocated as a large object, and one left waiting a turn while other
 * answers are decoded and parsed was promoted by their scavenges into the old generation, garbage
 * that only a full collection frees (bench: 191 MB of a Model 500 reopen's heap peak).
 */
export function decodeUtf8(bytes: Uint8Array): string {
  return utf8.decode(bytes);
}
