// Pacing and deadlines on a monotonic clock, under arrival jitter and a 429 in the middle of a long queue.

import { createClient } from "../../src/client/client";
import { RateLimiter } from "../../sandbox/lib/rate-limiter";
import { TEST_KEY, apiError, recordingFetch, reply } from "./helpers";

const HOUR = 3_600_000;
const MINUTE = 60_000;

/** An answer of /securities/{code}/peers for `url`'s code. */
function peersOf(url: string) {
  const code = new URL(url).searchParams.get("security_code") ?? "";
  return reply(200, { security_code: code, peers: [], reason: null });
}

/** Four-digit codes 1000, 1001, … (distinct requests). */
const codes = (n: number, from = 1000) => Array.from({ length: n }, (_, i) => String(from + i));

interface Settled {
  fulfilled: number;
  rejected: unknown[];
}

/** Moves fake time a second at a time until every call settled (or `maxMs` passed). */
async function settleAll(calls: Promise<unknown>[], maxMs: number): Promise<Settled> {
  const out: Settled = { fulfilled: 0, rejected: [] };
  let open = calls.length;
  for (const call of calls)
    void call.then(
      () => ((out.fulfilled += 1), (open -= 1)),
      (err: unknown) => (out.rejected.push(err), (open -= 1)),
    );
  for (let t = 0; t < maxMs && open > 0; t += 1_000) await jest.advanceTimersByTimeAsync(1_000);
  return out;
}

describe("a wall clock that jumps neither stalls nor bursts the requests", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test("set back an hour after a minute's 60 requests: the 61st leaves a minute after the first, not an hour", async () => {
    const rec = recordingFetch((req) => peersOf(req.url));
    const client = createClient({ apiKey: TEST_KEY, fetch: rec.fetch, ratePerMinute: 60 });
    const first = codes(60).map((c) => client.peers({ security_code: c }));
    await jest.advanceTimersByTimeAsync(0);
    await Promise.all(first);
    expect(rec.requests).toHaveLength(60);
    jest.setSystemTime(Date.now() - HOUR);
    const late = client.peers({ security_code: "2000" });
    await jest.advanceTimersByTimeAsync(61_000);
    await expect(late).resolves.toMatchObject({ security_code: "2000" });
    expect(rec.requests).toHaveLength(61);
  });

  test("set forward an hour: the 60 tokens spent a moment ago stay spent (no second 60 in the same minute)", async () => {
    const rec = recordingFetch((req) => peersOf(req.url));
    const client = createClient({ apiKey: TEST_KEY, fetch: rec.fetch, ratePerMinute: 60 });
    const first = codes(60).map((c) => client.peers({ security_code: c }));
    await jest.advanceTimersByTimeAsync(0);
    await Promise.all(first);
    jest.setSystemTime(Date.now() + HOUR);
    const next = codes(60, 2000).map((c) => client.peers({ security_code: c }));
    await jest.advanceTimersByTimeAsync(30_000);
    expect(rec.requests).toHaveLength(60);
    await jest.advanceTimersByTimeAsync(31_000);
    await Promise.all(next);
    expect(rec.requests).toHaveLength(120);
  });

  test("set forward an hour during a retry's backoff: the retry is sent and the call answers (the deadline is not over)", async () => {
    let calls = 0;
    const rec = recordingFetch((req) => {
      calls += 1;
      if (calls === 1) {
        // The server fails once; while the client backs off the wall clock jumps.
        setTimeout(() => jest.setSystemTime(Date.now() + HOUR), 100);
        return apiError(503, "unavailable", "Try again later.");
      }
      return peersOf(req.url);
    });
    const client = createClient({
      apiKey: TEST_KEY,
      fetch: rec.fetch,
      ratePerMinute: 60,
      random: () => 0.5,
    });
    const call = client.peers({ security_code: "7203" }, { call: {} });
    const settled = await settleAll([call], 10 * MINUTE);
    expect(settled).toEqual({ fulfilled: 1, rejected: [] });
    expect(rec.requests).toHaveLength(2);
  });
});

/** An unpaced client answering peers, on a wall clock the test sets (`wall.now`). */
function wallClockClient() {
  const wall = { now: Date.parse("2026-11-20T09:00:00Z") };
  const rec = recordingFetch((req) => peersOf(req.url));
  const client = createClient({
    apiKey: TEST_KEY,
    fetch: rec.fetch,
    ratePerMinute: 0,
    now: () => wall.now,
  });
  return { wall, rec, client };
}

describe("stored answers when the wall clock is set back", () => {
  test("set back an hour, or a day and put right: answers stored since are still fresh, nothing is sent again", async () => {
    const { wall, rec, client } = wallClockClient();
    await client.peers({ security_code: "7203" });
    wall.now -= HOUR;
    await client.peers({ security_code: "7203" });
    wall.now -= 23 * HOUR;
    await client.peers({ security_code: "7203" });
    wall.now += 24 * HOUR + MINUTE;
    await client.peers({ security_code: "7203" });
    expect(rec.requests).toHaveLength(1);
  });

  test("set back three days: an answer stamped that far ahead has no known age and is asked again", async () => {
    const { wall, rec, client } = wallClockClient();
    await client.peers({ security_code: "7203" });
    wall.now -= 72 * HOUR;
    await client.peers({ security_code: "7203" });
    expect(rec.requests).toHaveLength(2);
  });
});

describe("pacing that holds when arrivals lag their sends by varying delays", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test("the first minute's requests arrive 3 s late, the next ones at once: the server's rolling minute never holds more than 60, no 429", async () => {
    // The sandbox's own limiter (every arrival later than now - 60 s counts), on the fake clock.
    const limiter = new RateLimiter({ ratePerMinute: 60, dailyLimit: 1e9, clock: Date.now });
    const arrivals: number[] = [];
    let refused = 0;
    const rec = recordingFetch(async (req, i) => {
      // A busy machine: the first 60 leave the process 3 s after they were handed to fetch.
      await new Promise((resolve) => setTimeout(resolve, i < 60 ? 3_000 : 0));
      try {
        limiter.consume("k");
      } catch {
        refused += 1;
        return apiError(429, "rate_limited", "Too many requests.", { "Retry-After": "1" });
      }
      arrivals.push(Date.now());
      return peersOf(req.url);
    });
    const client = createClient({ apiKey: TEST_KEY, fetch: rec.fetch, ratePerMinute: 60 });
    const calls = codes(130).map((c) => client.peers({ security_code: c }));
    const settled = await settleAll(calls, 10 * MINUTE);
    expect(settled).toEqual({ fulfilled: 130, rejected: [] });
    expect(refused).toBe(0);
    for (const at of arrivals)
      expect(arrivals.filter((t) => t > at - MINUTE && t <= at).length).toBeLessThanOrEqual(60);
  });

  test("a 429 that still comes lowers the rate for a while: the next minute sends 54, not 60", async () => {
    const rec = recordingFetch((req, i) =>
      i === 0
        ? apiError(429, "rate_limited", "Too many requests.", { "Retry-After": "1" })
        : peersOf(req.url),
    );
    const client = createClient({ apiKey: TEST_KEY, fetch: rec.fetch, ratePerMinute: 60 });
    const calls = codes(200).map((c) => client.peers({ security_code: c }));
    await jest.advanceTimersByTimeAsync(0);
    expect(client.queueStatus().slowedTo).toBe(54);
    // The first minute's 60 tokens come back after 61 s; the second minute grants 54 of them.
    await jest.advanceTimersByTimeAsync(120_500);
    expect(rec.requests).toHaveLength(60 + 54);
    const settled = await settleAll(calls, 20 * MINUTE);
    expect(settled).toEqual({ fulfilled: 200, rejected: [] });
    expect(rec.requests).toHaveLength(201);
  });
});

describe("a cell's bound counts the API's slowness, never the add-in's own queue", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test("one 429 (Retry-After 30) in the middle of a 300-request queue: no call gives up; requests = 300 + the one retried", async () => {
    let n = 0;
    const rec = recordingFetch((req) => {
      n += 1;
      return n === 150
        ? apiError(429, "rate_limited", "Too many requests.", { "Retry-After": "30" })
        : peersOf(req.url);
    });
    const client = createClient({ apiKey: TEST_KEY, fetch: rec.fetch, ratePerMinute: 60 });
    // One call scope per request, as each cell has (functions/run.ts).
    const calls = codes(300).map((c) => client.peers({ security_code: c }, { call: {} }));
    const settled = await settleAll(calls, 30 * MINUTE);
    expect(settled.rejected).toEqual([]);
    expect(settled.fulfilled).toBe(300);
    expect(rec.requests).toHaveLength(301);
    expect(new Set(rec.requests.map((r) => r.url)).size).toBe(300);
  });

  test("a cell that gave up behind a pause longer than its bound is recalculated when its answer arrives, with no manual recalculation", async () => {
    const rec = recordingFetch((req) =>
      new URL(req.url).searchParams.get("security_code") === "1301"
        ? apiError(429, "rate_limited", "Too many requests.", { "Retry-After": "200" })
        : peersOf(req.url),
    );
    const client = createClient({ apiKey: TEST_KEY, fetch: rec.fetch, ratePerMinute: 1 });
    const recalculated: string[][] = [];
    client.revalidation().onRecalculate((cells) => recalculated.push(cells));
    const cell = (code: string, address: string) =>
      client
        .peers({ security_code: code }, { call: {}, staleSink: { stale: false, address } })
        .catch((err: unknown) => err);
    const a1 = cell("1301", "Sheet1!A1");
    const a2 = cell("1302", "Sheet1!A2"); // queued behind A1's token (one a minute)
    await jest.advanceTimersByTimeAsync(0);
    // The pause (200 s) outlasts A2's whole bound: it settles now rather than show #BUSY!.
    expect(await a2).toMatchObject({ message: "Still waiting for the API: recalculate to retry" });
    expect(await a1).toMatchObject({ status: 429 });
    expect(recalculated).toEqual([]);
    // Its request goes on without it, after the pause; the answer recalculates the cell.
    await jest.advanceTimersByTimeAsync(200_000);
    expect(recalculated).toEqual([["Sheet1!A2"]]);
    const urls = rec.requests.map((r) => new URL(r.url).searchParams.get("security_code"));
    expect(urls).toEqual(["1301", "1302"]);
    // The recalculated cell reads the stored answer: nothing more is sent.
    await expect(cell("1302", "Sheet1!A2")).resolves.toMatchObject({ security_code: "1302" });
    expect(rec.requests).toHaveLength(2);
  });
});
