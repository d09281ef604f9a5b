// A company whose results-day history is still to be fetched: checked daily from its period's end, so the morning after its results its cells are marked, never shown current on the cadence's guess.

import { CodeRegistry } from "../../src/client/code-map";
import { nextJstMidnight, type CompanyKnowledge } from "../../src/client/freshness";
import { InFlightRequests } from "../../src/client/inflight";
import { ResultsDays } from "../../src/client/results-day-history";
import { checkedDailyFromEnd, historyQuery } from "../../src/client/results-day";
import { annual, jst, MARCH_2026 } from "./results-day-fixtures";

/** Built on Monday 11 May at 10:00 JST, before that afternoon's annual results. */
const EVENING = jst("2026-05-11T10:00:00");
/** Reopened on Wednesday 13 May at 08:00 JST, once they are visible. */
const MORNING = jst("2026-05-13T08:00:00");

/** Days looked up through a port with no stored history; the queued fetches are kept, not run. */
function lookingUp() {
  const queued: string[] = [];
  // The client's one map of work under way, as client.ts hands it over.
  const work = new InFlightRequests();
  const days = new ResultsDays({
    securityOf: () => "7203",
    stored: async () => undefined,
    queue: (_company, key) => void queued.push(key),
    fetch: async () => {
      throw new Error("not asked in this test");
    },
    learned: () => undefined,
    share: (key, start) => work.begin(key, start).answer,
  });
  const known: CompanyKnowledge = new CodeRegistry().knowledge("key");
  known.dailyChecksFrom = (company, period) => days.dailyChecksFrom("key", company, period);
  return { days, known, queued };
}

test("while the history is fetched, the answer stored the evening before the results is due and marked the morning after", async () => {
  const { days, known, queued } = lookingUp();
  // Not looked up yet: the lifetime waits for the look-up (client.ts takes the full path).
  expect(annual(EVENING, known)).toMatchObject({ awaits: MARCH_2026, provisional: true });
  await days.lookUp("key", "7203", MARCH_2026, "7203");
  // The history is queued behind everything else; meanwhile the company is checked daily.
  expect(queued).toEqual([`results-day key|7203|${MARCH_2026}`]);
  expect(days.dailyChecksFrom("key", "7203", MARCH_2026)).toBe(checkedDailyFromEnd(MARCH_2026));
  const life = annual(EVENING, known);
  // Due from the next JST midnight, marked: the window is open and the period ended.
  expect(life).toMatchObject({ freshUntil: nextJstMidnight(EVENING), changeExpected: true });
  expect(life.freshUntil).toBeLessThanOrEqual(MORNING);
  expect(life.provisional).toBeUndefined();
});

test("a history that predicts nothing keeps the cadence, which skips the morning after for this company", () => {
  // What the pending look-up was read as before: the every-third-day cadence, not due that morning
  // (its cells would show last year's figure unmarked after results came out on 11 May).
  const known: CompanyKnowledge = new CodeRegistry().knowledge("key");
  known.dailyChecksFrom = () => null;
  expect(annual(EVENING, known).freshUntil).toBeGreaterThan(MORNING);
});

test("the daily checks start at the JST midnight after the period's end", () => {
  expect(checkedDailyFromEnd(MARCH_2026)).toBe(jst("2026-04-01T00:00:00"));
  // The history asked for it covers the same period a year earlier.
  expect(historyQuery("7203", MARCH_2026)).toMatchObject({ from: "2025-04-01", to: "2025-06-30" });
});

test("reads of a company's answers that wait for its results day join one look-up, in the client's map of work under way", async () => {
  const work = new InFlightRequests();
  let storedReads = 0;
  let answer: (value: undefined) => void = () => undefined;
  const days = new ResultsDays({
    securityOf: () => "7203",
    stored: () => {
      storedReads += 1;
      return new Promise((resolve) => (answer = resolve));
    },
    queue: () => undefined,
    fetch: async () => {
      throw new Error("not asked in this test");
    },
    learned: () => undefined,
    share: (key, start) => work.begin(key, start).answer,
  });
  const first = days.lookUp("key", "7203", MARCH_2026, "7203");
  const second = days.lookUp("key", "7203", MARCH_2026, "7203");
  await Promise.resolve();
  await Promise.resolve();
  // One piece of work under way, findable by whoever shares the map (the client's requests too).
  expect(work.size).toBe(1);
  expect(work.find(`results-day\u0000key|7203|${MARCH_2026}`)).toBeDefined();
  answer(undefined);
  await Promise.all([first, second]);
  expect(storedReads).toBe(1);
  expect(work.size).toBe(0);
  // Known now: a later read asks nothing.
  await days.lookUp("key", "7203", MARCH_2026, "7203");
  expect(storedReads).toBe(1);
});
