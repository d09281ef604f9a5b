// Cells of changed answers are recalculated in one merged batch, across a session change too.

import { Revalidator, type RevalidationTask } from "../../src/client";
import { recalcOnRevalidation } from "../../taskpane/recalc-on-revalidation";

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

function task(key: string, changed: boolean): RevalidationTask {
  return {
    key,
    company: key,
    filing: false,
    rank: 0,
    refresh: () => Promise.resolve(changed),
    touch: () => Promise.resolve(),
  };
}

test("the cells of answers that changed are recalculated once, merged; unchanged ones are not", async () => {
  const revalidator = new Revalidator({ now: () => Date.now(), intervalMs: () => 0 });
  const batches: string[][] = [];
  recalcOnRevalidation(
    () => revalidator,
    () => () => undefined,
    async (a) => {
      batches.push(a);
    },
  );
  revalidator.schedule(task("k1", true), "Sheet1!B2");
  revalidator.schedule(task("k2", true), "Sheet1!B3");
  revalidator.schedule(task("k3", false), "Sheet1!B4");
  await jest.advanceTimersByTimeAsync(1_000);
  expect(batches).toEqual([["Sheet1!B2", "Sheet1!B3"]]);
});

test("after a session change the new client's queue is followed", async () => {
  let current = new Revalidator({ now: () => Date.now(), intervalMs: () => 0 });
  let changed: () => void = () => undefined;
  const batches: string[][] = [];
  recalcOnRevalidation(
    () => current,
    (listener) => {
      changed = listener;
      return () => undefined;
    },
    async (a) => {
      batches.push(a);
    },
  );
  current = new Revalidator({ now: () => Date.now(), intervalMs: () => 0 });
  changed();
  current.schedule(task("k1", true), "Model!C9");
  await jest.advanceTimersByTimeAsync(1_000);
  expect(batches).toEqual([["Model!C9"]]);
});
