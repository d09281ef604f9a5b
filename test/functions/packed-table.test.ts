// A kept table (defineTable's, for warm recalculations) gives back the table it was given, whatever it holds.

import { Session } from "node:inspector";
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

test("rows of every width come back equal: numbers, fractions, -0 and empty cells", () => {
  for (let width = 1; width <= 5; width += 1) {
    const row = (first: number, empty: boolean): Cell[] =>
      Array.from({ length: width }, (_, i) =>
        empty && i === width - 1 ? EMPTY : i === 1 ? -0 : first + i * 0.25,
      );
    const built: Cell[][] = [
      Array.from({ length: width }, (_, i) => `field ${i}`),
      row(46000, false),
      row(45999, true),
      row(45998.5, false),
    ];
    const expected = built.map((r) => r.slice());
    const again = tableOf(keepTable(built));
    expect(again).toEqual(expected);
    // toEqual takes -0 for 0: each cell as it was, by Object.is.
    again.forEach((r, i) =>
      r.forEach((cell, j) => expect(Object.is(cell, expected[i]?.[j])).toBe(true)),
    );
  }
});

/** Bytes a call of `give` allocates, garbage included (V8's sampling heap profiler), over `calls` calls. */
async function bytesPerCall(give: () => unknown, calls: number): Promise<number> {
  const session = new Session();
  session.connect();
  const post = <T>(method: string, params: object = {}): Promise<T> =>
    new Promise((resolve, reject) =>
      session.post(method, params, (err, res) => (err ? reject(err) : resolve(res as T))),
    );
  const sum = (node: ProfileNode): number =>
    node.children.reduce((total, child) => total + sum(child), node.selfSize);
  try {
    await post("HeapProfiler.enable");
    await post("HeapProfiler.startSampling", {
      samplingInterval: 64,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    for (let i = 0; i < calls; i += 1) give();
    const { profile } = await post<{ profile: { head: ProfileNode } }>("HeapProfiler.stopSampling");
    return sum(profile.head) / calls;
  } finally {
    session.disconnect();
  }
}

interface ProfileNode {
  selfSize: number;
  children: ProfileNode[];
}

test("a packed PRICES spill given again costs one array of unboxed numbers per row", async () => {
  // Five years of date, close (fractions among them) and volume: a warm recalculation's PRICES spill.
  const rows = 1250;
  const built: Cell[][] = [["date", "close", "volume"]];
  // A day now and then without a volume (an empty cell): its row is not all numbers.
  for (let r = 0; r < rows; r += 1)
    built.push([46000 - r, 2800 + (r % 8) * 0.5, r % 50 === 0 ? EMPTY : 1_000_000 + r]);
  const kept = keepTable(built);
  // Optimized first, as in a long session.
  for (let i = 0; i < 200; i += 1) tableOf(kept);
  const perRow = (await bytesPerCall(() => tableOf(kept), 200)) / rows;
  // An array and its three doubles (~72 B) and its slot in the table (8 B): ~80 B. Filled cell by
  // cell, every row took the kind its allocation site learned from the rows with an empty cell
  // (any value, each fraction boxed): ~129 B.
  expect(perRow).toBeLessThan(100);
});
