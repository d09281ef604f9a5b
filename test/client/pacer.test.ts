// Pacing: never more than N requests in any rolling minute, first come first served, abortable waits.

import { AbortError } from "../../src/client/errors";
import { Pacer } from "../../src/client/pacer";
import { createClient } from "../../src/client/client";
import { TEST_KEY, apiError, flush, recordingFetch, reply } from "./helpers";

/** Acquires and sends at once (what a caller that sends right after the grant does). */
async function take(pacer: Pacer, signal?: AbortSignal): Promise<void> {
  const permit = await pacer.acquire(signal);
  permit.sent();
  permit.done();
}

describe("Pacer", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test("grants the first N at once and the next one when the oldest token is a minute (+1 s margin) old", async () => {
    const pacer = new Pacer({ ratePerMinute: 3 });
    const granted: number[] = [];
    for (let i = 0; i < 5; i += 1) void take(pacer).then(() => granted.push(i));
    await jest.advanceTimersByTimeAsync(0);
    expect(granted).toEqual([0, 1, 2]);
    await jest.advanceTimersByTimeAsync(60_999);
    expect(granted).toEqual([0, 1, 2]);
    await jest.advanceTimersByTimeAsync(1);
    expect(granted).toEqual([0, 1, 2, 3, 4]);
  });

  test("is FIFO: waiters are served in arrival order", async () => {
    const pacer = new Pacer({ ratePerMinute: 1, windowMs: 1000 });
    const order: string[] = [];
    await take(pacer);
    const names = ["a", "b", "c", "d"];
    const all = names.map((n) => take(pacer).then(() => order.push(n)));
    await jest.advanceTimersByTimeAsync(4000);
    await Promise.all(all);
    expect(order).toEqual(names);
  });

  test("an aborted waiter leaves the queue with AbortError and does not spend a token", async () => {
    const pacer = new Pacer({ ratePerMinute: 1, windowMs: 1000 });
    await take(pacer);
    const controller = new AbortController();
    const aborted = take(pacer, controller.signal).catch((e: unknown) => e);
    const next = jest.fn();
    void take(pacer).then(next);
    expect(pacer.waiting).toBe(2);
    controller.abort();
    expect(await aborted).toBeInstanceOf(AbortError);
    expect(pacer.waiting).toBe(1);
    await jest.advanceTimersByTimeAsync(1000);
    expect(next).toHaveBeenCalledTimes(1);
  });

  test("0 turns pacing off", async () => {
    const pacer = new Pacer({ ratePerMinute: 0 });
    await Promise.all(Array.from({ length: 1000 }, () => take(pacer)));
    expect(pacer.waiting).toBe(0);
  });

  test("an injected clock and sleep drive the waits", async () => {
    let now = 0;
    const sleeps: number[] = [];
    const pacer = new Pacer({
      ratePerMinute: 2,
      now: () => now,
      sleep: async (ms) => {
        sleeps.push(ms);
        now += ms;
      },
    });
    await take(pacer);
    now = 10_000;
    await take(pacer);
    await take(pacer);
    // Window = 60 s + the 1 s arrival margin.
    expect(sleeps).toEqual([51_000]);
    expect(now).toBe(61_000);
  });
});

describe("Pacer: tokens are spent when sent", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test("a token is stamped when the request is sent, not when granted: a late send returns its token late", async () => {
    let now = 0;
    const pacer = new Pacer({ ratePerMinute: 1, windowMs: 60_000, now: () => now });
    const permit = await pacer.acquire();
    // A long microtask backlog: the request actually leaves 5 s after the grant.
    now = 5_000;
    permit.sent();
    permit.done();
    const next = jest.fn();
    void pacer.acquire().then(next);
    now = 60_000;
    await jest.advanceTimersByTimeAsync(55_000);
    // Stamped at grant time the token would be back at 60 s; stamped at send it is back at 65 s.
    expect(next).not.toHaveBeenCalled();
    now = 65_000;
    await jest.advanceTimersByTimeAsync(5_000);
    expect(next).toHaveBeenCalledTimes(1);
  });

  test("granted but unsent permits hold their token: the next caller waits; done() unsent hands it back", async () => {
    const pacer = new Pacer({ ratePerMinute: 1 });
    const permit = await pacer.acquire();
    const next = jest.fn();
    void pacer.acquire().then(next);
    await jest.advanceTimersByTimeAsync(120_000);
    expect(next).not.toHaveBeenCalled();
    permit.done(); // e.g. no API key: nothing was sent
    await jest.advanceTimersByTimeAsync(0);
    expect(next).toHaveBeenCalledTimes(1);
  });
});

describe("Pacer: shared 429 pause", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test.each([
    ["Retry-After 0", 0],
    ["a negative Retry-After", -5_000],
    ["no Retry-After", undefined],
  ])("%s pauses every waiter for the floor (2 s)", async (_name, retryAfterMs) => {
    const pacer = new Pacer({ ratePerMinute: 100 });
    pacer.pause(retryAfterMs);
    expect(pacer.status().pausedUntil).toBe(Date.now() + 2_000);
    const granted = jest.fn();
    for (let i = 0; i < 3; i += 1) void take(pacer).then(granted);
    await jest.advanceTimersByTimeAsync(1_999);
    expect(granted).not.toHaveBeenCalled();
    expect(pacer.status()).toMatchObject({ waiting: 3, estimatedWaitMs: 1 });
    await jest.advanceTimersByTimeAsync(1);
    expect(granted).toHaveBeenCalledTimes(3);
    expect(pacer.status().pausedUntil).toBeUndefined();
  });

  test("a longer pause is not shortened by a later shorter one", async () => {
    const pacer = new Pacer({ ratePerMinute: 100 });
    pacer.pause(10_000);
    pacer.pause(0);
    expect(pacer.status().pausedUntil).toBe(Date.now() + 10_000);
  });
});

describe("client pacing", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test("61 calls within a minute: 60 go out, the 61st waits for the minute (+1 s margin) to pass", async () => {
    const rec = recordingFetch(() => reply(200, { security_code: "x", peers: [], reason: null }));
    const client = createClient({ apiKey: TEST_KEY, fetch: rec.fetch, ratePerMinute: 60 });
    const calls = Array.from({ length: 61 }, (_, i) =>
      client.peers({ security_code: String(1301 + i) }),
    );
    await jest.advanceTimersByTimeAsync(0);
    await flush();
    expect(rec.requests).toHaveLength(60);
    await jest.advanceTimersByTimeAsync(60_999);
    expect(rec.requests).toHaveLength(60);
    await jest.advanceTimersByTimeAsync(1);
    await Promise.all(calls);
    expect(rec.requests).toHaveLength(61);
    expect(rec.requests[60]?.url).toContain("security_code=1361");
    expect(client.stats().requestsSent).toBe(61);
  });

  test("cache hits do not spend tokens", async () => {
    const rec = recordingFetch(() =>
      reply(200, { security_code: "7203", peers: [], reason: null }),
    );
    const client = createClient({ apiKey: TEST_KEY, fetch: rec.fetch, ratePerMinute: 1 });
    await client.peers({ security_code: "7203" });
    for (let i = 0; i < 10; i += 1) await client.peers({ security_code: "7203" });
    expect(rec.requests).toHaveLength(1);
    expect(client.stats().cacheHits).toBe(10);
  });

  test("a 429 pauses the shared pacer: every request waits out Retry-After, one retry each, no second 429", async () => {
    let limited = true;
    const rec = recordingFetch(() =>
      limited
        ? apiError(429, "rate_limited", "Too many requests per minute", { "Retry-After": "7" })
        : reply(200, { security_code: "x", peers: [], reason: null }),
    );
    const client = createClient({ apiKey: TEST_KEY, fetch: rec.fetch, ratePerMinute: 60 });
    const first = client.peers({ security_code: "1301" });
    await jest.advanceTimersByTimeAsync(0);
    await flush();
    expect(rec.requests).toHaveLength(1);
    expect(client.queueStatus().pausedUntil).toBe(Date.now() + 7_000);
    limited = false;
    // Requests asked during the pause wait for it instead of running into the limit.
    const others = ["1302", "1303"].map((c) => client.peers({ security_code: c }));
    await jest.advanceTimersByTimeAsync(6_999);
    expect(rec.requests).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    await Promise.all([first, ...others]);
    // The pause ends and the retry and the two others are granted together (the retry waits behind
    // the per-request deadline's guard, so which of the three leaves first is microtask order).
    const sent = rec.requests.map((r) => new URL(r.url).searchParams.get("security_code"));
    expect(sent[0]).toBe("1301");
    expect(sent.slice(1).sort()).toEqual(["1301", "1302", "1303"]);
    expect(client.stats().retries).toBe(1);
  });

  test("a 429 with Retry-After in the past still pauses for the floor", async () => {
    const rec = recordingFetch((_req, i) =>
      i === 0
        ? apiError(429, "rate_limited", "Too many requests per minute", {
            "Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT",
          })
        : reply(200, { security_code: "x", peers: [], reason: null }),
    );
    const client = createClient({ apiKey: TEST_KEY, fetch: rec.fetch, ratePerMinute: 60 });
    const call = client.peers({ security_code: "1301" });
    await jest.advanceTimersByTimeAsync(1_999);
    expect(rec.requests).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    await call;
    expect(rec.requests).toHaveLength(2);
  });
});
