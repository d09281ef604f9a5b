// The persistent tier's one stored form: gzip of ASCII-only JSON, read back exactly and frozen.

import { gunzipBytes, gzipText } from "../../src/client/compress";
import { decodeUtf8 } from "../../src/client/utf8";
import { freezeAnswer } from "../../src/client/shared-parts";
import { fromStoredForm, LINE_CHARS, toStoredForm } from "../../src/client/stored-form";

/** The stored bytes as text: gunzip, then the product's UTF-8 decoder (as the readers do). */
async function gunzipText(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return decodeUtf8(await gunzipBytes(bytes));
}

/** An answer with what real ones carry: Japanese labels, numbers, nulls, nested rows. */
const answer = {
  fields: [
    { key: "sales", label: "売上高", unit: "jpy" },
    { key: "ebit", label: "EBIT（利払前税引前利益）", unit: "jpy" },
  ],
  company: { name: "トヨタ自動車株式会社", note: "𠮷野家 😀 é\u00a0\u2028" },
  periods: [
    { fiscal_year: "2024年3月期", values: [1.5, null, -1.25, 1e21, "株"] },
    { fiscal_year: "2025年3月期", values: [[1, 2], []] },
  ],
};

test("the stored form decompresses to ASCII-only JSON: Japanese text is written as \\u escapes", async () => {
  const text = await gunzipText(await toStoredForm(answer));
  expect(text).toMatch(/^[\x20-\x7e]*$/);
  expect(text).toContain("\\u58f2\\u4e0a\\u9ad8"); // 売上高
  expect(JSON.parse(text)).toEqual(answer);
});

test("a short answer's stored text is exactly the escaped JSON of the whole answer, however it is built", async () => {
  // The oracle: the whole answer stringified, then every non-ASCII character escaped.
  const whole = (value: unknown): string =>
    JSON.stringify(value).replace(
      /[\u0080-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
  // A units list held once for many answers (shared-parts.ts): its text is written once, reused.
  const units = freezeAnswer({ fields: [{ key: "sales", label: "売上高", unit: "jpy" }] }).fields;
  const shapes: unknown[] = [
    answer,
    { fields: units, periods: [{ fiscal_year: "2024/03", sales: 1 }], attribution: { s: "出典" } },
    { fields: units, periods: [{ fiscal_year: "2025/03", sales: 2 }] }, // the units' text reused
    { skipped: undefined, fn: () => 1, kept: null, "キー\u2028": "値", n: -0 },
    [answer, "株"],
    { when: new Date(Date.UTC(2026, 0, 2)), nested: { toJSON: () => "株式" } },
    Object.assign(Object.create({ inherited: 1 }) as object, { own: "自社" }),
    { toJSON: () => ({ replaced: "置換" }) },
    "文字列",
    42,
    null,
  ];
  for (const shape of shapes)
    expect(await gunzipText(await toStoredForm(shape))).toBe(whole(shape));
});

test("an answer read back from its stored form equals the answer stored, character for character", async () => {
  const back = await fromStoredForm(await toStoredForm(answer));
  expect(back).toEqual(answer);
  const company = (back as typeof answer).company;
  expect(company.note).toBe("𠮷野家 😀 é\u00a0\u2028");
  expect(company.note.length).toBe(answer.company.note.length);
});

test("a lone surrogate (JSON.stringify escapes it) survives the stored form", async () => {
  const odd = { text: "a\ud800b\udc00c" };
  await expect(fromStoredForm(await toStoredForm(odd))).resolves.toEqual(odd);
});

test("a record stored as UTF-8 JSON (before the ASCII form) reads back the same answer", async () => {
  const utf8Record = await gzipText(JSON.stringify(answer));
  await expect(fromStoredForm(utf8Record)).resolves.toEqual(answer);
});

test("a large UTF-8 record reads back exactly although its characters straddle decompressed chunks", async () => {
  // Decompression gives the text in chunks (16 KB in Node); 3- and 4-byte characters at every
  // offset land some on a boundary, where a decoder that does not carry them over breaks them.
  const labels = Array.from({ length: 6000 }, (_, i) => `${"売上高".repeat(1 + (i % 4))}😀${i}`);
  const big = { fields: labels.map((label, i) => ({ key: `k${i}`, label })) };
  const utf8Record = await gzipText(JSON.stringify(big));
  const text = await gunzipText(utf8Record);
  expect(text.length).toBeGreaterThan(100_000);
  expect(text).toBe(JSON.stringify(big));
  await expect(fromStoredForm(utf8Record)).resolves.toEqual(big);
});

test("an answer read back is frozen all the way down, arrays in arrays included", async () => {
  const back = (await fromStoredForm(await toStoredForm(answer))) as typeof answer;
  expect(Object.isFrozen(back)).toBe(true);
  expect(Object.isFrozen(back.fields)).toBe(true);
  expect(Object.isFrozen(back.fields[1])).toBe(true);
  const values = back.periods[1]?.values as number[][];
  expect(Object.isFrozen(values)).toBe(true);
  expect(Object.isFrozen(values[0])).toBe(true);
  expect(Object.isFrozen(values[1])).toBe(true);
  expect(() => {
    "use strict";
    (values[0] as number[])[0] = 9;
  }).toThrow(TypeError);
});

test("bytes that are not gzip are refused (the caller counts a miss)", async () => {
  await expect(fromStoredForm(new Uint8Array([1, 2, 3]))).rejects.toThrow();
  await expect(fromStoredForm('{"a":1}')).rejects.toThrow("not a stored answer");
});

test("a truncated stored form is refused, not left pending", async () => {
  const stored = await toStoredForm(answer);
  await expect(fromStoredForm(stored.slice(0, stored.byteLength - 12))).rejects.toThrow();
});

test("the stored bytes own their buffer exactly (a structured clone stores the whole buffer)", async () => {
  const stored = await toStoredForm(answer);
  expect(stored.byteOffset).toBe(0);
  expect(stored.buffer.byteLength).toBe(stored.byteLength);
});

/** The oracle for any shape: what JSON gives back for it (the answer as it arrived). */
const viaJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

/** A 30-year quarterly answer's size: 120 rows of ~100 fields, nulls, Japanese in some rows. */
function longAnswer(rows: number): Record<string, unknown> {
  const units = freezeAnswer({ fields: [{ key: "sales", label: "売上高", unit: "jpy" }] }).fields;
  return {
    security_code: "7203",
    fields: units,
    periods: Array.from({ length: rows }, (_, i) => {
      const row: Record<string, unknown> = {
        fiscal_year: `${1995 + (i >> 2)}/03`,
        quarter: `Q${(i % 4) + 1}`,
      };
      for (let f = 0; f < 100; f += 1) row[`item_${f}`] = f % 3 === 0 ? null : i * 1000 + f + 0.25;
      if (i % 7 === 0) row["note"] = "決算期変更 😀";
      return row;
    }),
    prices: Array.from({ length: 900 }, (_, i) => ({
      date: `2024-01-${i}`,
      close: i + 0.5,
      volume: i,
    })),
    attribution: { source: "出典" },
  };
}

test("a long answer is stored in lines under the large-object size and reads back exactly, in key order", async () => {
  const long = longAnswer(120);
  const text = await gunzipText(await toStoredForm(long));
  const lines = text.split("\n");
  // The head, then per long array its key and at least two lines of elements.
  expect(lines.length).toBeGreaterThan(5);
  expect(lines[0]).toContain('"periods":[]');
  expect(lines).toContain('"periods"');
  expect(lines).toContain('"prices"');
  for (const line of lines) expect(line.length).toBeLessThanOrEqual(LINE_CHARS);
  expect(text).toMatch(/^[\x20-\x7e\n]*$/);
  const back = await fromStoredForm(await toStoredForm(long));
  expect(back).toEqual(viaJson(long));
  expect(JSON.stringify(back)).toBe(JSON.stringify(long));
  expect(Object.isFrozen((back as { periods: unknown[] }).periods)).toBe(true);
  expect(Object.isFrozen((back as { periods: unknown[] }).periods[119])).toBe(true);
});

test("an element longer than a line has a line of its own; elements without JSON read back as null", async () => {
  const huge = "x".repeat(LINE_CHARS + 10);
  const shape = {
    rows: [
      { a: 1 },
      { text: huge },
      { b: 2 },
      undefined,
      () => 1,
      ...(longAnswer(60)["periods"] as unknown[]),
    ],
  };
  const text = await gunzipText(await toStoredForm(shape));
  expect(text.split("\n").some((line) => line === `[{"text":"${huge}"}]`)).toBe(true);
  await expect(fromStoredForm(await toStoredForm(shape))).resolves.toEqual(viaJson(shape));
});

test("every short shape is stored as its plain JSON, one line", async () => {
  for (const rows of [0, 1, 3]) {
    const short = { periods: longAnswer(rows)["periods"], n: rows };
    const text = await gunzipText(await toStoredForm(short));
    expect(text).not.toContain("\n");
    expect(JSON.parse(text)).toEqual(viaJson(short));
  }
});

test("stored lines that do not make an answer are refused (the caller counts a miss)", async () => {
  for (const text of [
    '{"a":[]}\n[1,2]', // elements before any key line
    '{"a":1}\n"a"\n[1]', // a key line naming what is not an array
    '{"a":[]}\n"b"\n[1]', // a key line naming nothing
    '[1]\n"a"\n[1]', // a head that is not an answer object
    '{"a":[]}\n"a"\n{"x":1}', // an element line that is not an array
  ])
    await expect(fromStoredForm(await gzipText(text))).rejects.toThrow("not a stored answer");
});
