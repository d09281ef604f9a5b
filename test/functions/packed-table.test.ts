// A kept table (defineTable's, for warm recalculations) gives back the table it was given, whatever it holds.

import { keepTable, tableOf } from "../../functions/cells/packed-table";
import { assertWithinLimits } from "../../src/excel/limits";
import { EMPTY, type Cell } from "../../src/excel/values";

test("a spill of numbers and empty cells comes back equal, title and headers included, every time", () => {
  const built: Cell[][] = [
    ["7203", "prices", 46000, "source"],
    ["date", "close", "volume", EMPTY],
    [46000, 2845.5, 1_200_000, EMPTY],
    [45999, EMPTY, 0, -0],
    [45998, -12.25, 9_007_199_254_740_991, 1e-9],
  ];
  const expected = built.map((row) => row.slice());
  const kept = keepTable(built);
  const first = tableOf(kept);
  const second = tableOf(kept);
  expect(first).toEqual(expected);
  expect(second).toEqual(expected);
  // -0 and "" stay what they were (not 0, not NaN, not null).
  expect(Object.is(first[3]?.[3], -0)).toBe(true);
  expect(first[3]?.[1]).toBe(EMPTY);
  // Each call gets its own rows: a caller changing one does not change the next call's table.
  (first[2] as Cell[])[1] = 1;
  expect(tableOf(kept)[2]?.[1]).toBe(2845.5);
  // The head rows are shared, frozen.
  expect(Object.isFrozen(tableOf(kept)[0])).toBe(true);
});

test("a table with text or formatted numbers in its last rows is kept as built and shared frozen", () => {
  const built: Cell[][] = [
    ["fiscal_year", "per"],
    ["2024/03", { type: "Double", basicValue: 12.5, numberFormat: "0.0" }],
  ];
  const kept = keepTable(built);
  const again = tableOf(kept);
  expect(again).toBe(built);
  expect(tableOf(kept)).toBe(again);
  expect(Object.isFrozen(again)).toBe(true);
  expect(Object.isFrozen(again[1])).toBe(true);
});

test("a ragged table (a short last row) comes back equal", () => {
  const built: Cell[][] = [["date", "close"], [46000, 1], [45999]];
  const expected = built.map((row) => row.slice());
  expect(tableOf(keepTable(built))).toEqual(expected);
});

test("a kept spill given again is vouched for against Excel's limits, not counted cell by cell again", () => {
  const built: Cell[][] = [
    ["date", "close"],
    [46000, 1],
    [45999, 2],
  ];
  const kept = keepTable(built);
  // A byte limit this small refuses any table that is counted: the copy passes because the
  // table it was packed from was checked when it was built (define-table.ts settled).
  expect(assertWithinLimits(tableOf(kept), 10)).toEqual([
    ["date", "close"],
    [46000, 1],
    [45999, 2],
  ]);
  expect(() =>
    assertWithinLimits(
      [
        ["date", "close"],
        [46000, 1],
        [45999, 2],
      ],
      10,
    ),
  ).toThrow();
});
