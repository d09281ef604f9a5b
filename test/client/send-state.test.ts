// A key's send state: the daily limit (told by its code) and a refused key stop the sending until they lift.

import { createClient, type KaishaClient } from "../../src/client/client";
import { MemoryCacheStore } from "../../src/client/cache";
import { errorFromResponse } from "../../src/client/response-errors";
import { AuthenticationError, RateLimitError } from "../../src/client/errors";
import { isStale, staleInfo } from "../../src/client/stale";
import { TEST_KEY, annualBody, apiError, recordingFetch, reply } from "./helpers";
import type { FetchLike } from "../../src/client/http";

const HOUR = 3_600_000;
/** Friday 2026-11-20 18:00 JST (09:00 UTC); the next JST midnight is 15:00 UTC. */
const T0 = Date.parse("2026-11-20T09:00:00Z");
const NEXT_JST_MIDNIGHT = Date.parse("2026-11-20T15:00:00Z");

const DAILY = () =>
  apiError(429, "daily_limit_exceeded", "Daily request limit of 3 reached.", {
    "Retry-After": "21600",
  });

/** A client over `fetch` on a manual clock whose sleeps advance it at once. */
function clientOver(fetch: FetchLike, extra: { apiKey?: () => string } = {}) {
  const clock = { now: T0 };
  const store = new MemoryCacheStore();
  const client: KaishaClient = createClient({
    apiKey: extra.apiKey ?? TEST_KEY,
    fetch,
    ratePerMinute: 0,
    maxRetries: 3,
    lang: "en",
    cacheStore: store,
    ttlMs: { getFinancials: HOUR },
    now: () => clock.now,
    sleep: async (ms) => {
      clock.now += ms;
    },
  });
  return { client, clock, store };
}

const annual = (code: string) => ({ security_code: code, period: "annual" as const, years: 5 });

/** One answer, then the daily limit's 429 (a fetch as limited(1, …) below): the key's send state is daily_limit. */
async function reachDailyLimit(client: KaishaClient): Promise<void> {
  await client.financials(annual("7203"));
  await client.financials(annual("6758")).catch(() => undefined);
}

/** The next request reaches the API again: the send state has lifted. */
async function expectSendsAgain(
  client: KaishaClient,
  rec: { requests: readonly unknown[] },
): Promise<void> {
  const before = rec.requests.length;
  await client.financials(annual("6758")).catch(() => undefined);
  expect(rec.requests).toHaveLength(before + 1);
}

describe("the daily limit is told by its code, never its message", () => {
  it("a 429 rate_limited whose message says quota is the per-minute limit", () => {
    const err = errorFromResponse({
      status: 429,
      body: { error: { code: "rate_limited", message: "Per-minute quota exceeded" } },
    });
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).daily).toBe(false);
  });

  it("a 429 without a code, its message saying daily, is the per-minute limit", () => {
    const err = errorFromResponse({
      status: 429,
      body: { error: { message: "daily quota" } },
    }) as RateLimitError;
    expect(err.daily).toBe(false);
  });

  it("daily_limit_exceeded (the sandbox's code) is the daily limit", () => {
    const err = errorFromResponse({
      status: 429,
      body: { error: { code: "daily_limit_exceeded", message: "Too many requests" } },
    }) as RateLimitError;
    expect(err.daily).toBe(true);
  });

  it("a per-minute 429 whose message says quota is retried and the cell gets its answer", async () => {
    const rec = recordingFetch((_req, i) =>
      i === 0
        ? apiError(429, "rate_limited", "Request quota exceeded, retry shortly", {
            "Retry-After": "2",
          })
        : reply(200, annualBody(5)),
    );
    const { client } = clientOver(rec.fetch);
    const body = await client.financials(annual("7203"));
    expect(body.periods).toHaveLength(5);
    expect(rec.requests).toHaveLength(2);
    expect(client.sendState()).toBeUndefined();
  });
});

describe("after the first daily-limit answer nothing more is sent for the key", () => {
  /** A fetch answering /financials 200 `allowed` times, then the daily limit; /usage with `remaining`. */
  function limited(allowed: number, usage: { remaining: number }) {
    let granted = 0;
    return recordingFetch((req) => {
      if (req.url.includes("/usage")) return reply(200, { remaining: usage.remaining });
      granted += 1;
      return granted <= allowed ? reply(200, annualBody(5)) : DAILY();
    });
  }

  it("later requests settle at once with the limit's message saying when sending resumes", async () => {
    const rec = limited(1, { remaining: 0 });
    const { client } = clientOver(rec.fetch);
    await client.financials(annual("7203"));
    await expect(client.financials(annual("6758"))).rejects.toMatchObject({
      name: "RateLimitError",
      daily: true,
    });
    const sent = rec.requests.length;
    const err = await client.financials(annual("9984")).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).message).toMatch(
      /nothing is sent until .*\(midnight in Japan\)/,
    );
    expect((err as RateLimitError).messageJa).toMatch(/日本時間0時）まで送信しません/);
    expect(rec.requests).toHaveLength(sent);
    expect(client.sendState()).toEqual({
      reason: "daily_limit",
      resumesAt: NEXT_JST_MIDNIGHT,
    });
  });

  it("a stored answer stands in, marked stale, instead of a request", async () => {
    const rec = limited(1, { remaining: 0 });
    const { client, clock } = clientOver(rec.fetch);
    await reachDailyLimit(client);
    const sent = rec.requests.length;
    clock.now += 2 * HOUR; // the stored 7203 answer is expired (ttlMs)
    const body = await client.financials(annual("7203"));
    expect(isStale(body)).toBe(true);
    expect(staleInfo(body)?.error).toBeInstanceOf(RateLimitError);
    expect(rec.requests).toHaveLength(sent);
  });

  it("/usage (free) is still asked, and remaining > 0 lifts the state", async () => {
    const usage = { remaining: 0 };
    const rec = limited(1, usage);
    const { client } = clientOver(rec.fetch);
    await reachDailyLimit(client);
    await client.usage();
    expect(client.sendState()?.reason).toBe("daily_limit");
    usage.remaining = 120;
    await client.usage();
    expect(client.sendState()).toBeUndefined();
    await expectSendsAgain(client, rec);
  });

  it("the next JST day lifts the state", async () => {
    const rec = limited(1, { remaining: 0 });
    const { client, clock } = clientOver(rec.fetch);
    await reachDailyLimit(client);
    clock.now = NEXT_JST_MIDNIGHT - 1;
    expect(client.sendState()?.reason).toBe("daily_limit");
    clock.now = NEXT_JST_MIDNIGHT;
    expect(client.sendState()).toBeUndefined();
    await expectSendsAgain(client, rec);
  });

  it("a wall clock set back a day after the limit does not hold the key a day longer: the wait runs on the monotonic clock", async () => {
    const rec = limited(1, { remaining: 0 });
    const mono = { now: 0 };
    const clock = { now: T0 };
    const client = createClient({
      apiKey: TEST_KEY,
      fetch: rec.fetch,
      ratePerMinute: 0,
      maxRetries: 0,
      lang: "en",
      cacheStore: new MemoryCacheStore(),
      now: () => clock.now,
      clock: () => mono.now,
    });
    await reachDailyLimit(client);
    expect(client.sendState()?.reason).toBe("daily_limit");
    clock.now = T0 - 24 * HOUR; // the computer's clock set back a day
    mono.now += NEXT_JST_MIDNIGHT - T0 - 1;
    clock.now += NEXT_JST_MIDNIGHT - T0 - 1;
    expect(client.sendState()?.reason).toBe("daily_limit");
    mono.now += 1;
    clock.now += 1;
    expect(client.sendState()).toBeUndefined();
    await expectSendsAgain(client, rec);
  });

  it("the state belongs to the key: another key still sends", async () => {
    const key = { current: TEST_KEY };
    const rec = recordingFetch((req) =>
      req.headers.Authorization === `Bearer ${TEST_KEY}` ? DAILY() : reply(200, annualBody(5)),
    );
    const { client } = clientOver(rec.fetch, { apiKey: () => key.current });
    await client.financials(annual("7203")).catch(() => undefined);
    key.current = `${TEST_KEY.slice(0, -1)}Z`;
    expect(client.sendState()).toBeUndefined();
    await expect(client.financials(annual("7203"))).resolves.toMatchObject({
      periods: [{}, {}, {}, {}, {}],
    });
    expect(rec.requests).toHaveLength(2);
  });

  it("requests waiting for their turn settle at once when the limit answers", async () => {
    jest.useFakeTimers({ now: T0 });
    try {
      const rec = recordingFetch(() => DAILY());
      const client = createClient({
        apiKey: TEST_KEY,
        fetch: rec.fetch,
        ratePerMinute: 1, // one a minute: the others wait in the queue
        maxRetries: 0,
        lang: "en",
      });
      const settled: unknown[] = [];
      const calls = ["7203", "6758", "9984", "8306", "4063"].map((code) =>
        client.financials(annual(code)).catch((e: unknown) => settled.push(e)),
      );
      await jest.advanceTimersByTimeAsync(100);
      expect(rec.requests).toHaveLength(1);
      expect(settled).toHaveLength(5);
      await Promise.all(calls);
      await jest.advanceTimersByTimeAsync(120_000);
      expect(rec.requests).toHaveLength(1);
      expect(client.queueStatus().waiting).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe("a refused key (401) is a state too", () => {
  it("nothing more is sent with it; stored figures stand in marked stale, others ask for a new key", async () => {
    const key = { current: TEST_KEY };
    let refused = false;
    const rec = recordingFetch(() =>
      refused ? apiError(401, "unauthorized", "Invalid API key") : reply(200, annualBody(5)),
    );
    const { client, clock } = clientOver(rec.fetch, { apiKey: () => key.current });
    await client.financials(annual("7203"));
    refused = true;
    clock.now += 2 * HOUR;
    const stale = await client.financials(annual("7203"));
    expect(isStale(stale)).toBe(true);
    expect(staleInfo(stale)?.error).toBeInstanceOf(AuthenticationError);
    expect(client.sendState()).toEqual({ reason: "key_refused" });
    const sent = rec.requests.length;
    const err = await client.financials(annual("6758")).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    expect((err as AuthenticationError).message).toMatch(/enter a new key/);
    await client.usage().catch(() => undefined);
    expect(rec.requests).toHaveLength(sent);

    // A new key resumes; the old one stays refused.
    refused = false;
    key.current = `${TEST_KEY.slice(0, -1)}Z`;
    expect(client.sendState()).toBeUndefined();
    await client.financials(annual("6758"));
    expect(rec.requests).toHaveLength(sent + 1);
    key.current = TEST_KEY;
    expect(client.sendState()).toEqual({ reason: "key_refused" });
  });

  it("entering the same key again lets it send (resumeSending)", async () => {
    const rec = recordingFetch((_req, i) =>
      i === 0 ? apiError(401, "unauthorized", "Invalid API key") : reply(200, annualBody(5)),
    );
    const { client } = clientOver(rec.fetch);
    await client.financials(annual("7203")).catch(() => undefined);
    expect(client.sendState()?.reason).toBe("key_refused");
    client.resumeSending();
    await client.financials(annual("7203"));
    expect(rec.requests).toHaveLength(2);
  });
});

describe("the background pauses while the key is held, counting nothing", () => {
  const CODES = Array.from({ length: 40 }, (_, i) => String(1300 + i));

  /** 40 companies' answers stored at T0, due two hours later (ttlMs), then `mode` answers. */
  async function dueModel() {
    const api = { mode: "ok" as "ok" | "daily", okLeft: Infinity, remaining: 0 };
    const rec = recordingFetch((req) => {
      if (req.url.includes("/usage")) return reply(200, { remaining: api.remaining });
      if (api.mode === "daily" || api.okLeft <= 0) return DAILY();
      api.okLeft -= 1;
      // One company each (its own EDINET code): one background check per company.
      const code = /security_code=(\d+)/.exec(req.url)?.[1] ?? "0000";
      return reply(200, annualBody(5, `E9${code.slice(0, 4)}`));
    });
    const clock = { now: T0 };
    const client = createClient({
      apiKey: TEST_KEY,
      fetch: rec.fetch,
      ratePerMinute: 0,
      maxRetries: 0,
      lang: "en",
      ttlMs: { getFinancials: HOUR },
      staleWhileRevalidate: true,
      now: () => clock.now,
      // The clock stays within the day: the wake-up at the next JST midnight never comes.
      sleep: () => new Promise<void>(() => undefined),
    });
    for (const code of CODES) await client.financials(annual(code));
    clock.now += 2 * HOUR;
    return { api, rec, client, clock };
  }

  const settle = async () => {
    for (let i = 0; i < 20; i += 1) await new Promise((r) => setImmediate(r));
  };

  it("due refreshes after the limit send nothing and count nothing; /usage with requests left resumes them", async () => {
    const { api, rec, client } = await dueModel();
    api.mode = "daily";
    await client.financials(annual("9999")).catch(() => undefined);
    const sent = rec.requests.length;
    for (const code of CODES) await client.financials(annual(code)); // served at once, queued
    await settle();
    expect(rec.requests).toHaveLength(sent);
    const status = client.revalidation().status();
    expect(status.paused).toBe("limit");
    expect(status.spentToday).toBe(0);
    expect(status.requests).toBe(40);

    api.mode = "ok";
    api.remaining = 500;
    await client.usage();
    await settle();
    await client.revalidation().idle();
    expect(rec.requests.length - sent).toBe(1 + 40); // /usage, then the 40 refreshes
    expect(client.revalidation().status().spentToday).toBe(40);
  });

  it("a 401 answered in the background is not swallowed: the key is refused, nothing more is sent", async () => {
    const { rec, client } = await dueModel();
    const before = rec.requests.length;
    const refuse = recordingFetch(() => apiError(401, "unauthorized", "Invalid API key"));
    const copy = client.withOptions({ fetch: refuse.fetch });
    for (const code of CODES) await copy.financials(annual(code));
    await settle();
    await client.revalidation().idle();
    await settle();
    expect(client.sendState()).toEqual({ reason: "key_refused" });
    // The first refused refresh, and at most the one in flight beside it.
    expect(refuse.requests.length).toBeLessThanOrEqual(2);
    expect(rec.requests).toHaveLength(before);
    const status = client.revalidation().status();
    expect(status.paused).toBe("key");
    expect(status.spentToday).toBe(refuse.requests.length);
  });

  it("the background meeting the limit itself sends at most one more, and counts only what left", async () => {
    const { api, rec, client } = await dueModel();
    api.okLeft = 5;
    const before = rec.requests.length;
    for (const code of CODES) await client.financials(annual(code));
    await settle();
    await client.revalidation().idle();
    await settle();
    const sent = rec.requests.length - before;
    // 5 answered, the first daily-limit answer, at most one more in flight at that moment.
    expect(sent).toBeLessThanOrEqual(5 + 1 + 1);
    const status = client.revalidation().status();
    expect(status.spentToday).toBe(sent);
    expect(status.paused).toBe("limit");
    expect(status.requests).toBe(40 - 5);
  });
});
