// Retry policy and backoff: what is retried, how long the client waits, and that attempts are bounded.

import {
  AbortError,
  AuthenticationError,
  BadResponseError,
  ConnectionError,
  DataUnavailableError,
  NotFoundError,
  RateLimitError,
  ServerError,
  TimeoutError,
  ValidationError,
} from "../../src/client/errors";
import { canServeStale, shouldRetry } from "../../src/client/retry";
import { retryDelayMs } from "../../src/client/retry-delay";
import { createClient } from "../../src/client/client";
import { DeadlineError } from "../../src/client/errors";
import { DEFAULT_PAUSE_FLOOR_MS } from "../../src/client/pacer";
import { TEST_KEY, apiError, recordingFetch, reply, sequence } from "./helpers";

describe("shouldRetry", () => {
  test.each<[string, unknown, boolean]>([
    ["429 per-minute", new RateLimitError({ retryAfterMs: 1000 }), true],
    ["429 without Retry-After", new RateLimitError(), true],
    ["429 daily limit", new RateLimitError({ daily: true }), false],
    ["429 asking for an hour", new RateLimitError({ retryAfterMs: 3_600_000 }), false],
    ["503 data_unavailable", new DataUnavailableError(), true],
    ["500", new ServerError({ status: 500 }), true],
    ["connection", new ConnectionError(), true],
    ["400", new ValidationError([{ param: "x", reason: "invalid" }]), false],
    ["401", new AuthenticationError("unauthorized"), false],
    ["404", new NotFoundError(), false],
    ["abort", new AbortError(), false],
    ["timeout", new TimeoutError(30_000), false],
    ["foreign error", new Error("x"), false],
  ])("%s -> %p", (_name, error, expected) => {
    expect(shouldRetry(error)).toBe(expected);
  });
});

describe("retryDelayMs", () => {
  test("uses Retry-After when present", () => {
    expect(retryDelayMs(0, 2000, () => 0.99)).toBe(2000);
  });

  test("Retry-After 0, negative or in the past never means an immediate re-send: 1 s at least", () => {
    expect(retryDelayMs(3, 0, () => 0.99)).toBe(1000);
    expect(retryDelayMs(0, -5000, () => 0)).toBe(1000);
    expect(retryDelayMs(0, 300, () => 0)).toBe(1000);
  });

  test("full jitter within a capped exponential ceiling, never below the 1 s floor", () => {
    expect([0, 1, 2, 3, 4].map((a) => retryDelayMs(a, undefined, () => 0.5))).toEqual([
      1000, 1000, 1000, 2000, 4000,
    ]);
    expect(retryDelayMs(20, undefined, () => 0.999_999)).toBeLessThanOrEqual(20_000);
    expect(retryDelayMs(2, undefined, () => 0)).toBe(1000);
  });
});

describe("client retries", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const make = (handler: Parameters<typeof recordingFetch>[0], maxRetries = 3) => {
    const rec = recordingFetch(handler);
    const client = createClient({
      apiKey: TEST_KEY,
      fetch: rec.fetch,
      ratePerMinute: 0,
      maxRetries,
      random: () => 0.5,
    });
    return { rec, client };
  };

  test("429 with Retry-After: waits exactly that long, then succeeds", async () => {
    const { rec, client } = make(
      sequence(
        apiError(429, "rate_limited", "slow", { "Retry-After": "3" }),
        reply(200, { periods: [], edinet_code: "E02144" }),
      ),
    );
    const p = client.financials({ edinet_code: "E02144" });
    await jest.advanceTimersByTimeAsync(2999);
    expect(rec.requests).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    await expect(p).resolves.toMatchObject({ edinet_code: "E02144" });
    expect(rec.requests).toHaveLength(2);
    expect(client.stats()).toMatchObject({ requestsSent: 2, retries: 1 });
  });

  test("503 then 500 then success: backs off 1 s twice (jitter 0.5 under the 1 s floor)", async () => {
    const { rec, client } = make(
      sequence(
        apiError(503, "data_unavailable", "later"),
        apiError(500, "internal", "oops"),
        reply(200, { items: [], metric: "gainers" }),
      ),
    );
    const p = client.rankings({ metric: "gainers" });
    await jest.advanceTimersByTimeAsync(999);
    expect(rec.requests).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(rec.requests).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(1000);
    await expect(p).resolves.toMatchObject({ metric: "gainers" });
    expect(rec.requests).toHaveLength(3);
  });

  test("connection errors are retried maxRetries times, then the error surfaces", async () => {
    expect.assertions(3);
    const { rec, client } = make(sequence(new TypeError("fetch failed")));
    const p = client.peers({ security_code: "7203" }).catch((e: unknown) => {
      expect(e).toBeInstanceOf(ConnectionError);
    });
    await jest.advanceTimersByTimeAsync(60_000);
    await p;
    expect(rec.requests).toHaveLength(4);
    expect(client.stats().retries).toBe(3);
  });

  test("maxRetries per call overrides the client's", async () => {
    const { rec, client } = make(sequence(apiError(500, "x", "x")));
    const p = client.peers({ security_code: "7203" }, { maxRetries: 0 }).catch((e: unknown) => e);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(await p).toBeInstanceOf(ServerError);
    expect(rec.requests).toHaveLength(1);
  });

  test.each<[number, string, unknown]>([
    [400, "invalid_parameter", ValidationError],
    [401, "unauthorized", AuthenticationError],
    [404, "not_found", NotFoundError],
  ])("no retry on %p", async (status, code, cls) => {
    const { rec, client } = make(sequence(apiError(status, code, "no")));
    const p = client.peers({ security_code: "7203" }).catch((e: unknown) => e);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(await p).toBeInstanceOf(cls);
    expect(rec.requests).toHaveLength(1);
    expect(client.stats().retries).toBe(0);
  });

  test("the daily limit is not retried", async () => {
    const { rec, client } = make(
      sequence(
        apiError(429, "daily_limit_exceeded", "Daily request limit of 5000 reached.", {
          "Retry-After": "3600",
        }),
      ),
    );
    const p = client.peers({ security_code: "7203" }).catch((e: unknown) => e);
    await jest.advanceTimersByTimeAsync(10_000);
    const err = (await p) as RateLimitError;
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err.daily).toBe(true);
    expect(err.message).toMatch(/^Daily request limit reached/);
    expect(rec.requests).toHaveLength(1);
  });

  test("aborting during backoff settles with AbortError and sends nothing more", async () => {
    const { rec, client } = make(
      sequence(apiError(503, "data_unavailable", "x", { "Retry-After": "30" })),
    );
    const controller = new AbortController();
    const p = client
      .rankings({ metric: "volume" }, { signal: controller.signal })
      .catch((e: unknown) => e);
    await jest.advanceTimersByTimeAsync(1000);
    controller.abort();
    expect(await p).toBeInstanceOf(AbortError);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(rec.requests).toHaveLength(1);
  });
});

describe("Retry-After that asks for no wait", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test.each([
    ["0", "0"],
    ["negative", "-30"],
    ["a past date", "Wed, 21 Oct 2015 07:28:00 GMT"],
  ])(
    "429 with Retry-After %s: the retry waits the pacer's pause floor, not 0",
    async (_name, header) => {
      const rec = recordingFetch(
        sequence(
          apiError(429, "rate_limited", "slow", { "Retry-After": header }),
          reply(200, { items: [], metric: "gainers" }),
        ),
      );
      const client = createClient({ apiKey: TEST_KEY, fetch: rec.fetch, ratePerMinute: 0 });
      const p = client.rankings({ metric: "gainers" });
      // A per-minute 429 pauses the shared pacer (pacer.ts) for at least its floor.
      await jest.advanceTimersByTimeAsync(DEFAULT_PAUSE_FLOOR_MS - 1);
      expect(rec.requests).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(1);
      await expect(p).resolves.toMatchObject({ metric: "gainers" });
      expect(rec.requests).toHaveLength(2);
    },
  );
});

describe("the per-request deadline (retries and their waits included)", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test("Retry-After 60 twice: the second retry would end past 120 s, so the 429 is returned at 60 s", async () => {
    const rec = recordingFetch(
      sequence(apiError(429, "rate_limited", "slow", { "Retry-After": "60" })),
    );
    const client = createClient({ apiKey: TEST_KEY, fetch: rec.fetch, ratePerMinute: 0 });
    let settled: unknown;
    void client.rankings({ metric: "gainers" }).catch((e: unknown) => (settled = e));
    await jest.advanceTimersByTimeAsync(60_000);
    expect(rec.requests).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(1);
    // The next wait (60 s more) would reach the 120 s deadline: no third request, settled now.
    expect(settled).toBeInstanceOf(RateLimitError);
    expect(rec.requests).toHaveLength(2);
  });

  test("answers that never come: #N/A 'still waiting' within 120 s of the first send, not 4 x 30 s + backoff", async () => {
    // A server that accepts the connection and never answers (the fetch honours abort).
    const hanging = (_url: string, init: { signal: AbortSignal }) =>
      new Promise<never>((_, reject) =>
        init.signal.addEventListener("abort", () => reject(init.signal.reason)),
      );
    const calls: number[] = [];
    const client = createClient({
      apiKey: TEST_KEY,
      fetch: (url, init) => {
        calls.push(Date.now());
        return hanging(url, init);
      },
      ratePerMinute: 0,
      timeoutMs: 50_000,
      maxRetries: 5,
    });
    // Timeouts are not retried; a connection failure after 50 s is: make every attempt fail late.
    let settled: unknown;
    void client
      .rankings({ metric: "gainers" }, { timeoutMs: 50_000 })
      .catch((e: unknown) => (settled = e));
    await jest.advanceTimersByTimeAsync(120_000);
    expect(settled).toBeDefined();
    expect(calls).toHaveLength(1);
  });

  test("5xx after 50 s each: retries stop at the deadline with 'still waiting for the API'", async () => {
    const slow500 = (_url: string, init: { signal: AbortSignal }) =>
      new Promise<Response>((resolve, reject) => {
        const t = setTimeout(
          () => resolve(new Response('{"error":{"code":"x","message":"x"}}', { status: 500 })),
          50_000,
        );
        init.signal.addEventListener("abort", () => {
          clearTimeout(t);
          reject(init.signal.reason);
        });
      });
    let sent = 0;
    const client = createClient({
      apiKey: TEST_KEY,
      fetch: (url, init) => {
        sent += 1;
        return slow500(url, init);
      },
      ratePerMinute: 0,
      timeoutMs: 60_000,
      maxRetries: 5,
      random: () => 0,
    });
    let settled: unknown;
    void client.rankings({ metric: "gainers" }).catch((e: unknown) => (settled = e));
    // 0-50 s: 500; 51 s: retry; 101 s: 500; 102 s: retry cut at 120 s by the deadline.
    await jest.advanceTimersByTimeAsync(119_999);
    expect(settled).toBeUndefined();
    await jest.advanceTimersByTimeAsync(1);
    expect(settled).toBeInstanceOf(DeadlineError);
    expect((settled as DeadlineError).message).toBe(
      "Still waiting for the API: recalculate to retry",
    );
    expect((settled as DeadlineError).messageJa).toContain("再計算");
    expect(sent).toBe(3);
  });

  test("time queued behind the pacer before the first send is not counted", async () => {
    const rec = recordingFetch(sequence(reply(200, { items: [], metric: "gainers" })));
    const client = createClient({
      apiKey: TEST_KEY,
      fetch: rec.fetch,
      ratePerMinute: 1,
      deadlineMs: 5_000,
    });
    await client.rankings({ metric: "gainers" });
    // The second call queues for about a minute (rate 1/min) but still gets its answer.
    const p = client.rankings({ metric: "losers" });
    await jest.advanceTimersByTimeAsync(120_000);
    await expect(p).resolves.toMatchObject({ metric: "gainers" });
    expect(rec.requests).toHaveLength(2);
  });

  test("a deadline error and every content error of a 2xx may be answered by the last good answer; a 404 from another server may not", () => {
    expect(canServeStale(new DeadlineError(120_000))).toBe(true);
    for (const kind of ["not_json", "too_large", "field"] as const)
      expect(canServeStale(new BadResponseError("bad answer", { kind }))).toBe(true);
    expect(canServeStale(new BadResponseError("HTTP 404 without the API's error object"))).toBe(
      false,
    );
  });
});
