// BoundedMemo: the one bound policy of the per-argument caches (parsers, client fast path).
import { BoundedMemo, entryOf } from "../../src/util/bounded-memo";

test("remembers values and returns what it stored", () => {
  const memo = new BoundedMemo<string, number>(3);
  expect(memo.get("a")).toBeUndefined();
  expect(memo.set("a", 1)).toBe(1);
  expect(memo.get("a")).toBe(1);
  expect(memo.has("a")).toBe(true);
  expect(memo.has("b")).toBe(false);
});

test("a full memo starts over when a new key arrives instead of growing", () => {
  const memo = new BoundedMemo<string, number>(2);
  memo.set("a", 1);
  memo.set("b", 2);
  memo.set("c", 3); // full and "c" is new: cleared, then "c" alone
  expect(memo.get("c")).toBe(3);
  expect(memo.has("a")).toBe(false);
  expect(memo.has("b")).toBe(false);
});

test("replacing a key a full memo already holds keeps every other entry", () => {
  const memo = new BoundedMemo<string, number>(2);
  memo.set("a", 1);
  memo.set("b", 2);
  memo.set("a", 10);
  expect([memo.get("a"), memo.get("b")]).toEqual([10, 2]);
});

describe("entryOf", () => {
  test("makes a value once per key and returns the stored one after, for Maps and WeakMaps", () => {
    const map = new Map<string, string[]>();
    let made = 0;
    const make = () => {
      made += 1;
      return [] as string[];
    };
    const a = entryOf(map, "a", make);
    expect(entryOf(map, "a", make)).toBe(a);
    expect(entryOf(map, "b", make)).not.toBe(a);
    expect(made).toBe(2);
    const weak = new WeakMap<object, number>();
    const key = {};
    expect(entryOf(weak, key, () => 7)).toBe(7);
    expect(entryOf(weak, key, () => 8)).toBe(7);
  });
});
