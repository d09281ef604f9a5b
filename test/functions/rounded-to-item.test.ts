// roundedToItem: an LTM sum or H2 difference rounded to its item's own decimals; whole numbers as they are.

import type { FinancialsPeriod } from "../../src/contract";
import { roundedToItem } from "../../functions/cells/answer-index";
import { roundToDecimals, sourceDecimals } from "../../src/excel/number-formats";

/** Frozen rows, as the client hands answers out (the index is kept only for frozen answers). */
function periods(rows: Array<Record<string, unknown>>): readonly FinancialsPeriod[] {
  return Object.freeze(
    rows.map((r, i) => Object.freeze({ fiscal_year: `20${10 + i}/03`, ...r })),
  ) as unknown as readonly FinancialsPeriod[];
}

test("a sum with float noise is rounded to the decimals the item's figures carry", () => {
  const p = periods([{ eps: 10.1 }, { eps: 20.25 }, { eps: null }]);
  expect(roundedToItem(p, "eps", 0.1 + 0.2)).toBe(0.3);
  expect(roundedToItem(p, "eps", 41.150000000000006)).toBe(41.15);
  expect(roundedToItem(p, "eps", 1.23456)).toBe(1.23);
});

test("a whole number is given as it is, equal to rounding it to the item's decimals", () => {
  const p = periods([{ sales: 1_000 }, { sales: 2_500_000_000_000 }, { eps: 12.34 }]);
  for (const [item, value] of [
    ["sales", 3_500_000_000_000],
    ["sales", -42],
    ["eps", 120],
    ["eps", -7],
  ] as const) {
    const read = sourceDecimals(p, (r) => (r as unknown as Record<string, unknown>)[item]);
    expect(roundedToItem(p, item, value)).toBe(roundToDecimals(value, read));
    expect(roundedToItem(p, item, value)).toBe(value);
  }
});

test("no -0: a whole zero is 0, as roundToDecimals gives", () => {
  const p = periods([{ sales: 0 }]);
  expect(Object.is(roundedToItem(p, "sales", -0), 0)).toBe(true);
  expect(Object.is(roundToDecimals(-0, 0), 0)).toBe(true);
});

test("the same result for an answer that is not frozen (no index kept)", () => {
  const rows = [{ fiscal_year: "2024/03", eps: 1.5 }] as unknown as FinancialsPeriod[];
  expect(roundedToItem(rows, "eps", 0.1 + 0.2)).toBe(0.3);
  expect(roundedToItem(rows, "eps", 3)).toBe(3);
});
