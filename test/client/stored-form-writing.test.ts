// Writing a stored form never makes one string of a long answer's whole text (its lines are encoded one by one).

import { gunzipSync, gzipSync } from "node:zlib";
import { useNativeCompression } from "../../src/client/compress";
import { decodeUtf8 } from "../../src/client/utf8";
import { fromStoredForm, LINE_CHARS, toStoredForm } from "../../src/client/stored-form";

/** A 30-year answer's shape: far longer than a line (about 200 KB of JSON). */
const long = {
  fields: [{ key: "sales", label: "売上高", unit: "jpy" }],
  periods: Array.from({ length: 4_000 }, (_, i) => ({
    fiscal_year: 1995 + (i % 30),
    sales: i * 1_000_003,
    note: i % 7 === 0 ? null : "ok",
  })),
  attribution: { source: "出典" },
};

/** The longest string handed to TextEncoder while `work` runs. */
async function longestEncoded(work: () => Promise<unknown>): Promise<number> {
  const encode = jest.spyOn(TextEncoder.prototype, "encode");
  try {
    await work();
    return Math.max(0, ...encode.mock.calls.map(([text]) => text?.length ?? 0));
  } finally {
    encode.mockRestore();
  }
}

afterEach(() => useNativeCompression(undefined));

test.each([
  ["compression streams", () => useNativeCompression(undefined)],
  ["native zlib", () => useNativeCompression({ gzip: gzipSync, gunzip: gunzipSync })],
])(
  "through %s, a long answer's text is encoded a line at a time and reads back exactly",
  async (_, use) => {
    use();
    let stored: Uint8Array<ArrayBuffer> | undefined;
    const longest = await longestEncoded(async () => {
      stored = await toStoredForm(long);
    });
    expect(JSON.stringify(long).length).toBeGreaterThan(3 * LINE_CHARS);
    // The whole text as one string is a large object the heap keeps until its next full collection.
    expect(longest).toBeGreaterThan(0);
    expect(longest).toBeLessThanOrEqual(LINE_CHARS);
    const back = await fromStoredForm(stored);
    expect(JSON.stringify(back)).toBe(JSON.stringify(long));
    // The lines are newline-separated in the stored text, as readers split them.
    const text = decodeUtf8(gunzipSync(stored as Uint8Array));
    expect(text.split("\n")[0]).toContain('"periods":[]');
    expect(text.split("\n")).toContain('"periods"');
  },
);
