// The persistent tier's one stored form: gzip of ASCII-only JSON, read back exactly and frozen.

import { gunzipText, gzipText } from "../../src/client/compress";
import { freezeAnswer } from "../../src/client/shared-parts";
import { fromStoredForm, toStoredForm } from "../../src/client/stored-form";

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

test("the stored text is exactly the escaped JSON of the whole answer, however it is built", async () => {
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
