// The daily budget's order: what waited longest goes first, prices before filing checks, the sheet on screen before all.
import {
  Revalidator,
  type BudgetLedger,
  type RevalidationTask,
  type SpentRecord,
} from "../../src/client/revalidator";
import { storedLedger } from "../../src/revalidation-budget";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Monday 2026-10-05 08:00 JST: early in a filing window. */
const T0 = Date.UTC(2026, 9, 4, 23, 0);

/** A queue with `budget` requests a day; every request answers "unchanged" at once. */
function harness(budget: number, ledger?: BudgetLedger) {
  const sent: string[] = [];
  const revalidator = new Revalidator({
    now: Date.now,
    intervalMs: () => 1000,
    concurrency: 1,
    dailyBudget: budget,
    ledger,
  });
  const task = (
    company: string,
    kind: "prices" | "filing",
    storedAt: number,
  ): RevalidationTask => ({
    key: `${company}|${kind}`,
    company,
    filing: kind === "filing",
    rank: 0,
    storedAt,
    refresh: async () => {
      sent.push(`${company} ${kind}`);
      return false;
    },
    touch: async () => undefined,
  });
  return { sent, revalidator, task };
}

// Only timers are faked: the queue's status is pushed by microtasks.
beforeEach(() => jest.useFakeTimers({ now: T0, doNotFake: ["queueMicrotask", "nextTick"] }));
afterEach(() => jest.useRealTimers());

test("when the budget cannot cover every check, the longest-waiting go first and the rest first the next day", async () => {
  const h = harness(3);
  h.revalidator.pause(); // queued as a morning open's cells queue them, then let go
  // Queued in the order the cells asked; stored A newest ... E oldest.
  const stored = {
    A: T0 - 1 * HOUR,
    B: T0 - 2 * HOUR,
    C: T0 - 3 * HOUR,
    D: T0 - 4 * HOUR,
    E: T0 - 5 * HOUR,
  };
  for (const [company, at] of Object.entries(stored))
    h.revalidator.schedule(h.task(company, "filing", at));
  h.revalidator.resume();
  await jest.advanceTimersByTimeAsync(1000);
  expect(h.sent).toEqual(["E filing", "D filing", "C filing"]);
  expect(h.revalidator.status()).toMatchObject({ paused: "budget", companies: 2, spentToday: 3 });
  // The next morning E, D and C are due again (checked yesterday): A and B, skipped, go first.
  await jest.advanceTimersByTimeAsync(DAY);
  for (const company of ["E", "D", "C"]) h.revalidator.schedule(h.task(company, "filing", T0));
  await jest.advanceTimersByTimeAsync(1000);
  expect(h.sent.slice(3)).toEqual(["B filing", "A filing", "E filing"]);
});

test("within the budget: the sheet on screen first, then today's prices, then filing checks", async () => {
  const h = harness(3);
  h.revalidator.pause(); // queued as a morning open queues them, then let go
  h.revalidator.prioritize((address) => address.startsWith("'Model'!"));
  h.revalidator.schedule(h.task("X", "filing", T0 - 10 * HOUR), "'Comps'!B2");
  h.revalidator.schedule(h.task("Y", "filing", T0 - 10 * HOUR), "'Comps'!B3");
  h.revalidator.schedule(h.task("P", "prices", T0 - 2 * HOUR), "'Comps'!C2");
  h.revalidator.schedule(h.task("Q", "prices", T0 - 3 * HOUR), "'Comps'!C3");
  h.revalidator.schedule(h.task("Z", "filing", T0 - 1 * HOUR), "'Model'!D9");
  h.revalidator.resume();
  await jest.advanceTimersByTimeAsync(1000);
  expect(h.sent).toEqual(["Z filing", "Q prices", "P prices"]);
  expect(h.revalidator.status()).toMatchObject({ paused: "budget", companies: 2 });
});

test("a filing check that has waited two days goes ahead of the prices", async () => {
  const h = harness(2);
  h.revalidator.pause();
  h.revalidator.schedule(h.task("P", "prices", T0 - HOUR));
  h.revalidator.schedule(h.task("Q", "prices", T0 - HOUR));
  h.revalidator.schedule(h.task("S", "filing", T0 - 2 * DAY - HOUR));
  h.revalidator.resume();
  await jest.advanceTimersByTimeAsync(1000);
  expect(h.sent).toEqual(["S filing", "P prices"]);
});

test("a task's every request counts: three pages spend three of the budget", async () => {
  const h = harness(4);
  const pages: RevalidationTask = {
    ...h.task("R", "prices", T0),
    refresh: async (sent) => {
      for (let i = 0; i < 3; i += 1) sent?.();
      h.sent.push("R prices");
      return false;
    },
  };
  h.revalidator.schedule(pages);
  h.revalidator.schedule(h.task("S", "prices", T0));
  h.revalidator.schedule(h.task("T", "prices", T0));
  await jest.advanceTimersByTimeAsync(1000);
  expect(h.sent).toEqual(["R prices", "S prices"]);
  expect(h.revalidator.status()).toMatchObject({ spentToday: 4, paused: "budget", companies: 1 });
});

test("Stop calls off the midnight restart: nothing is sent the next day", async () => {
  const h = harness(1);
  h.revalidator.schedule(h.task("A", "prices", T0));
  h.revalidator.schedule(h.task("B", "prices", T0));
  await jest.advanceTimersByTimeAsync(1000);
  expect(h.revalidator.cancel()).toBe(1);
  expect(jest.getTimerCount()).toBe(0);
  await jest.advanceTimersByTimeAsync(DAY);
  expect(h.sent).toEqual(["A prices"]);
});

test("two workbooks open on one computer spend one daily budget between them", async () => {
  // The computer's ledger (localStorage in the add-in: src/revalidation-budget.ts storedLedger).
  let kept: SpentRecord | undefined;
  const ledger: BudgetLedger = { load: () => kept, save: (r) => void (kept = r) };
  const first = harness(3, ledger);
  const second = harness(3, ledger);
  first.revalidator.schedule(first.task("A", "prices", T0));
  first.revalidator.schedule(first.task("B", "prices", T0));
  await jest.advanceTimersByTimeAsync(1000);
  expect(first.sent).toEqual(["A prices", "B prices"]);
  for (const company of ["C", "D", "E"])
    second.revalidator.schedule(second.task(company, "prices", T0));
  await jest.advanceTimersByTimeAsync(1000);
  // One left for the day, not three: the second workbook reads what the first spent.
  expect(second.sent).toEqual(["C prices"]);
  expect(kept).toEqual({ day: "2026-10-05", spent: 3 });
  expect(second.revalidator.status()).toMatchObject({ spentToday: 3, paused: "budget" });
  // The first has nothing waiting: the budget is spent, but nothing of its own is held back.
  expect(first.revalidator.status()).toMatchObject({ spentToday: 3, paused: undefined });
  // The next JST day both start again from 0.
  await jest.advanceTimersByTimeAsync(DAY);
  expect(second.sent).toEqual(["C prices", "D prices", "E prices"]);
  expect(kept).toEqual({ day: "2026-10-06", spent: 2, earlier: { "2026-10-05": 3 } });
  first.revalidator.cancel();
  second.revalidator.cancel();
});

test("a clock set back a day and forward again spends no day's budget twice, in one session or the next", async () => {
  let kept: SpentRecord | undefined;
  const ledger: BudgetLedger = { load: () => kept, save: (r) => void (kept = r) };
  const h = harness(2, ledger);
  const spend = async (...companies: string[]) => {
    for (const c of companies) h.revalidator.schedule(h.task(c, "prices", Date.now()));
    await jest.advanceTimersByTimeAsync(1000);
  };
  await spend("A", "B"); // Monday's two
  jest.setSystemTime(T0 + DAY);
  await jest.advanceTimersByTimeAsync(1000);
  await spend("C", "D"); // Tuesday's two
  expect(h.sent).toEqual(["A prices", "B prices", "C prices", "D prices"]);
  // The computer's clock is set back to Monday, then put right.
  jest.setSystemTime(T0 + 2 * HOUR);
  await spend("E");
  jest.setSystemTime(T0 + DAY + 2 * HOUR);
  await spend("F");
  expect(h.sent).toHaveLength(4);
  expect(h.revalidator.status()).toMatchObject({ spentToday: 2, paused: "budget" });
  h.revalidator.cancel();
  // A reopen reads both days from the ledger: Monday's count, then Tuesday's, again.
  const reopened = harness(2, ledger);
  jest.setSystemTime(T0 + 3 * HOUR);
  reopened.revalidator.schedule(reopened.task("G", "prices", Date.now()));
  await jest.advanceTimersByTimeAsync(1000);
  jest.setSystemTime(T0 + DAY + 3 * HOUR);
  reopened.revalidator.schedule(reopened.task("H", "prices", Date.now()));
  await jest.advanceTimersByTimeAsync(1000);
  expect(reopened.sent).toEqual([]);
  expect(kept).toEqual({ day: "2026-10-06", spent: 2, earlier: { "2026-10-05": 2 } });
  reopened.revalidator.cancel();
});

test.each([
  ["text that is no JSON", "{not json"],
  ["a list", "[1,2,3]"],
  ["a count as text", '{"day":"2026-10-05","spent":"5"}'],
  ["a count that is no number", '{"day":"2026-10-05","spent":null}'],
  ["other days of another shape", '{"day":"2026-10-05","spent":1,"earlier":[7,8]}'],
  [
    "other days with bad names and counts",
    '{"day":"2026-10-05","spent":1,"earlier":{"__proto__":{"x":1},"2026-10-04":"9","x":3,"2026-10-03":-1}}',
  ],
])(
  "a kept count of another shape (%s) never breaks the budget: it still stops at the day's budget",
  async (_name, raw) => {
    // The computer's ledger as the add-in keeps it (src/revalidation-budget.ts storedLedger).
    const items = new Map<string, string>([["kaisha.revalidationSpentToday", raw]]);
    const storage = {
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => void items.set(k, v),
    } as unknown as Storage;
    const h = harness(2, storedLedger(storage));
    for (const company of ["A", "B", "C", "D"])
      h.revalidator.schedule(h.task(company, "prices", Date.now()));
    await jest.advanceTimersByTimeAsync(10_000);
    // Two at most today (one already counted where the record says so), never all four.
    expect(h.sent.length).toBeGreaterThanOrEqual(1);
    expect(h.sent.length).toBeLessThanOrEqual(2);
    expect(h.revalidator.status()).toMatchObject({ paused: "budget" });
    const kept = JSON.parse(items.get("kaisha.revalidationSpentToday") ?? "null") as SpentRecord;
    expect(kept.day).toBe("2026-10-05");
    expect(Number.isFinite(kept.spent)).toBe(true);
    h.revalidator.cancel();
  },
);
