// A long answer's shared parts (units list, attribution) are stored on part lines and read back as the one kept copy, exactly.

import { gunzipBytes, gzipText } from "../../src/client/compress";
import { freezeAnswer } from "../../src/client/shared-parts";
import { fromStoredForm, parseStoredForm, toStoredForm } from "../../src/client/stored-form";
import { decodeUtf8 } from "../../src/client/utf8";

/** What a units list's JSON starts with in stored text (its labels escaped: stored-form.ts). */
const UNITS_START = '[{"key":"sales","label":"\\u58f2\\u4e0a\\u9ad8"';

/** A quarterly /financials answer's shape: its units list and attribution kept once (shared-parts.ts). */
function financials(code: string, rows: number): Record<string, unknown> {
  const received = freezeAnswer({
    fields: [
      { key: "sales", label: "売上高", unit: "jpy" },
      { key: "eps", label: "EPS", unit: "jpy" },
    ],
    attribution: { source_label: "出典: IRBANK", license: "x" },
  });
  return {
    fields: received.fields,
    security_code: code,
    periods: Array.from({ length: rows }, (_, i) => ({
      fiscal_year: `${1995 + (i >> 2)}/03`,
      quarter: `Q${(i % 4) + 1}`,
      sales: i % 5 === 0 ? null : i * 1_000_003 + 0.5,
      eps: -(i + 1) / 7,
      note: i % 9 === 0 ? "決算期変更" : "ok",
    })),
    attribution: received.attribution,
  };
}

/** `json` with non-ASCII characters escaped, as the stored form writes it (stored-form.ts asciiJson). */
const asciiJson = (json: string): string =>
  json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** JSON.parse calls whose text starts with `prefix`, while `work` runs. */
async function parsesOf(prefix: string, work: () => Promise<unknown>): Promise<number> {
  const parse = jest.spyOn(JSON, "parse");
  try {
    await work();
    return parse.mock.calls.filter(([text]) => text.includes(prefix)).length;
  } finally {
    parse.mockRestore();
  }
}

test("a long answer's units list is read back from its part line as the kept copy, parsed once for many answers", async () => {
  const a = financials("7203", 2_000);
  const b = financials("6758", 2_000);
  const storedA = await toStoredForm(a);
  const storedB = await toStoredForm(b);
  const lines = decodeUtf8(await gunzipBytes(storedB)).split("\n");
  // The first line holds null in the parts' places; each part has a line of its own after it.
  expect(lines[0]).toMatch(
    /^\{"fields":null,"security_code":"6758","periods":\[\],"attribution":null\}$/,
  );
  expect(lines[1]).toBe(
    `{"fields":${UNITS_START},"unit":"jpy"},{"key":"eps","label":"EPS","unit":"jpy"}]}`,
  );
  expect(lines[2]).toMatch(/^\{"attribution":\{"source_label":/);
  const parses = await parsesOf(UNITS_START, async () => {
    const backA = (await fromStoredForm(storedA)) as typeof a;
    const backB = (await fromStoredForm(storedB)) as typeof b;
    // Exactly the answers stored, key order included, each sharing the copy received.
    expect(JSON.stringify(backA)).toBe(JSON.stringify(a));
    expect(JSON.stringify(backB)).toBe(JSON.stringify(b));
    expect(backB.fields).toBe(a.fields);
    expect(backA.attribution).toBe(b.attribution);
    expect(Object.isFrozen(backB) && Object.isFrozen(backB.periods)).toBe(true);
  });
  // The first read of that part line at most; the second answer finds it by its text.
  expect(parses).toBeLessThanOrEqual(1);
});

test("records of both layouts, units list in the first line (stored before part lines) or on a part line, read back the same; the floor parses each", async () => {
  const a = financials("7203", 300);
  const periods = a["periods"];
  const rows = periods as unknown[];
  const elements = [rows.slice(0, 100), rows.slice(100)].map((l) => asciiJson(JSON.stringify(l)));
  const older = [asciiJson(JSON.stringify({ ...a, periods: [] })), '"periods"', ...elements];
  const partLine = asciiJson(JSON.stringify({ fields: a["fields"] }));
  const withPart = [
    asciiJson(JSON.stringify({ ...a, fields: null, periods: [] })),
    partLine,
    '"periods"',
    ...elements,
  ];
  await fromStoredForm(await gzipText(withPart.join("\n"))); // its part line now known
  for (const lines of [older, withPart]) {
    const stored = await gzipText(lines.join("\n"));
    const back = (await fromStoredForm(stored)) as typeof a;
    expect(JSON.stringify(back)).toBe(JSON.stringify(a));
    expect(back.fields).toBe(a.fields);
    // The floor (bench/reopen-child.ts) decodes every answer whole: its part line too, each time.
    const parses = await parsesOf(UNITS_START, async () => {
      const floor = (await parseStoredForm(stored)) as typeof a;
      expect(floor).toEqual(a);
      expect(floor.fields).not.toBe(a.fields);
    });
    expect(parses).toBe(1);
  }
});

test("a part line fills its null place; one that does not fill one is refused (the caller counts a miss)", async () => {
  const filled = await fromStoredForm(await gzipText('{"a":[],"f":null}\n{"f":[1]}\n"a"\n[2]'));
  expect(JSON.stringify(filled)).toBe('{"a":[2],"f":[1]}');
  for (const text of [
    '{"a":[],"f":1}\n{"f":[1]}\n"a"\n[1]', // the place holds a value, not null
    '{"a":[]}\n{"g":[1]}\n"a"\n[1]', // no place for it
    '{"a":[],"f":null}\n{"__proto__":[1]}\n"a"\n[1]', // no own place for it
    '{"a":[],"f":null}\n[1]\n"a"\n[1]', // a part line that is not an object
    '{"a":[],"f":null}\n"a"\n[1]\n{"f":[1]}', // a part line after elements
  ])
    await expect(fromStoredForm(await gzipText(text))).rejects.toThrow("not a stored answer");
});
