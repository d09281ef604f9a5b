// gzipText/gunzipBytes: the compression streams, or a host's native zlib in their place; the same gzip either way.

import { gunzipSync, gzipSync } from "node:zlib";
import { gunzipBytes, gzipText, useNativeCompression } from "../../src/client/compress";
import { decodeUtf8 } from "../../src/client/utf8";

const text = JSON.stringify({
  label: "\\u58f2\\u4e0a\\u9ad8",
  values: [1.5, null, -2],
  name: "トヨタ 𠮷 😀",
});

/** What the stored form's readers do with gzipText's bytes: gunzip, then the product's UTF-8 decoder. */
async function gunzipText(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return decodeUtf8(await gunzipBytes(bytes));
}

afterEach(() => useNativeCompression(undefined));

test("through the compression streams, text comes back exactly", async () => {
  expect(await gunzipText(await gzipText(text))).toBe(text);
});

test("bytes gzipped natively are read by the streams, and the streams' bytes natively", async () => {
  const calls: string[] = [];
  useNativeCompression({
    gzip: (bytes) => (calls.push("gzip"), gzipSync(bytes)),
    gunzip: (bytes) => (calls.push("gunzip"), gunzipSync(bytes)),
  });
  const natively = await gzipText(text);
  // Stored as a plain Uint8Array of its own (a structured clone keeps a view's whole buffer).
  expect(Object.getPrototypeOf(natively)).toBe(Uint8Array.prototype);
  expect(natively.byteOffset).toBe(0);
  expect(natively.byteLength).toBe(natively.buffer.byteLength);
  expect(await gunzipText(natively)).toBe(text);
  expect(calls).toEqual(["gzip", "gunzip"]);

  useNativeCompression(undefined);
  const streamed = await gzipText(text);
  expect(await gunzipText(natively)).toBe(text);
  expect(calls).toEqual(["gzip", "gunzip"]); // the streams again: no native call
  useNativeCompression({ gzip: gzipSync, gunzip: gunzipSync });
  expect(await gunzipText(streamed)).toBe(text);
});

test("corrupt bytes fail through the native gunzip as through the streams", async () => {
  const corrupt = new Uint8Array([0x1f, 0x8b, 8, 0, 1, 2, 3, 4]);
  await expect(gunzipText(corrupt)).rejects.toThrow();
  useNativeCompression({ gzip: gzipSync, gunzip: gunzipSync });
  await expect(gunzipText(corrupt)).rejects.toThrow();
});
