// The filing window with an expected results day (src/client/freshness.ts with src/client/results-day.ts):
// daily checks from it on, the every-third-day cadence only where history predicts nothing.

import {
  lifetimeOf,
  maxAgeSlot,
  nextJstMidnight,
  windowCheckDay,
  type CompanyKnowledge,
} from "../../src/client/freshness";
import { CodeRegistry } from "../../src/client/code-map";
import { Revalidator, type RevalidationTask } from "../../src/client/revalidator";
import { annual, jst, MARCH_2026 } from "./results-day-fixtures";

const DAY = 86_400_000;
/** The window of the year ending March 2026: from 1 April to the annual report's deadline. */
const OPENED = jst("2026-04-01T00:00:00");
const CLOSES = jst("2026-07-01T00:00:00");

/** What answers told, with this company's checks daily from `from` (null: history predicts nothing). */
function knowing(from: number | null | undefined): CompanyKnowledge {
  const known = new CodeRegistry().knowledge("key");
  known.dailyChecksFrom = (_company, period) => (period === MARCH_2026 ? from : null);
  return known;
}

test("no history: the window's cadence (every third day in its first half); with one: the next morning", () => {
  const from = jst("2026-05-06T00:00:00");
  let differs = 0;
  for (const stored of ["2026-05-11T10:00:00", "2026-05-12T10:00:00", "2026-05-13T10:00:00"]) {
    const t = jst(stored);
    const cadence = annual(t, knowing(null));
    expect(cadence).toMatchObject({ changeExpected: true, company: "7203" });
    expect(cadence.awaits).toBeUndefined();
    expect(cadence.freshUntil).toBe(
      Math.min(windowCheckDay("7203", t, OPENED, CLOSES), maxAgeSlot("7203", t)),
    );
    const predicted = annual(t, knowing(from));
    expect(predicted.freshUntil).toBe(nextJstMidnight(t));
    if (cadence.freshUntil > predicted.freshUntil) differs += 1;
  }
  // The cadence skips days the expected results day does not.
  expect(differs).toBeGreaterThan(0);
});

test("from its expected day's checks on, the company is due every JST midnight until the period arrives", () => {
  const from = jst("2026-05-06T00:00:00");
  for (const stored of ["2026-05-06T09:00:00", "2026-05-11T10:00:00", "2026-05-12T22:00:00"]) {
    const t = jst(stored);
    expect(annual(t, knowing(from))).toMatchObject({
      freshUntil: nextJstMidnight(t),
      changeExpected: true,
    });
  }
});

test("before its expected day's checks, the company is not asked (the budget goes to companies due)", () => {
  const from = jst("2026-05-20T00:00:00");
  const t = jst("2026-05-13T08:00:00");
  // Its weekly slot (corrections) may come first; no cadence day before it.
  expect(annual(t, knowing(from)).freshUntil).toBe(Math.min(from, maxAgeSlot("7203", t)));
  expect(annual(t, knowing(null)).freshUntil).toBeLessThan(Math.min(from, maxAgeSlot("7203", t)));
});

test("not looked up yet: the lifetime says which period it awaits and is not to be kept", () => {
  const life = annual(jst("2026-05-11T10:00:00"), knowing(undefined));
  expect(life).toMatchObject({ awaits: MARCH_2026, provisional: true });
});

test("the year-earlier disclosures (a closed range) stay fresh for a year; an open range keeps its TTL", () => {
  const t = jst("2026-05-11T10:00:00");
  const history = (to: string | undefined) =>
    lifetimeOf({
      operationId: "listSecurityDisclosures",
      params: { code: "7203", from: "2025-04-01", ...(to === undefined ? {} : { to }), limit: 100 },
      body: { disclosures: [] },
      storedAt: t,
      ttlMs: 12 * 3_600_000,
      known: new CodeRegistry().knowledge("key"),
    });
  expect(history("2025-06-30").freshUntil).toBe(t + 365 * DAY);
  expect(history(undefined).freshUntil).toBe(t + 12 * 3_600_000);
});

test("a results-day history goes after every figure the budget can cover, on screen or not", async () => {
  const sent: string[] = [];
  const r = new Revalidator({
    now: () => jst("2026-05-13T08:00:00"),
    intervalMs: () => 0,
    concurrency: 1,
    dailyBudget: 2,
  });
  const task = (key: string, extra: Partial<RevalidationTask>): RevalidationTask => ({
    key,
    company: key.split(" ")[0],
    filing: false,
    rank: 0,
    refresh: async () => {
      sent.push(key);
      return false;
    },
    touch: async () => undefined,
    ...extra,
  });
  r.pause();
  r.prioritize((address) => address.startsWith("'On screen'!"));
  r.schedule(task("7203 history", { lowest: true }), "'On screen'!A1");
  r.schedule(task("6758 prices", {}), "'Other'!A1");
  r.schedule(task("7267 check", { filing: true }), "'Other'!A2", true);
  expect(r.status()).toMatchObject({ unchecked: 1 });
  r.resume();
  await r.idle();
  expect(sent).toEqual(["6758 prices", "7267 check"]);
  expect(r.status()).toMatchObject({ paused: "budget", unchecked: 0 });
  r.cancel(); // no wake-up at midnight left behind
});

describe("a quarter's results later than the 45-day window (a late filer)", () => {
  /** A November company's third quarter: ended 31 August 2026, its 45 days closed 15 October. */
  const Q3 = 2026 * 12 + 7;
  /** Its quarterly answer with these rows ("2026/11 Q2"), what answers told, stored at `storedAt`. */
  const quarterly = (storedAt: number, rows: string[], from: number | null | undefined) => {
    const known = new CodeRegistry().knowledge("key");
    known.dailyChecksFrom = (_company, period) => (period === Q3 ? from : null);
    return lifetimeOf({
      operationId: "getFinancials",
      params: { security_code: "2975", period: "quarterly", years: 5 },
      body: {
        periods: rows.map((r) => {
          const [fiscal_year, quarter] = r.split(" ");
          return { fiscal_year, quarter };
        }),
      },
      storedAt,
      ttlMs: 1000,
      known,
    });
  };
  const THIS_YEAR = ["2026/11 Q1", "2026/11 Q2"];

  test("its own history puts its results day after the window: checked daily from it, marked when due", () => {
    const from = jst("2026-11-06T00:00:00");
    const before = jst("2026-10-20T10:00:00");
    expect(quarterly(before, THIS_YEAR, from)).toMatchObject({
      freshUntil: Math.min(from, maxAgeSlot("2975", before)),
      changeExpected: true,
      company: "2975",
    });
    const after = jst("2026-11-09T17:00:00");
    expect(quarterly(after, THIS_YEAR, from)).toMatchObject({
      freshUntil: Math.min(nextJstMidnight(after), maxAgeSlot("2975", after)),
      changeExpected: true,
    });
  });

  test("a quarter the answer holds a year earlier, still missing after 45 days: due every morning", () => {
    // Its results came on time last year (a day predicted inside the window) or history says nothing.
    const rows = ["2025/11 Q2", "2025/11 Q3", "2025/11", ...THIS_YEAR];
    const t = jst("2026-11-11T17:00:00");
    for (const from of [jst("2026-10-03T00:00:00"), null]) {
      const life = quarterly(t, rows, from);
      expect(life.changeExpected).toBe(true);
      expect(life.freshUntil).toBe(Math.min(nextJstMidnight(t), maxAgeSlot("2975", t)));
    }
  });

  test("a quarter it does not report: the weekly slot once its history is known to say nothing", () => {
    const t = jst("2026-11-11T17:00:00");
    expect(quarterly(t, THIS_YEAR, undefined)).toMatchObject({ awaits: Q3, provisional: true });
    expect(quarterly(t, THIS_YEAR, null)).toMatchObject({
      freshUntil: maxAgeSlot("2975", t),
      changeExpected: false,
    });
  });
});
