// The daily limit and a refused key are the key's state: after the first such answer nothing more is sent, cells settle at once.
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import { financial } from "../../functions/financial-cell";
import { financials } from "../../functions/financials";
import { setHostCapabilities } from "../../functions/host";
import { setClientForTesting } from "../../src/session";
import type { FetchLike, ResponseLike } from "../../src/client";
import { cellErrorOf, harness, type Harness } from "./support/harness";
import { settleWithFakeTimers } from "./support/settle";

// Generous per-test bound: the first test of a file also builds the sandbox dataset, and the load
// case runs 10,000 cells (a liveness bound on a busy 2-core machine, not a timing assertion).
jest.setTimeout(240_000);

const HOUR = 3_600_000;
const KEY_B = "kaisakey_" + "B".repeat(43);

afterEach(() => {
  setClientForTesting(undefined);
  setHostCapabilities({ dataTypes: false });
  jest.useRealTimers();
});

/** The API's error object as a Response. */
function apiError(status: number, code: string, message: string, retryAfter?: string): Response {
  return Response.json(
    { error: { code, message } },
    { status, headers: retryAfter === undefined ? {} : { "Retry-After": retryAfter } },
  );
}

const pathOf = (input: string) => new URL(input).pathname;

describe("a per-minute 429 is never taken for the daily limit", () => {
  it("a 429 rate_limited whose message says quota is retried, and the cell shows its figure", async () => {
    const h = harness();
    const healthy = h.sandbox.app;
    let refused = 0;
    h.wire.setApp({
      request(input: string, init?: RequestInit) {
        if (pathOf(input).endsWith("/financials") && refused === 0) {
          refused += 1;
          return apiError(429, "rate_limited", "Request quota exceeded for this minute.", "3");
        }
        return healthy.request(input, init);
      },
    });
    const shown = await financial("7203", "sales", 0, null, null, null);
    expect(typeof shown).toBe("number");
    expect(h.wire.counters.requests).toBe(2);
    expect(h.client.sendState()).toBeUndefined();
  });
});

describe("the daily limit stops the sending", () => {
  /**
   * An API with a daily cap of `cap` requests: each /financials answer is the sandbox's 7203 answer
   * under the asked code (its own EDINET code), then the daily limit. Counts the requests that
   * arrive after the client has read the first daily-limit answer, and when it read it.
   */
  async function cappedApi(h: Harness, cap: number) {
    const template = (await (
      await h.sandbox.app.request("/v1/financials?security_code=7203&period=annual&years=30", {
        headers: { Authorization: `Bearer ${DEMO_API_KEY}` },
      })
    ).json()) as Record<string, unknown>;
    const seen = { answered: 0, afterLimit: 0, limitReadAt: undefined as number | undefined };
    const answer = (status: number, body: () => string, onRead?: () => void): ResponseLike => ({
      status,
      headers: { get: (name) => (name.toLowerCase() === "retry-after" ? "21600" : null) },
      text: () => {
        onRead?.();
        return Promise.resolve(body());
      },
    });
    const limit = () =>
      JSON.stringify({ error: { code: "daily_limit_exceeded", message: "Daily request limit." } });
    // The text of { ...template, edinet_code } for any code, stringified once: the same bytes as
    // JSON.stringify of each answer (a thousand 30-year bodies stringified were much of this CPU).
    const PLACEHOLDER = JSON.stringify("edinet code goes here");
    const [head, tail, ...more] = JSON.stringify({
      ...template,
      edinet_code: JSON.parse(PLACEHOLDER) as string,
    }).split(PLACEHOLDER);
    if (head === undefined || tail === undefined || more.length > 0)
      throw new Error("the placeholder must appear once in the template's text");
    const answerOf = (edinet: string) => () => `${head}${JSON.stringify(edinet)}${tail}`;
    if (answerOf("E07203")() !== JSON.stringify({ ...template, edinet_code: "E07203" }))
      throw new Error("the spliced text differs from the stringified answer");
    const fetch: FetchLike = (url) => {
      if (seen.limitReadAt !== undefined) seen.afterLimit += 1;
      if (seen.answered >= cap)
        return Promise.resolve(answer(429, limit, () => (seen.limitReadAt ??= h.clock.now)));
      seen.answered += 1;
      const code = new URL(url).searchParams.get("security_code") ?? "";
      const edinet = `E${code.padStart(5, "0")}`;
      return Promise.resolve(answer(200, answerOf(edinet)));
    };
    return { seen, fetch };
  }

  it("10,000 cells over 2,000 companies at a daily cap of 1,000: at most one request after the first daily-limit answer, every cell settles at once", async () => {
    // Paced as the add-in is (60 a minute); the client's sleeps move the manual clock at once.
    const h = harness({ client: { ratePerMinute: 60 } });
    const { seen, fetch } = await cappedApi(h, 1_000);
    h.client = h.client.withOptions({ fetch });
    setClientForTesting(h.client, { lang: "en" });
    const ITEMS = ["sales", "operating_profit", "ordinary_income", "net_income", "total_assets"];
    const settledAt: number[] = [];
    const outcomes = await Promise.all(
      Array.from({ length: 2_000 }, (_, i) => String(1_000 + i)).flatMap((code) =>
        ITEMS.map((item) =>
          Promise.resolve(financial(code, item, 0, null, null, null)).then(
            (value) => {
              settledAt.push(h.clock.now);
              return { value };
            },
            (error: unknown) => {
              settledAt.push(h.clock.now);
              return { error: error as { code: string; message: string } };
            },
          ),
        ),
      ),
    );
    expect(outcomes).toHaveLength(10_000);
    expect(seen.answered).toBe(1_000);
    expect(seen.afterLimit).toBeLessThanOrEqual(1);
    const figures = outcomes.filter((o) => "value" in o);
    const limited = outcomes.filter(
      (o) =>
        "error" in o &&
        o.error.code === "#N/A" &&
        /^Daily request limit reached: nothing is sent until /.test(o.error.message),
    );
    expect(figures).toHaveLength(5_000);
    expect(limited).toHaveLength(5_000);
    // Settled when the limit answered, not after queueing behind the pacer for 1,000 more turns
    // (the clock moves only by the pacer's sleeps: one more turn at most).
    expect(Math.max(...settledAt) - (seen.limitReadAt as number)).toBeLessThanOrEqual(2_000);
  });

  it("a stored figure stands in, marked stale, without a request; the next JST day sends again", async () => {
    // 18:00 JST; the sandbox counts on the same clock and resets at JST midnight (15:00 UTC).
    const h = harness({ sandbox: { dailyLimit: 2 }, client: { ttlMs: { getFinancials: HOUR } } });
    const good = await financial("7203", "sales", 0, null, null, null);
    expect(typeof good).toBe("number");
    setHostCapabilities({ dataTypes: true });
    await financial("6758", "sales", 0, null, null, null);
    expect((await cellErrorOf(financial("9984", "sales", 0, null, null, null))).message).toMatch(
      /^Daily request limit reached: nothing is sent until /,
    );
    const sent = h.wire.counters.requests;
    h.clock.now = Date.parse("2026-11-20T14:00:00Z"); // 23:00 JST: 7203's answer expired (ttlMs)
    expect(await financial("7203", "sales", 0, null, null, null)).toEqual({
      type: "Double",
      basicValue: good,
      numberFormat: expect.stringMatching(/" \(stale\)"$/) as unknown,
    });
    expect((await cellErrorOf(financial("8306", "sales", 0, null, null, null))).code).toBe("#N/A");
    expect(h.wire.counters.requests).toBe(sent);
    setHostCapabilities({ dataTypes: false });
    h.clock.now = Date.parse("2026-11-20T15:00:00Z"); // 00:00 JST: a new day, the count reset
    expect(h.client.sendState()).toBeUndefined();
    expect(typeof (await financial("8306", "sales", 0, null, null, null))).toBe("number");
    expect(h.wire.counters.requests).toBe(sent + 1);
  });

  it("a table's stored answer says why in its title row: the daily limit, not 'API unavailable'", async () => {
    const h = harness({ sandbox: { dailyLimit: 2 }, client: { ttlMs: { getFinancials: HOUR } } });
    const table = () =>
      Promise.resolve(financials("7203", [["sales"]], null, 3, null, null, null, 2)) as Promise<
        unknown[][]
      >;
    const good = await table();
    expect(JSON.stringify(good[0])).not.toMatch(/stale/);
    await financial("6758", "sales", 0, null, null, null);
    expect((await cellErrorOf(financial("9984", "sales", 0, null, null, null))).message).toMatch(
      /^Daily request limit reached/,
    );
    const sent = h.wire.counters.requests;
    h.clock.now = Date.parse("2026-11-20T14:00:00Z"); // 23:00 JST: the stored answer expired
    const shown = await table();
    expect(shown[0]?.[1]).toMatch(/ \(stale: daily request limit reached\)$/);
    expect(shown.slice(1)).toEqual(good.slice(1));
    expect(h.wire.counters.requests).toBe(sent);
  });

  it("background due refreshes after the limit send nothing and count nothing; /usage with requests left lifts it", async () => {
    jest.useFakeTimers({ now: Date.parse("2026-11-20T09:00:00Z") });
    const h = harness({
      realSleep: true,
      client: {
        ratePerMinute: 0,
        staleWhileRevalidate: true,
        ttlMs: { getFinancials: HOUR },
        maxRetries: 0,
      },
    });
    // Ten companies with statutory filings (an ETF has no /financials), and one more.
    const listed = await settleWithFakeTimers(h.client.securities({ limit: 60 }), 60_000);
    if (listed.state !== "fulfilled") throw new Error("no securities");
    const codes: string[] = [];
    let other = "";
    for (const { code } of listed.value.securities) {
      const out = await settleWithFakeTimers(financial(code, "sales", 0, null, null, null), 60_000);
      if (out.state !== "fulfilled") continue;
      if (codes.length < 10) codes.push(code);
      else if (other === "") other = code;
    }
    expect(codes).toHaveLength(10);
    expect(other).not.toBe("");
    // Only the ten stay stored (the other one is asked again below).
    await h.store.clear();
    for (const code of codes) {
      const out = await settleWithFakeTimers(financial(code, "sales", 0, null, null, null), 60_000);
      expect(out.state).toBe("fulfilled");
    }
    // 10 answers stored; then a foreground request meets the daily limit.
    const healthy = h.sandbox.app;
    let refusals = 0;
    h.wire.setApp({
      request(input: string, init?: RequestInit) {
        if (pathOf(input).endsWith("/usage")) return healthy.request(input, init);
        refusals += 1;
        return apiError(429, "daily_limit_exceeded", "Daily request limit reached.", "21600");
      },
    });
    await settleWithFakeTimers(financial(other, "sales", 0, null, null, null), 60_000);
    expect(h.client.sendState()?.reason).toBe("daily_limit");
    jest.setSystemTime(Date.now() + 2 * HOUR); // every stored answer is due (ttlMs)
    const sent = h.wire.counters.requests;
    for (const code of codes) {
      const out = await settleWithFakeTimers(financial(code, "sales", 0, null, null, null), 5_000);
      expect(out.state).toBe("fulfilled"); // the stored figure, at once
    }
    await jest.advanceTimersByTimeAsync(60_000);
    const queue = h.client.revalidation().status();
    expect(h.wire.counters.requests).toBe(sent);
    expect(queue.paused).toBe("limit");
    expect(queue.spentToday).toBe(0);
    expect(queue.requests).toBe(codes.length);
    expect(refusals).toBe(1);

    // /usage (free): the sandbox counted 10 of its daily limit for this key, so requests remain.
    h.wire.setApp(healthy);
    await settleWithFakeTimers(h.client.usage(), 10_000);
    expect(h.client.sendState()).toBeUndefined();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(h.client.revalidation().status().spentToday).toBe(codes.length);
  });
});

describe("a refused key (401) is the same kind of state", () => {
  it("cells keep their stored figures marked stale or ask for a new key; nothing more is sent; a new key resumes", async () => {
    const key = { current: DEMO_API_KEY as string };
    const h = harness({
      sandbox: { apiKeys: [DEMO_API_KEY, KEY_B] },
      client: { apiKey: () => key.current },
    });
    const good = await financial("7203", "sales", 0, null, null, null);
    expect(typeof good).toBe("number");
    setHostCapabilities({ dataTypes: true });
    // The key is revoked on the service.
    const healthy = h.sandbox.app;
    h.wire.setApp({
      request(input: string, init?: RequestInit) {
        if (new Headers(init?.headers).get("authorization") === `Bearer ${DEMO_API_KEY}`)
          return apiError(401, "unauthorized", "Invalid API key.");
        return healthy.request(input, init);
      },
    });
    h.clock.now += 8 * 24 * HOUR; // 7203's stored answer expired
    expect(await financial("7203", "sales", 0, null, null, null)).toEqual({
      type: "Double",
      basicValue: good,
      numberFormat: expect.stringMatching(/" \(stale\)"$/) as unknown,
    });
    const sent = h.wire.counters.requests;
    expect(await cellErrorOf(financial("6758", "sales", 0, null, null, null))).toEqual({
      code: "#N/A",
      message:
        "The API refused this key (401): nothing more is sent with it; enter a new key in the Kaisha pane",
    });
    await h.client.usage().catch(() => undefined);
    expect(h.wire.counters.requests).toBe(sent);
    expect(h.client.sendState()).toEqual({ reason: "key_refused" });

    setHostCapabilities({ dataTypes: false });
    key.current = KEY_B;
    expect(h.client.sendState()).toBeUndefined();
    expect(typeof (await financial("6758", "sales", 0, null, null, null))).toBe("number");
    expect(h.wire.counters.requests).toBe(sent + 1);
  });
});
