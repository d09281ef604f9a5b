// Per-minute and daily limits (429 + Retry-After) and GET /usage, with an injected clock.
import { DEMO_API_KEY, KEY_PREFIX } from "../../sandbox/demo-key";
import { createApp } from "../../sandbox/app";
import { get } from "./helpers";

/** Every authenticated request is metered; this one is answered (400) without building the dataset. */
const METERED = "/v1/financials";
// Passing the limits, METERED answers 400 (missing parameters); refused by them, 429.

/** A clock the test moves by hand; starts 2026-11-21 03:00 UTC (12:00 JST). */
function manualClock(start = Date.parse("2026-11-21T03:00:00Z")) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("per-minute limit", () => {
  test("the request over ratePerMinute -> 429 rate_limited with Retry-After in seconds", async () => {
    const clock = manualClock();
    const sandbox = createApp({ ratePerMinute: 3, rateClock: clock.now });
    for (let i = 0; i < 3; i += 1) {
      clock.advance(1_000);
      expect((await get(sandbox, METERED)).status).toBe(400);
    }
    const limited = await get(sandbox, METERED);
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("rate_limited");
    // The oldest request in the window was 2 s ago: a slot frees up in 58 s.
    expect(limited.headers.get("retry-after")).toBe("58");
  });

  test("after the window passes, requests are accepted again", async () => {
    const clock = manualClock();
    const sandbox = createApp({ ratePerMinute: 2, rateClock: clock.now });
    await get(sandbox, METERED);
    await get(sandbox, METERED);
    expect((await get(sandbox, METERED)).status).toBe(429);
    clock.advance(60_001);
    expect((await get(sandbox, METERED)).status).toBe(400);
  });

  test("ratePerMinute 0 turns the per-minute limit off", async () => {
    const sandbox = createApp({ ratePerMinute: 0, rateClock: manualClock().now });
    for (let i = 0; i < 100; i += 1) {
      expect((await get(sandbox, "/v1/usage")).status).toBe(200);
    }
  });

  test("limits are counted per key", async () => {
    const other = `${KEY_PREFIX}${"B".repeat(43)}`;
    const sandbox = createApp({
      ratePerMinute: 1,
      apiKeys: [DEMO_API_KEY, other],
      rateClock: manualClock().now,
    });
    expect((await get(sandbox, METERED)).status).toBe(400);
    expect((await get(sandbox, METERED)).status).toBe(429);
    expect((await get(sandbox, METERED, { key: other })).status).toBe(400);
  });
});

describe("daily limit and GET /usage", () => {
  test("usage reports remaining, daily_limit, used and the next JST midnight", async () => {
    const sandbox = createApp({ ratePerMinute: 0, dailyLimit: 10, rateClock: manualClock().now });
    await get(sandbox, METERED);
    await get(sandbox, METERED);
    const usage = await get(sandbox, "/v1/usage");
    expect(usage.status).toBe(200);
    expect(usage.body).toMatchObject({ remaining: 8, daily_limit: 10, used: 2 });
    // 2026-11-21 12:00 JST -> resets at 2026-11-22 00:00 JST = 2026-11-21 15:00 UTC.
    expect(usage.body.reset_at).toBe("2026-11-21T15:00:00.000Z");
    expect(usage.body.attribution.source_label).toContain("サンプル");
  });

  test("GET /usage never consumes the daily limit", async () => {
    const sandbox = createApp({ ratePerMinute: 0, dailyLimit: 3, rateClock: manualClock().now });
    for (let i = 0; i < 10; i += 1) await get(sandbox, "/v1/usage");
    const usage = await get(sandbox, "/v1/usage");
    expect(usage.body).toMatchObject({ remaining: 3, used: 0 });
  });

  test("over the daily limit -> 429 daily_limit_exceeded with Retry-After until JST midnight", async () => {
    const clock = manualClock();
    const sandbox = createApp({ ratePerMinute: 0, dailyLimit: 2, rateClock: clock.now });
    await get(sandbox, METERED);
    await get(sandbox, METERED);
    const refused = await get(sandbox, METERED);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("daily_limit_exceeded");
    expect(refused.headers.get("retry-after")).toBe(String(12 * 3600));
    // usage still answers, with nothing remaining
    const usage = await get(sandbox, "/v1/usage");
    expect(usage.status).toBe(200);
    expect(usage.body.remaining).toBe(0);
  });

  test("the daily count resets at JST midnight", async () => {
    const clock = manualClock();
    const sandbox = createApp({ ratePerMinute: 0, dailyLimit: 1, rateClock: clock.now });
    await get(sandbox, METERED);
    expect((await get(sandbox, METERED)).status).toBe(429);
    clock.advance(12 * 3600 * 1000);
    expect((await get(sandbox, METERED)).status).toBe(400);
  });

  test("requests that fail validation still count; unauthenticated ones do not", async () => {
    const sandbox = createApp({ ratePerMinute: 0, dailyLimit: 100, rateClock: manualClock().now });
    expect((await get(sandbox, "/v1/financials?years=0&security_code=7203")).status).toBe(400);
    expect(
      (await get(sandbox, "/v1/financials?security_code=7203", { authorization: null })).status,
    ).toBe(401);
    expect((await get(sandbox, "/v1/usage")).body.used).toBe(1);
  });

  test("a refused (429) request is not counted against the budget", async () => {
    const clock = manualClock();
    const sandbox = createApp({ ratePerMinute: 1, dailyLimit: 100, rateClock: clock.now });
    await get(sandbox, METERED);
    expect((await get(sandbox, METERED)).status).toBe(429);
    expect((await get(sandbox, "/v1/usage")).status).toBe(429);
    clock.advance(61_000);
    expect((await get(sandbox, "/v1/usage")).body.used).toBe(1);
  });

  test("reset() clears the counters", async () => {
    const sandbox = createApp({ ratePerMinute: 0, dailyLimit: 1, rateClock: manualClock().now });
    await get(sandbox, METERED);
    expect((await get(sandbox, METERED)).status).toBe(429);
    sandbox.reset();
    expect((await get(sandbox, METERED)).status).toBe(400);
  });
});
