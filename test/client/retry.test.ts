// Retry policy and backoff: what is retried, how long the client waits, and that attempts are bounded.

import {
  AbortError,
  AuthenticationError,
  ConnectionError,
  DataUnavailableError,
  NotFoundError,
  RateLimitError,
  ServerError,
  TimeoutError,
  ValidationError,
  createClient,
  retryDelayMs,
  shouldRetry,
} from "../../src/client";
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
    expect(retryDelayMs(3, 0, () => 0.99)).toBe(0);
  });

  test("full jitter within a capped exponential ceiling", () => {
    expect([0, 1, 2, 3].map((a) => retryDelayMs(a, undefined, () => 0.5))).toEqual([
      250, 500, 1000, 2000,
    ]);
    expect(retryDelayMs(20, undefined, () => 0.999_999)).toBeLessThanOrEqual(20_000);
    expect(retryDelayMs(2, undefined, () => 0)).toBe(0);
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

  test("503 then 500 then success: backs off 250 ms then 500 ms (jitter 0.5)", async () => {
    const { rec, client } = make(
      sequence(
        apiError(503, "data_unavailable", "later"),
        apiError(500, "internal", "oops"),
        reply(200, { items: [], metric: "gainers" }),
      ),
    );
    const p = client.rankings({ metric: "gainers" });
    await jest.advanceTimersByTimeAsync(249);
    expect(rec.requests).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(rec.requests).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(500);
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
    expect(err.message).toBe("Daily request limit reached");
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
