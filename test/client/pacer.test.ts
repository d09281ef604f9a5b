// Pacing: never more than N requests in any rolling minute, first come first served, abortable waits.

import { AbortError, Pacer, createClient } from "../../src/client";
import { TEST_KEY, flush, recordingFetch, reply } from "./helpers";

describe("Pacer", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test("grants the first N at once and the next one when the oldest token is a minute (+1 s margin) old", async () => {
    const pacer = new Pacer({ ratePerMinute: 3 });
    const granted: number[] = [];
    for (let i = 0; i < 5; i += 1) void pacer.acquire().then(() => granted.push(i));
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
    await pacer.acquire();
    const names = ["a", "b", "c", "d"];
    const all = names.map((n) => pacer.acquire().then(() => order.push(n)));
    await jest.advanceTimersByTimeAsync(4000);
    await Promise.all(all);
    expect(order).toEqual(names);
  });

  test("an aborted waiter leaves the queue with AbortError and does not spend a token", async () => {
    const pacer = new Pacer({ ratePerMinute: 1, windowMs: 1000 });
    await pacer.acquire();
    const controller = new AbortController();
    const aborted = pacer.acquire(controller.signal).catch((e: unknown) => e);
    const next = jest.fn();
    void pacer.acquire().then(next);
    expect(pacer.waiting).toBe(2);
    controller.abort();
    expect(await aborted).toBeInstanceOf(AbortError);
    expect(pacer.waiting).toBe(1);
    await jest.advanceTimersByTimeAsync(1000);
    expect(next).toHaveBeenCalledTimes(1);
  });

  test("0 turns pacing off", async () => {
    const pacer = new Pacer({ ratePerMinute: 0 });
    await Promise.all(Array.from({ length: 1000 }, () => pacer.acquire()));
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
    await pacer.acquire();
    now = 10_000;
    await pacer.acquire();
    await pacer.acquire();
    // Window = 60 s + the 1 s arrival margin.
    expect(sleeps).toEqual([51_000]);
    expect(now).toBe(61_000);
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
});
