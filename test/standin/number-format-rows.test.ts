// The number formats STANDIN.md says the stand-in shows ("<value> with `<format>` shows `<text>`"),
// checked against what it shows (standin/cell-display.ts formatNumber: numfmt, General's width rule).
import fs from "node:fs";
import path from "node:path";
import { formatNumber } from "../../standin/cell-display";

const STANDIN_MD = fs.readFileSync(path.join(__dirname, "../../standin/STANDIN.md"), "utf8");

/** Every "<value> with `<format>` shows `<text>`" of STANDIN.md. */
const examples = [...STANDIN_MD.matchAll(/(-?\d[\d.]*) with `([^`]+)` shows `([^`]+)`/g)].map(
  (m) => ({ value: Number(m[1]), format: m[2] ?? "", text: m[3] ?? "" }),
);

test("STANDIN.md gives number format examples for General, percent, literal text, scaling, dates and sections", () => {
  expect(examples.length).toBeGreaterThanOrEqual(15);
  const formats = examples.map((e) => e.format);
  for (const f of ["General", "0.00%", '0.00"%"', "#,##0,,", "yyyy-mm-dd", "0.0%;[Red]-0.0%"])
    expect(formats).toContain(f);
});

test.each(examples)("$value with `$format` shows `$text`", ({ value, format, text }) => {
  expect(formatNumber(value, format)).toBe(text);
});

test("two percent signs: the reading STANDIN.md states (numfmt scales once)", () => {
  expect(STANDIN_MD).toContain("0.0001 shows `0.01%%`");
  expect(formatNumber(0.0001, "0.00%%")).toBe("0.01%%");
});
