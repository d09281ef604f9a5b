// BoundedMemo: the one bound policy of the per-argument caches (parsers, client fast path).
import { BoundedMemo } from "../../src/client/bounded-memo";

test("remembers values and returns what it stored", () => {
  const memo = new BoundedMemo<string, number>(3);
  expect(memo.get("a")).toBeUndefined();
  expect(memo.set("a", 1)).toBe(1);
  expect(memo.get("a")).toBe(1);
  expect(memo.has("a")).toBe(true);
  expect(memo.has("b")).toBe(false);
});

test("a full memo starts over instead of growing", () => {
  const memo = new BoundedMemo<string, number>(2);
  memo.set("a", 1);
  memo.set("b", 2);
  memo.set("a", 10); // full: cleared, then "a" alone
  expect(memo.get("a")).toBe(10);
  expect(memo.has("b")).toBe(false);
  memo.set("c", 3);
  expect([memo.get("a"), memo.get("c")]).toEqual([10, 3]);
});
