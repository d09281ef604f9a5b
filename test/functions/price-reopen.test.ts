// PRICE reopened the next day: the calendar-year window of the current year is found again in the
// cache (offline too), and an illiquid stock's latest day without a trade answers at once from it,
// revalidated in the background like any price.
import * as TYPED from "../../functions/index";
import { createApp } from "../../sandbox/app";
import { MemoryCacheStore, type FetchLike, freezeAnswer } from "../../src/client";
import { setClientForTesting } from "../../src/session";
import { sandboxKaishaClient } from "../client/helpers";
import { invocation, resetSession, useSandbox } from "./harness";

const KAISHA = TYPED as unknown as Record<
  keyof typeof TYPED,
  (...args: unknown[]) => Promise<unknown>
>;

jest.setTimeout(60_000);
afterAll(resetSession);

/** Thursday 2026-11-19 18:00 JST, after the close: the sandbox's data reach this day. */
const DAY1 = "2026-11-19T09:00:00Z";
/** The next day, after its close: yesterday's answers are due. */
const DAY2 = Date.parse(DAY1) + 24 * 60 * 60 * 1000;

/** A cell's number, with or without a stale mark in its number format. */
function numberOf(value: unknown): unknown {
  return typeof value === "object" && value !== null && "basicValue" in value
    ? (value as { basicValue: unknown }).basicValue
    : value;
}

/** What a reopened runtime reads back from disk: every stored answer as a new object. */
async function copyStore(from: MemoryCacheStore, to: MemoryCacheStore): Promise<void> {
  for (const key of await from.keys()) {
    const entry = from.peek(key) ?? (await from.get(key));
    if (entry !== undefined)
      await to.set(key, {
        body: freezeAnswer(structuredClone(entry.body)),
        storedAt: entry.storedAt,
        bytes: entry.bytes,
      });
  }
}

test("a PRICE on an earlier day this year, reopened offline the next day: the stored value, not #N/A", async () => {
  const evening = useSandbox({ now: Date.parse(DAY1), sandbox: { now: DAY1 } });
  const shown = await KAISHA.PRICE("7203", "close", "2026-10-01", invocation());
  expect(typeof shown).toBe("number");
  expect(evening.sent()).toBe(1);
  const morning = useSandbox({ now: DAY2, sandbox: { now: DAY1 } });
  await copyStore(evening.store, morning.store);
  morning.setDown(true);
  expect(numberOf(await KAISHA.PRICE("7203", "close", "2026-10-01", invocation()))).toBe(shown);
});

test("an illiquid stock's PRICE (no trade on the latest day), reopened the next day: answered at once from the stored window, then revalidated", async () => {
  const sandbox = createApp({ ratePerMinute: 0, now: DAY1 });
  let online = true;
  const sent: string[] = [];
  /** Requests sent while offline, waiting: failed at the end, so no timer outlives the test. */
  const waiting: Array<(error: Error) => void> = [];
  // The latest day has no trade (openapi.json SecurityDailyPrice: close null): every answer
  // reaching it says so.
  const fetch: FetchLike = async (url, init) => {
    const u = new URL(url);
    sent.push(`${u.pathname}${u.search}`);
    // Offline: no answer (a request waits as on a dead network), until aborted or the test ends.
    if (!online)
      return new Promise<never>((_, reject) => {
        waiting.push(reject);
        init.signal?.addEventListener("abort", () => reject(new Error("aborted")));
      });
    const res = await sandbox.app.request(`${u.pathname}${u.search}`, {
      method: init.method,
      headers: init.headers,
      signal: init.signal,
    });
    const body = (await res.json()) as { prices?: { date: string; close: number | null }[] };
    const newest = body.prices?.[0];
    if (newest !== undefined && newest.date === "2026-11-19") newest.close = null;
    return new Response(JSON.stringify(body), { status: res.status, headers: res.headers });
  };
  const session = (now: number, store: MemoryCacheStore) => {
    const client = sandboxKaishaClient(fetch, store, {
      sleep: async () => undefined,
      now: () => now,
      staleWhileRevalidate: true,
    });
    setClientForTesting(client, { lang: "en", headerLanguage: "keys" }, store);
  };
  const evening = new MemoryCacheStore();
  session(Date.parse(DAY1), evening);
  const shown = await KAISHA.PRICE("7203", "close", null, invocation());
  const day = await KAISHA.PRICE("7203", "date", null, invocation());
  expect(typeof shown).toBe("number");
  // The last close before the day without a trade.
  expect(day).toBeLessThan(46345); // 2026-11-19 as a serial
  // Reopened the next day with the API not answering yet: the stored answers, at once.
  const morning = new MemoryCacheStore();
  await copyStore(evening, morning);
  session(DAY2, morning);
  online = false;
  const before = sent.length;
  const again = KAISHA.PRICE("7203", "close", null, invocation());
  let timer: ReturnType<typeof setTimeout> | undefined;
  const answered = await Promise.race([
    Promise.resolve(again).then(numberOf),
    new Promise((resolve) => (timer = setTimeout(() => resolve("still waiting"), 5_000))),
  ]);
  clearTimeout(timer);
  expect(answered).toBe(shown);
  // The due answers are asked again in the background (the revalidation), not before the value.
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(sent.slice(before).every((r) => r.includes("/prices"))).toBe(true);
  // The network fails the waiting requests, and the client's bounds on them end with them: left
  // waiting, they kept jest's worker from exiting after its last suite.
  for (const fail of waiting) fail(new TypeError("offline"));
  await new Promise((resolve) => setTimeout(resolve, 0));
});
