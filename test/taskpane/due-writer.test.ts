// The runtime keeps the workbook's due record in its settings: written once the cells and the background are settled, merged with what the open left as saved, not rewritten unchanged, never into a workbook with nothing to vouch for.

import { EMPTY_REVALIDATION } from "../../taskpane/state/revalidation-model";
import type { DueRecord } from "../../taskpane/open/due-record";
import { keepDueRecord, type DueWriterPort } from "../../taskpane/open/due-writer";
import type { OpenResult } from "../../taskpane/open/morning-open";

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

const NOW = Date.parse("2026-11-21T00:00:00Z");
const HOUR = 3_600_000;

function open(over: Partial<OpenResult> = {}): OpenResult {
  return {
    cells: 3,
    calledBy: "recalculated",
    recalculated: 1,
    kept: 2,
    keptGroups: new Set(),
    due: EMPTY_REVALIDATION,
    ...over,
  };
}

function port(state: {
  held: Array<[string, { body: unknown; storedAt: number; freshUntil?: number }]>;
  answered: number;
  idle: boolean;
  open: OpenResult | undefined;
  setting?: unknown;
}) {
  const writes: DueRecord[] = [];
  const p: DueWriterPort = {
    held: () => Promise.resolve(state.held),
    cellsAnswered: () => state.answered,
    idle: () => state.idle,
    open: () => state.open,
    read: () => state.setting,
    write: (r) => {
      writes.push(r);
      state.setting = r;
      return Promise.resolve();
    },
    now: () => NOW,
  };
  return { port: p, writes };
}

test("written once the cells have stopped answering and the background is idle; not again while nothing moved", async () => {
  const state = {
    held: [
      ["p/securities/7203/prices?limit=1", { body: {}, storedAt: NOW, freshUntil: NOW + HOUR }],
    ] as Array<[string, { body: unknown; storedAt: number; freshUntil?: number }]>,
    answered: 10,
    idle: false,
    open: open(),
  };
  const { port: p, writes } = port(state);
  const stop = keepDueRecord(p, 1_000);
  await jest.advanceTimersByTimeAsync(5_000);
  // The background still works: a record now would vouch for cells about to change.
  expect(writes).toEqual([]);
  state.idle = true;
  state.answered = 14;
  await jest.advanceTimersByTimeAsync(1_000);
  // Cells answered within the last check: not yet.
  expect(writes).toEqual([]);
  await jest.advanceTimersByTimeAsync(1_000);
  expect(writes).toEqual([{ v: 1, due: { "7203|getPrices": NOW + HOUR } }]);
  await jest.advanceTimersByTimeAsync(10_000);
  expect(writes).toHaveLength(1);
  // An answer replaced and its cells recalculated: written again.
  state.held = [
    ["p/securities/7203/prices?limit=1", { body: {}, storedAt: NOW, freshUntil: NOW + 2 * HOUR }],
  ];
  state.answered = 15;
  await jest.advanceTimersByTimeAsync(3_000);
  expect(writes.map((w) => w.due)).toEqual([
    { "7203|getPrices": NOW + HOUR },
    { "7203|getPrices": NOW + 2 * HOUR },
  ]);
  stop();
});

test("the cells the open left as saved keep the old record's expiry (the earlier one)", async () => {
  const old: DueRecord = {
    v: 1,
    due: { "7203|getFinancials": NOW + HOUR, "6758|getFinancials": NOW + HOUR },
  };
  const { port: p, writes } = port({
    held: [
      [
        "p/financials?security_code=7203&years=30",
        { body: {}, storedAt: NOW, freshUntil: NOW + 5 * HOUR },
      ],
    ],
    answered: 1,
    idle: true,
    open: open({ dueRecord: old, keptGroups: new Set(["6758|getFinancials"]) }),
    setting: old,
  });
  const stop = keepDueRecord(p, 1_000);
  await jest.advanceTimersByTimeAsync(3_000);
  expect(writes).toEqual([
    { v: 1, due: { "7203|getFinancials": NOW + 5 * HOUR, "6758|getFinancials": NOW + HOUR } },
  ]);
  stop();
});

test("a workbook with nothing to vouch for and no record is left untouched (no write dirties it)", async () => {
  const { port: p, writes } = port({ held: [], answered: 0, idle: true, open: open({ cells: 0 }) });
  const stop = keepDueRecord(p, 1_000);
  await jest.advanceTimersByTimeAsync(10_000);
  expect(writes).toEqual([]);
  stop();
});

test("nothing is written before the open is done (its kept cells are not known yet)", async () => {
  const { port: p, writes } = port({
    held: [
      ["p/securities/7203/prices?limit=1", { body: {}, storedAt: NOW, freshUntil: NOW + HOUR }],
    ],
    answered: 3,
    idle: true,
    open: undefined,
  });
  const stop = keepDueRecord(p, 1_000);
  await jest.advanceTimersByTimeAsync(10_000);
  expect(writes).toEqual([]);
  stop();
});
