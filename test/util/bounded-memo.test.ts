// BoundedMemo: the one bound policy of the per-argument caches (parsers, client fast path).
import { BoundedMemo } from "../../src/util/bounded-memo";

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
