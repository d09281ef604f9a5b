// Joins the chunks a byte stream gave into one array, so they are decoded once (one string).

/**
 * `chunks` as one array of `bytes` bytes; the chunk itself when there is only one (no copy).
 *
 * @example joinChunks([new Uint8Array([1]), new Uint8Array([2, 3])], 3) // Uint8Array [1, 2, 3]
 */
export function joinChunks(chunks: readonly Uint8Array[], bytes: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const all = new Uint8Array(bytes);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return all;
}
