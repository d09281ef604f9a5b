// Fault injection through the sandbox knobs: bounded retries, the right cell errors, and every call settling.
import { createApp } from "../../sandbox/app";
import { financial } from "../../functions/financial-cell";
import { valuation } from "../../functions/valuation";
import { setClientForTesting } from "../../src/session";
import { burst, cellErrorOf, harness } from "./support/harness";
import { settleWithFakeTimers } from "./support/settle";

// Generous per-test bound: the first test of a file also builds the sandbox dataset (seconds on a
// busy 2-core machine). A liveness bound, not a timing assertion.
jest.setTimeout(60_000);

const MAX_RETRIES = 3;

afterEach(() => {
  setClientForTesting(undefined);
  jest.useRealTimers();
});

/** The value FINANCIAL must show, read from a healthy sandbox through the same function. */
async function healthySales(): Promise<unknown> {
  harness();
  return await financial("7203", "sales", 0, null, null, null);
}

describe("transient server failures", () => {
  it("503 on every attempt: 1 + maxRetries requests, then #N/A saying the data is unavailable", async () => {
    const h = harness({ sandbox: { faults: { rate: 1, kinds: ["503"], seed: 7 } } });
    const error = await cellErrorOf(financial("7203", "sales", 0, null, null, null));
    expect(error.code).toBe("#N/A");
    expect(error.message).toMatch(/unavailable|retry later/i);
    expect(h.wire.counters.requests).toBe(1 + MAX_RETRIES);
    expect(h.sleeps).toHaveLength(MAX_RETRIES);
    expect(h.client.stats().retries).toBe(MAX_RETRIES);
  });

  it("a burst of two 503s is ridden out: the third attempt's value is shown", async () => {
    const expected = await healthySales();
    expect(typeof expected).toBe("number");
    const h = harness();
    const failing = createApp({ ratePerMinute: 0, faults: { rate: 1, kinds: ["503"] } });
    h.wire.setApp(burst(failing.app, 2, h.sandbox.app));
    await expect(financial("7203", "sales", 0, null, null, null)).resolves.toBe(expected);
    expect(h.wire.counters.requests).toBe(3);
  });

  it("500 on every attempt: bounded retries, then #N/A naming a server error", async () => {
    const h = harness({ sandbox: { faults: { rate: 1, kinds: ["500"] } } });
    const error = await cellErrorOf(valuation("7203", null, null, null));
    expect(error.code).toBe("#N/A");
    expect(error.message).toMatch(/server error \(500\)/i);
    expect(h.wire.counters.requests).toBe(1 + MAX_RETRIES);
  });

  it("backoff between retries grows and stays capped (no Retry-After on injected 5xx)", async () => {
    const h = harness({
      sandbox: { faults: { rate: 1, kinds: ["503"] } },
      client: { random: () => 0.999 },
    });
    await cellErrorOf(financial("7203", "sales", 0, null, null, null));
    expect(h.sleeps).toHaveLength(MAX_RETRIES);
    for (let i = 1; i < h.sleeps.length; i += 1) {
      expect(h.sleeps[i]).toBeGreaterThanOrEqual(h.sleeps[i - 1] ?? 0);
    }
    expect(Math.max(...h.sleeps)).toBeLessThanOrEqual(60_000);
  });
});

describe("rate limits (429)", () => {
  it("per-minute 429 with Retry-After: waits what the server says, then answers", async () => {
    const h = harness({ sandbox: { ratePerMinute: 1 } });
    await expect(financial("7203", "sales", 0, null, null, null)).resolves.toEqual(
      expect.any(Number),
    );
    const table = await valuation("7203", "per", 3, 0);
    expect(Array.isArray(table)).toBe(true);
    const statuses = h.sandbox.requestLog.map((e) => e.status);
    expect(statuses).toEqual([200, 429, 200]);
    // sandbox/lib/rate-limiter.ts: Retry-After is the seconds until the oldest request is a minute old.
    expect(h.sleeps).toHaveLength(1);
    expect(h.sleeps[0]).toBeGreaterThanOrEqual(59_000);
    expect(h.sleeps[0]).toBeLessThanOrEqual(60_000);
  });

  it("daily limit 429: not retried, #N/A saying the daily limit is reached", async () => {
    const h = harness({ sandbox: { dailyLimit: 1 } });
    await financial("7203", "sales", 0, null, null, null);
    const error = await cellErrorOf(valuation("7203", null, null, null));
    expect(error.code).toBe("#N/A");
    expect(error.message).toMatch(/daily request limit/i);
    expect(h.wire.counters.requests).toBe(2);
    expect(h.sleeps).toHaveLength(0);
  });
});

describe("broken connections and bodies", () => {
  it("dropped connections: bounded retries, then #N/A saying the API cannot be reached", async () => {
    const h = harness({ sandbox: { faults: { rate: 1, kinds: ["drop"] } } });
    const error = await cellErrorOf(financial("7203", "sales", 0, null, null, null));
    expect(error.code).toBe("#N/A");
    expect(error.message).toMatch(/cannot reach the api/i);
    expect(h.wire.counters.requests).toBe(1 + MAX_RETRIES);
  });

  it("malformed JSON in a 200: #N/A about an unexpected answer, never a crash, at most 1 + maxRetries requests", async () => {
    const h = harness({ sandbox: { faults: { rate: 1, kinds: ["malformed"] } } });
    const error = await cellErrorOf(valuation("7203", null, null, null));
    expect(error.code).toBe("#N/A");
    expect(error.message).toMatch(/unexpected answer/i);
    expect(h.wire.counters.requests).toBeGreaterThanOrEqual(1);
    expect(h.wire.counters.requests).toBeLessThanOrEqual(1 + MAX_RETRIES);
  });

  it("a mix of every fault kind: each call settles with a value or a #N/A message", async () => {
    const h = harness({ sandbox: { faults: { rate: 0.6, seed: 42 } } });
    const calls = ["7203", "130A", "7203", "130A"].flatMap((code, i) => [
      financial(code, "sales", -i, null, null, null),
      valuation(code, "per", 5, 1),
    ]);
    const results = await Promise.allSettled(calls);
    for (const r of results) {
      if (r.status === "rejected") {
        const e = r.reason as { code?: unknown; message?: unknown };
        expect(e.code).toBe("#N/A");
        expect(typeof e.message === "string" && e.message.length > 0).toBe(true);
      }
    }
    // Coalescing: the 8 cells need at most 4 distinct resources, each tried at most 1 + maxRetries times.
    expect(h.wire.counters.requests).toBeLessThanOrEqual(4 * (1 + MAX_RETRIES));
  });
});

describe("slow and silent APIs (fake timers)", () => {
  it("answers slower than the client timeout: #N/A naming the timeout, one attempt, settled", async () => {
    jest.useFakeTimers();
    const h = harness({
      sandbox: { latencyMs: 10_000 },
      client: { timeoutMs: 2_000 },
      realSleep: true,
    });
    const outcome = await settleWithFakeTimers(
      financial("7203", "sales", 0, null, null, null),
      5 * 60_000,
    );
    expect(outcome.state).toBe("rejected");
    const error = (outcome as { error: { code: string; message: string } }).error;
    expect(error.code).toBe("#N/A");
    expect(error.message).toMatch(/no answer from the api within 2 s/i);
    // retry.ts: a timeout is not retried (the user already waited the full timeout).
    expect(h.wire.counters.requests).toBe(1);
  });

  it("a fetch that never answers still settles within the default 30 s timeout", async () => {
    jest.useFakeTimers();
    const h = harness({ realSleep: true });
    h.wire.setApp({ request: () => new Promise<Response>(() => undefined) });
    const outcome = await settleWithFakeTimers(valuation("7203", null, null, null), 5 * 60_000);
    expect(outcome.state).toBe("rejected");
    expect(outcome.simulatedMs).toBeLessThanOrEqual(31_000);
    expect((outcome as { error: { message: string } }).error.message).toMatch(/within 30 s/i);
  });

  it("real backoff timers: 503s settle after bounded, capped waits", async () => {
    jest.useFakeTimers();
    const h = harness({ sandbox: { faults: { rate: 1, kinds: ["503"] } }, realSleep: true });
    const outcome = await settleWithFakeTimers(
      financial("7203", "sales", 0, null, null, null),
      10 * 60_000,
    );
    expect(outcome.state).toBe("rejected");
    expect(h.wire.counters.requests).toBe(1 + MAX_RETRIES);
    // retry.ts caps each wait at 20 s: three retries can never take more than a minute.
    expect(outcome.simulatedMs).toBeLessThanOrEqual(3 * 20_000 + 1_000);
  });
});
