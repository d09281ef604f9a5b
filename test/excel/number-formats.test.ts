// Display formats by contract unit, and rounding sums to the precision of their sources.
import fc from "fast-check";
import {
  decimalsOf,
  numberFormatFor,
  roundToDecimals,
  sourceDecimals,
  unitCell,
} from "../../src/excel/number-formats";

const RICH = { dataTypes: true };
const PLAIN = { dataTypes: false };

describe("numberFormatFor", () => {
  test.each([
    ["jpy", 45_095_325_000_000, "jpy", "#,##0"],
    ["jpy", 45_095.325, "million_jpy", "#,##0"],
    ["jpy", 2845.5, "jpy", "#,##0.0"],
    ["jpy", 4.5, "hundred_million_jpy", "#,##0.0"],
    ["ratio", 0.4523, "jpy", "0.00%"],
    ["ratio", 0.45, "jpy", "0%"],
    ["ratio", 0.455, "jpy", "0.0%"],
    // A percent field's cell is already the fraction (12.3% -> 0.123): the same format as a ratio.
    ["percent", 0.123, "jpy", "0.0%"],
    ["percent", 0.3, "jpy", "0%"],
    ["percent", 3.68 / 100, "jpy", "0.00%"],
    ["percent", 12.345 / 100, "jpy", "0.00%"],
    ["percent", 1.1 / 100, "jpy", "0.0%"],
    ["ratio", 0.655, "jpy", "0.0%"],
    ["jpy_per_share", 62.5, "jpy", "#,##0.0"],
    ["jpy_per_share", 120, "jpy", "#,##0"],
    ["jpy_per_share", 245.37, "million_jpy", "#,##0.00"],
    ["times", 12.345, "jpy", "#,##0.00"],
    ["jpy_per_share", 41.1533333, "jpy", "#,##0.00"],
    ["ratio", 0.452317, "jpy", "0.00%"],
    ["shares", 15_794_987_460, "jpy", "#,##0"],
    ["years", 12, "jpy", undefined],
    [undefined, 1.5, "jpy", undefined],
  ] as const)("%s %d (%s) -> %s", (unit, value, money, format) => {
    expect(numberFormatFor(unit, value, money)).toBe(format);
  });
});

describe("unitCell", () => {
  test("money is scaled by the unit asked for and formatted; the value is never rounded", () => {
    expect(unitCell(1_234_567_891, "jpy", "million_jpy", RICH)).toEqual({
      type: "Double",
      basicValue: 1234.567891,
      numberFormat: "#,##0",
    });
    expect(unitCell(1_234_567_891, "jpy", "million_jpy", PLAIN)).toBe(1234.567891);
  });

  test("per-share values and ratios are never scaled by the money unit", () => {
    expect(unitCell(245.5, "jpy_per_share", "million_jpy", PLAIN)).toBe(245.5);
    expect(unitCell(0.35, "ratio", "hundred_million_jpy", RICH)).toEqual({
      type: "Double",
      basicValue: 0.35,
      numberFormat: "0%",
    });
  });

  test("a percent value is written as the fraction api / 100, exactly, with a % format", () => {
    expect(unitCell(3.68, "percent", "million_jpy", RICH)).toEqual({
      type: "Double",
      basicValue: 3.68 / 100,
      numberFormat: "0.00%",
    });
    expect(unitCell(12.3, "percent", "jpy", PLAIN)).toBe(12.3 / 100);
    expect(unitCell(-4.5, "percent", "jpy", PLAIN)).toBe(-4.5 / 100);
    expect(unitCell(null, "percent", "jpy", RICH)).toBe("");
  });

  test("null is an empty cell, text stays text", () => {
    expect(unitCell(null, "jpy", "jpy", RICH)).toBe("");
    expect(unitCell("reported", undefined, "jpy", RICH)).toBe("reported");
  });
});

describe("decimalsOf / sourceDecimals / roundToDecimals", () => {
  test("decimals ignore float noise", () => {
    expect(decimalsOf(0.1 + 0.2)).toBe(1);
    expect(decimalsOf(62.5)).toBe(1);
    expect(decimalsOf(1500)).toBe(0);
    expect(decimalsOf(1e-7)).toBe(7);
  });

  test("decimals agree with reading the 12-significant-digit text, for figures and float noise alike", () => {
    // The oracle: the text reading decimalsOf had before its arithmetic fast path.
    const fromText = (value: number): number => {
      if (!Number.isFinite(value) || Number.isInteger(value)) return 0;
      const text = Number(value.toPrecision(12)).toString();
      const exp = /e-(\d+)$/.exec(text);
      const mantissa = exp ? text.slice(0, text.indexOf("e")) : text;
      return (mantissa.split(".")[1]?.length ?? 0) + (exp ? Number(exp[1]) : 0);
    };
    const decimal = fc
      .tuple(
        fc.oneof(
          fc.integer(),
          fc.maxSafeInteger().map((k) => k % 1e13),
        ),
        fc.integer({ min: 0, max: 16 }),
      )
      .map(([k, d]) => k / 10 ** d);
    const noisy = fc.tuple(decimal, decimal).map(([a, b]) => a + b);
    fc.assert(
      fc.property(fc.oneof(decimal, noisy, fc.double({ noNaN: true })), (v) => {
        expect(decimalsOf(v)).toBe(fromText(v));
      }),
      { numRuns: 5_000 },
    );
    for (const v of [0.1 + 0.2, 1e-7, 1.5e-7, -2.55, 123456789012.5, 0.123456789012, 1e-15, -0])
      expect(decimalsOf(v)).toBe(fromText(v));
  });

  test("an LTM sum of per-share values keeps their two decimals, yen sums stay integers", () => {
    const eps = [12.34, 15.67, 11.11, 19.99];
    const sum = eps.reduce((a, b) => a + b, 0);
    expect(roundToDecimals(sum, sourceDecimals(eps))).toBe(59.11);
    expect(roundToDecimals(0.1 + 0.2, sourceDecimals([0.1, 0.2]))).toBe(0.3);
    expect(sourceDecimals([{ eps: 1.5 }, { eps: null }, { eps: 2.25 }], (r) => r.eps)).toBe(2);
    expect(sourceDecimals([1e-15, 0.5])).toBe(12);
    expect(
      roundToDecimals(300_000_000_000.00006, sourceDecimals([100_000_000_000, 200_000_000_000])),
    ).toBe(300_000_000_000);
  });
});
