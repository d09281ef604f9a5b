// Under faults: answers stay with the key that fetched them, every cell settles within the
// call's bound, and bad answers (oversize, malformed, deeply nested) fall back to the last good value.
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import * as TYPED from "../../functions/index";
import {
  MemoryCacheStore,
  createClient,
  type KaishaClient,
  TieredCacheStore,
} from "../../src/client";
import { setClientForTesting } from "../../src/session";
import { setHostCapabilities } from "../../functions/host";
import { BASE_URL, cellErrorOf, harness, type Harness } from "./support/harness";
import { settleWithFakeTimers, type Outcome } from "./support/settle";

// The wrappers' parameters carry custom-enum types; tests pass what Excel passes (null, text).
const { COMPANY, FINANCIAL } = TYPED as unknown as Record<
  keyof typeof TYPED,
  (...args: unknown[]) => Promise<unknown>
>;

// Generous per-test bound: the first test of a file also builds the sandbox dataset (seconds on a
// busy 2-core machine). A liveness bound, not a timing assertion.
jest.setTimeout(60_000);

const invocation = (): CustomFunctions.CancelableInvocation =>
  ({}) as CustomFunctions.CancelableInvocation;

const KEY_B = "kaisakey_" + "B".repeat(43);

const sales = (): Promise<unknown> => FINANCIAL("7203", "sales", 0, null, null, null, invocation());

afterEach(() => setClientForTesting(undefined));

/** A sandbox knowing two keys, where key B's plan is refused /financials (403), as on the live API. */
function twoKeys() {
  const key = { current: DEMO_API_KEY as string | undefined };
  const persistent = new MemoryCacheStore();
  const store = new TieredCacheStore(new MemoryCacheStore(), persistent);
  const h = harness({
    sandbox: { apiKeys: [DEMO_API_KEY, KEY_B] },
    client: { apiKey: () => key.current, cacheStore: store },
  });
  const healthy = h.sandbox.app;
  h.wire.setApp({
    request(input: string, init?: RequestInit) {
      const auth = new Headers(init?.headers).get("authorization");
      if (auth === `Bearer ${KEY_B}` && new URL(input).pathname.endsWith("/financials")) {
        return Response.json(
          { error: { code: "forbidden", message: "Your plan does not include financials." } },
          { status: 403 },
        );
      }
      return healthy.request(input, init);
    },
  });
  return { h, key, store, persistent };
}

/** A second session (Excel reopened): a new client over the same persistent records. */
function reopen(h: Harness, persistent: MemoryCacheStore, apiKey: string | undefined) {
  const store = new TieredCacheStore(new MemoryCacheStore(), persistent);
  const client: KaishaClient = createClient({
    baseUrl: BASE_URL,
    apiKey,
    fetch: h.wire.fetch,
    now: () => h.clock.now,
    ratePerMinute: 0,
    lang: "en",
    cacheStore: store,
    checkAnswers: true,
  });
  setClientForTesting(client, { lang: "en" });
  return { client, store };
}

describe("answers belong to the key that fetched them", () => {
  it("a key whose plan is refused /financials (403) gets the 403, not the other key's cached figures", async () => {
    const { h, key } = twoKeys();
    expect(typeof (await sales())).toBe("number");
    const before = h.wire.counters.requests;
    key.current = KEY_B;
    expect(await cellErrorOf(sales())).toEqual({
      code: "#N/A",
      message: "Not permitted for this key (403): your plan may not include this data",
    });
    expect(h.wire.counters.requests - before).toBe(1);
  });

  it("no key: the cell asks for a key, sends nothing and reads nothing from the cache", async () => {
    const { h, key } = twoKeys();
    expect(typeof (await sales())).toBe("number");
    const before = h.wire.counters.requests;
    key.current = undefined;
    expect(await cellErrorOf(sales())).toEqual({
      code: "#N/A",
      message: "API key not set: open the Kaisha pane",
    });
    expect(h.client.peek("getFinancials", { security_code: "7203" })).toBeUndefined();
    expect(h.wire.counters.requests).toBe(before);
  });

  it("the key's own answers come back with it: A, then B, then A again sends nothing for A", async () => {
    const { h, key } = twoKeys();
    const first = await sales();
    key.current = KEY_B;
    await cellErrorOf(sales());
    key.current = DEMO_API_KEY;
    const before = h.wire.counters.requests;
    // Changing the key emptied the memory tier; A's records in the persistent tier answer.
    expect(await sales()).toBe(first);
    expect(h.wire.counters.requests).toBe(before);
  });

  it("changing the key empties the memory tier; the stores hold fingerprints, never the key", async () => {
    const { key, store, persistent } = twoKeys();
    await sales();
    expect((await store.memory.keys()).length).toBeGreaterThan(0);
    key.current = KEY_B;
    await cellErrorOf(sales());
    const inMemory = await store.memory.keys();
    await store.flush();
    const everything = [...inMemory, ...(await persistent.keys())];
    // Only B's partition is in memory now (B asked /financials and got nothing to cache).
    expect(inMemory).toEqual([]);
    for (const k of everything) {
      expect(k).not.toContain(DEMO_API_KEY);
      expect(k).not.toContain(KEY_B);
      expect(k).not.toContain("sandbox.test");
    }
  });

  it("Forget: the key's answers leave memory and the persistent tier; a new session without a key gets only the 'set a key' message", async () => {
    const { h, key, store, persistent } = twoKeys();
    await sales();
    await store.flush();
    expect((await persistent.keys()).length).toBeGreaterThan(0);
    await h.client.forgetKey();
    key.current = undefined;
    expect(await store.memory.keys()).toEqual([]);
    expect(await persistent.keys()).toEqual([]);
    const before = h.wire.counters.requests;
    reopen(h, persistent, undefined);
    expect(await cellErrorOf(sales())).toEqual({
      code: "#N/A",
      message: "API key not set: open the Kaisha pane",
    });
    expect(h.wire.counters.requests).toBe(before);
  });

  it("Forget keeps another key's records (unreadable without that key) and reopening with that key sends nothing", async () => {
    const { h, key, store, persistent } = twoKeys();
    await FINANCIAL("7203", "sales", 0, null, null, null, invocation()); // A's answers
    key.current = KEY_B;
    await h.client.securities({ q: "7203", limit: 20 }); // B's answers
    await store.flush();
    await h.client.forgetKey(); // forgets B
    key.current = undefined;
    expect((await persistent.keys()).length).toBeGreaterThan(0);
    const { client } = reopen(h, persistent, DEMO_API_KEY);
    const before = h.wire.counters.requests;
    expect(typeof (await sales())).toBe("number");
    await expect(client.securities({ q: "7203", limit: 20 })).resolves.toBeDefined();
    // A's /financials answer is read back; B's /securities answer is not A's to read.
    expect(h.wire.counters.requests - before).toBe(1);
  });

  it("reopening with the same key answers from the persistent tier with 0 requests", async () => {
    const { h, store, persistent } = twoKeys();
    const first = await sales();
    await store.flush();
    reopen(h, persistent, DEMO_API_KEY);
    const before = h.wire.counters.requests;
    expect(await sales()).toBe(first);
    expect(h.wire.counters.requests).toBe(before);
  });

  it("a cell with key B never joins key A's /financials fetch still in flight", async () => {
    const { h, key } = twoKeys();
    const healthy = h.sandbox.app;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    h.wire.setApp({
      async request(input: string, init?: RequestInit) {
        if (new Headers(init?.headers).get("authorization") === `Bearer ${KEY_B}`)
          return Response.json(
            { error: { code: "forbidden", message: "Your plan does not include financials." } },
            { status: 403 },
          );
        await gate; // A's answer is still on its way while B's cell asks
        return healthy.request(input, init);
      },
    });
    const forA = sales();
    await new Promise((r) => setImmediate(r));
    key.current = KEY_B;
    const forB = cellErrorOf(sales());
    await new Promise((r) => setImmediate(r));
    release();
    expect(typeof (await forA)).toBe("number");
    expect((await forB).message).toBe(
      "Not permitted for this key (403): your plan may not include this data",
    );
  });

  it("one key at two servers: the same request is asked of each (no answer crosses servers)", async () => {
    const { h } = twoKeys();
    await h.client.securities({ q: "7203", limit: 20 });
    const other = h.client.withOptions({ baseUrl: "http://other.test/v1" });
    const before = h.wire.counters.requests;
    await other.securities({ q: "7203", limit: 20 });
    expect(h.wire.counters.requests - before).toBe(1);
  });
});

const HOUR = 3_600_000;

/** A 200 /financials answer of `text` (the rest of the harness stays as is). */
const answering = (text: () => string): { request(input: string): Response } => ({
  request: () =>
    new Response(text(), { status: 200, headers: { "content-type": "application/json" } }),
});

/** A healthy /financials answer with `mutate` applied, as JSON text. */
async function alteredFinancials(
  h: Harness,
  mutate: (body: Record<string, unknown>) => void,
): Promise<string> {
  const res = await h.sandbox.app.request(
    `${BASE_URL}/financials?period=annual&security_code=7203&years=30`,
    { headers: { authorization: `Bearer ${DEMO_API_KEY}` } },
  );
  const body = (await res.json()) as Record<string, unknown>;
  mutate(body);
  return JSON.stringify(body);
}

/** `{"x":{"x":…1…}}` nested `levels` deep, as text (JSON.stringify would recurse that deep). */
const nestedText = (levels: number): string => '{"x":'.repeat(levels) + "1" + "}".repeat(levels);

describe("nothing lost on bad answers: every content error falls back to the last good value, marked", () => {
  const cases: [string, (h: Harness) => Promise<string>][] = [
    ["an answer over 10 MB", async () => `{"pad": "${"x".repeat(10 * 1024 * 1024 + 10)}"}`],
    ["a 200 that is not JSON", async () => "<html>proxy login</html>"],
    ["a required field missing", (h) => alteredFinancials(h, (body) => delete body["periods"])],
    [
      "a non-finite number (1e999)",
      async (h) =>
        (await alteredFinancials(h, (body) => (body["edinet_code"] = "@@"))).replace(
          '"edinet_code":"@@"',
          '"edinet_code":"E02144","extra":1e999',
        ),
    ],
    [
      "a body nested 200,000 levels deep (1.2 MB)",
      async (h) =>
        (await alteredFinancials(h, (body) => (body["extra"] = "@@"))).replace(
          '"extra":"@@"',
          `"extra":${nestedText(200_000)}`,
        ),
    ],
  ];

  it.each(cases)("%s: FINANCIAL keeps its expired value, marked stale", async (_name, make) => {
    const h = harness();
    const good = await sales();
    expect(typeof good).toBe("number");
    h.clock.now += 8 * 24 * HOUR; // past /financials' freshness (src/client/freshness.ts: the weekly check)
    const text = await make(h);
    h.wire.setApp(answering(() => text));
    setHostCapabilities({ dataTypes: true });
    try {
      const shown = await sales();
      expect(shown).toEqual({
        type: "Double",
        basicValue: good,
        numberFormat: expect.stringMatching(/"( \(stale\)|（古い値）)"$/),
      });
    } finally {
      setHostCapabilities({ dataTypes: false });
    }
    expect(h.client.stats().staleServed).toBe(1);
  });

  it("a body nested 200,000 levels deep with nothing cached: #N/A saying so, no stack overflow", async () => {
    const h = harness();
    h.wire.setApp(answering(() => `{"remaining": 1, "x": ${nestedText(200_000)}}`));
    await expect(h.client.usage()).rejects.toMatchObject({
      code: "bad_response",
      kind: "field",
      message: "Unexpected answer from the API (nested over 64 levels deep)",
    });
  });

  it("a 404 without the API's error object (a wrong base URL) is not hidden behind a stale value", async () => {
    const h = harness();
    await sales();
    h.clock.now += 8 * 24 * HOUR;
    h.wire.setApp({ request: () => new Response("Not Found", { status: 404 }) });
    const error = await cellErrorOf(sales());
    expect(error.code).toBe("#N/A");
    expect(h.client.stats().staleServed).toBe(0);
  });
});

/** A 429 with `Retry-After` on every request (the per-minute limit: the client retries within it). */
const limited = (retryAfterS: number): { request(input: string): Response } => ({
  request: () =>
    Response.json(
      { error: { code: "rate_limited", message: "Too many requests." } },
      { status: 429, headers: { "retry-after": String(retryAfterS) } },
    ),
});

/** The bound README states: every call settles within 120 s of the API's own time from its first send. */
const BOUND_MS = 120_000;
const DAY = 24 * HOUR;

function settledValue<T>(outcome: Outcome<T>): T {
  if (outcome.state !== "fulfilled") throw new Error(`expected a value, got ${outcome.state}`);
  return outcome.value;
}

describe("every cell settles within the bound the README states: the whole call", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it("COMPANY (several requests in a row) under 429 + Retry-After: 60 on every request, cache expired: its last good card within 120 s", async () => {
    const h = harness({ realSleep: true, client: { ratePerMinute: 60 } });
    const good = settledValue(await settleWithFakeTimers(COMPANY("7203", invocation()), BOUND_MS));
    jest.setSystemTime(Date.now() + 8 * DAY); // past every answer's freshness (src/client/freshness.ts)
    h.wire.setApp(limited(60));
    const before = h.wire.counters.requests;
    const outcome = await settleWithFakeTimers(COMPANY("7203", invocation()), 10 * 60_000, 1_000);
    expect(outcome.state).toBe("fulfilled");
    expect(outcome.simulatedMs).toBeLessThanOrEqual(BOUND_MS);
    expect(settledValue(outcome)).toEqual(good);
    // Later requests of the call wait behind the pause no longer than the call's bound.
    expect(h.wire.counters.requests - before).toBeLessThanOrEqual(3);
  });

  it("COMPANY with nothing cached under 429 + Retry-After: 60: #N/A within 120 s, not #BUSY! for minutes", async () => {
    const h = harness({ realSleep: true, client: { ratePerMinute: 60 } });
    h.wire.setApp(limited(60));
    const outcome = await settleWithFakeTimers(COMPANY("7203", invocation()), 10 * 60_000, 1_000);
    expect(outcome.state).toBe("rejected");
    expect(outcome.simulatedMs).toBeLessThanOrEqual(BOUND_MS);
    expect((outcome as { error: { code: string } }).error.code).toBe("#N/A");
  });

  it("no fault, COMPANY's later requests queued behind the add-in's own pacing for minutes: still its card, not 'still waiting'", async () => {
    // One request a minute: COMPANY's four requests in a row take over three minutes, all queueing.
    harness({ realSleep: true, client: { ratePerMinute: 1 } });
    const outcome = await settleWithFakeTimers(COMPANY("7203", invocation()), 10 * 60_000, 1_000);
    expect(outcome.state).toBe("fulfilled");
    expect(outcome.simulatedMs).toBeGreaterThan(BOUND_MS);
  });

  it("Retry-After: 9999: cells queued behind the pause answer their last good value at once; one with none says 'still waiting' at once", async () => {
    // One request a minute: the cells with a stored answer are served it without a request of their
    // own (src/client/freshness.ts), and of the two without one, the second waits in the queue
    // when the 429 comes.
    const h = harness({ realSleep: true, client: { ratePerMinute: 1 } });
    const warm = async (code: string) =>
      settledValue(
        await settleWithFakeTimers(
          FINANCIAL(code, "sales", 0, null, null, null, invocation()),
          3 * 60_000,
          1_000,
        ),
      );
    const toyota = await warm("7203");
    const sony = await warm("6758");
    jest.setSystemTime(Date.now() + 8 * DAY);
    // The pacer's clock is monotonic (src/client/monotonic.ts): the warm-up's tokens come back a
    // minute after their requests, not when the wall clock jumps.
    await jest.advanceTimersByTimeAsync(61_000);
    h.wire.setApp(limited(9999));
    const before = h.wire.counters.requests;
    // A company without a stored answer is entered first, so its request is the one that draws
    // the 429 and the companies with one are queued behind the pause (entered first, their own
    // requests for the expired answers would draw it, and they would show their answers anyway).
    const cells = Promise.allSettled([
      FINANCIAL("9984", "sales", 0, null, null, null, invocation()),
      FINANCIAL("7203", "sales", 0, null, null, null, invocation()),
      FINANCIAL("6758", "sales", 0, null, null, null, invocation()),
      FINANCIAL("4452", "sales", 0, null, null, null, invocation()),
    ]);
    const outcome = await settleWithFakeTimers(cells, 10 * 60_000, 100);
    expect(outcome.state).toBe("fulfilled");
    expect(outcome.simulatedMs).toBeLessThan(1_000);
    const [c, a, b, d] = settledValue(outcome);
    expect(a).toEqual({ status: "fulfilled", value: toyota });
    expect(b).toEqual({ status: "fulfilled", value: sony });
    // The two companies without a stored answer: the one whose request drew the 429 says so, the
    // one queued behind the pause says 'still waiting', both at once.
    const messages = [c, d].map((r) => {
      expect(r).toMatchObject({ status: "rejected", reason: { code: "#N/A" } });
      return (r as PromiseRejectedResult).reason.message as string;
    });
    expect(messages.sort()).toEqual([
      "Still waiting for the API: recalculate to retry",
      "Too many requests (429): retry in 9999 s",
    ]);
    // Only one request went out, the first company's: the queued ones gave up without sending.
    expect(h.wire.counters.urls.slice(before)).toEqual([
      expect.stringContaining("security_code=9984"),
    ]);
  });
});
