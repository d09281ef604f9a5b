// TableMemo gives back the table it was given for the same answer and signature, whatever it holds.

import { TableMemo } from "../../functions/cells/table-memo";
import { EMPTY, type Cell } from "../../src/excel/values";

const answer = (): object => Object.freeze({ prices: [] });

test("a spill of numbers and empty cells comes back equal, title and headers included, every time", () => {
  const memo = new TableMemo();
  const body = answer();
  const built: Cell[][] = [
    ["7203", "prices", 46000, "source"],
    ["date", "close", "volume", EMPTY],
    [46000, 2845.5, 1_200_000, EMPTY],
    [45999, EMPTY, 0, -0],
    [45998, -12.25, 9_007_199_254_740_991, 1e-9],
  ];
  const expected = built.map((row) => row.slice());
  memo.set(body, "a", built);
  const first = memo.get(body, "a");
  const second = memo.get(body, "a");
  expect(first).toEqual(expected);
  expect(second).toEqual(expected);
  // -0 and "" stay what they were (not 0, not NaN, not null).
  expect(Object.is(first?.[3]?.[3], -0)).toBe(true);
  expect(first?.[3]?.[1]).toBe(EMPTY);
  // Each call gets its own rows: a caller changing one does not change the next call's table.
  (first?.[2] as Cell[])[1] = 1;
  expect(memo.get(body, "a")?.[2]?.[1]).toBe(2845.5);
});

test("a table with text or formatted numbers in its last rows is kept as built and shared frozen", () => {
  const memo = new TableMemo();
  const body = answer();
  const built: Cell[][] = [
    ["fiscal_year", "per"],
    ["2024/03", { type: "Double", basicValue: 12.5, numberFormat: "0.0" }],
  ];
  memo.set(body, "v", built);
  const again = memo.get(body, "v");
  expect(again).toBe(built);
  expect(Object.isFrozen(again)).toBe(true);
  expect(Object.isFrozen(again?.[1])).toBe(true);
});

test("tables are told apart by answer and signature, and an answer that is not frozen is not kept", () => {
  const memo = new TableMemo();
  const a = answer();
  const b = answer();
  memo.set(a, "x", [[1, 2]]);
  memo.set(a, "y", [[3, 4]]);
  expect(memo.get(a, "x")).toEqual([[1, 2]]);
  expect(memo.get(a, "y")).toEqual([[3, 4]]);
  expect(memo.get(b, "x")).toBeUndefined();
  const open = { prices: [] };
  memo.set(open, "x", [[5]]);
  expect(memo.get(open, "x")).toBeUndefined();
});
