// The client end to end with a recording fetch: coalescing, cache, stale fallback, key handling, economy.

import {
  AbortError,
  AuthenticationError,
  ConnectionError,
  NotFoundError,
} from "../../src/client/errors";
import {
  PRODUCTION_BASE_URL,
  SANDBOX_BASE_URL,
  createClient,
  type KaishaClient,
} from "../../src/client/client";
import { isStale, staleInfo } from "../../src/client/stale";
import {
  CLIENT_T0,
  TEST_KEY,
  annualBody,
  apiError,
  recordingClient,
  recordingFetch,
  reply,
  sequence,
} from "./helpers";
import { resolveEdinetCode } from "../../src/domain/edinet-resolution";
import { widestFinancials } from "../../src/domain/financials-window";

const setup = recordingClient;

describe("basics", () => {
  test("base URL constants", () => {
    expect(PRODUCTION_BASE_URL).toBe("https://api.irbank.net/v1");
    expect(SANDBOX_BASE_URL).toBe("http://127.0.0.1:8787/v1");
    expect(createClient().baseUrl).toBe(PRODUCTION_BASE_URL);
  });

  test("no key: AuthenticationError missing_key and nothing is sent", async () => {
    expect.assertions(4);
    for (const apiKey of [undefined, "", "   ", () => undefined]) {
      const rec = recordingFetch();
      const client = createClient({ apiKey, fetch: rec.fetch, ratePerMinute: 0 });
      const err = await client.valuations({ security_code: "7203" }).catch((e: unknown) => e);
      if (
        !(err instanceof AuthenticationError) ||
        err.code !== "missing_key" ||
        rec.requests.length !== 0
      ) {
        throw new Error(`unexpected for ${String(apiKey)}`);
      }
      expect(err.message).toBe("API key not set: open the Kaisha pane");
    }
  });

  test("setApiKey and setBaseUrl apply to the next request", async () => {
    const { rec, client } = setup(() => reply(200, { remaining: 3 }), { apiKey: undefined });
    await expect(client.usage()).rejects.toBeInstanceOf(AuthenticationError);
    client.setApiKey(TEST_KEY);
    client.setBaseUrl("http://127.0.0.1:9999/v1/");
    await client.usage();
    expect(rec.requests[0]?.url).toBe("http://127.0.0.1:9999/v1/usage");
    expect(rec.requests[0]?.headers.Authorization).toBe(`Bearer ${TEST_KEY}`);
  });

  test("usage is never served from the cache and records lastUsageRemaining", async () => {
    const { rec, client } = setup(
      sequence(reply(200, { remaining: 3700 }), reply(200, { remaining: 3699 })),
    );
    expect(client.stats().lastUsageRemaining).toBeNull();
    await client.usage();
    await client.usage();
    expect(rec.requests).toHaveLength(2);
    expect(client.stats()).toMatchObject({ lastUsageRemaining: 3699, cacheHits: 0 });
  });

  test("onRequest sees operation, URL and attempt, never the key", async () => {
    const seen: unknown[] = [];
    const { client } = setup(() => reply(200, { remaining: 1 }), {
      onRequest: (info) => seen.push(info),
    });
    await client.usage();
    expect(seen).toEqual([
      { operationId: "getUsage", method: "GET", url: `${PRODUCTION_BASE_URL}/usage`, attempt: 0 },
    ]);
    expect(JSON.stringify(seen)).not.toContain(TEST_KEY);
  });

  test("answers are frozen so a caller cannot corrupt the cache", async () => {
    const { client } = setup(() =>
      reply(200, { security_code: "7203", peers: [{ security_code: "7267" }], reason: null }),
    );
    const body = await client.peers({ security_code: "7203" });
    expect(Object.isFrozen(body)).toBe(true);
    expect(Object.isFrozen(body.peers)).toBe(true);
  });
});

describe("coalescing", () => {
  test("10 concurrent identical calls -> 1 fetch, same answer", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { rec, client } = setup(async () => {
      await gate;
      return reply(200, { security_code: "7203", peers: [], reason: null });
    });
    const calls = Array.from({ length: 10 }, () =>
      client.peers({ security_code: "7203", limit: 8 }),
    );
    release();
    const bodies = await Promise.all(calls);
    expect(rec.requests).toHaveLength(1);
    expect(new Set(bodies).size).toBe(1);
    expect(client.stats()).toMatchObject({ requestsSent: 1, coalesced: 9 });
  });

  test("parameter order and number-vs-string do not split requests", async () => {
    const { rec, client } = setup(() => reply(200, { prices: [], next_cursor: null }));
    await Promise.all([
      client.prices({ code: "7203", limit: 5, from: "2024-01-01" }),
      client.prices({ from: "2024-01-01", limit: "5", code: 7203 } as never),
    ]);
    expect(rec.requests).toHaveLength(1);
  });

  test("one caller aborting does not cancel the others; the last one leaving aborts the request", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { rec, client } = setup(async (req) => {
      await (req.url.includes("6758") ? new Promise(() => undefined) : gate);
      return reply(200, { security_code: "7203", peers: [], reason: null });
    });
    const a = new AbortController();
    const first = client
      .peers({ security_code: "7203" }, { signal: a.signal })
      .catch((e: unknown) => e);
    const second = client.peers({ security_code: "7203" });
    // The shared request is under way (the exchange's code is loaded before the first one).
    while (rec.requests.length < 1) await new Promise((r) => setImmediate(r));
    a.abort();
    expect(await first).toBeInstanceOf(AbortError);
    expect(rec.requests[0]?.signal.aborted).toBe(false);
    release();
    await expect(second).resolves.toMatchObject({ security_code: "7203" });

    const b = new AbortController();
    const lone = client
      .peers({ security_code: "6758" }, { signal: b.signal })
      .catch((e: unknown) => e);
    while (rec.requests.length < 2) await new Promise((r) => setImmediate(r));
    expect(rec.requests[1]?.signal.aborted).toBe(false);
    b.abort();
    expect(rec.requests[1]?.signal.aborted).toBe(true);
    expect(await lone).toBeInstanceOf(AbortError);
  });
});

describe("cache freshness and stale fallback", () => {
  test("latest prices answer from the cache until the next close (15:30 JST), then the API is asked again", async () => {
    const { rec, client, advance } = setup(() =>
      reply(200, { code: "7203", prices: [], next_cursor: null, reason: null }),
    );
    await client.prices({ code: "7203" }); // 10:00 JST
    advance(5 * 3_600_000 + 29 * 60_000); // 15:29 JST
    await client.prices({ code: "7203" });
    expect(rec.requests).toHaveLength(1);
    advance(60_000); // 15:30 JST: the close
    await client.prices({ code: "7203" });
    expect(rec.requests).toHaveLength(2);
    expect(client.stats().cacheHits).toBe(1);
  });

  test("financials stay fresh for hours, rankings for a minute", async () => {
    const { rec, client, advance } = setup((req) =>
      req.url.includes("/rankings/")
        ? reply(200, { metric: "gainers", items: [] })
        : reply(200, annualBody(30)),
    );
    await widestFinancials(client, { edinet_code: "E02144" });
    await client.rankings({ metric: "gainers" });
    advance(61_000);
    await widestFinancials(client, { edinet_code: "E02144" });
    await client.rankings({ metric: "gainers" });
    expect(rec.requests.map((r) => r.url.replace(PRODUCTION_BASE_URL, ""))).toEqual([
      "/financials?edinet_code=E02144&period=annual&years=30",
      "/rankings/gainers",
      "/rankings/gainers",
    ]);
  });

  test("ttlMs overrides the default per operation", async () => {
    const { rec, client, advance } = setup(() => reply(200, { prices: [] }), {
      ttlMs: { getPrices: 1000 },
    });
    await client.prices({ code: "7203" });
    advance(1001);
    await client.prices({ code: "7203" });
    expect(rec.requests).toHaveLength(2);
  });

  test("an expired answer is served, marked stale, when the API fails transiently", async () => {
    const { rec, client, advance } = setup(
      sequence(
        reply(200, { code: "7203", prices: [{ close: 1 }] }),
        new TypeError("offline"),
        apiError(503, "x", "x"),
      ),
    );
    const fresh = await client.prices({ code: "7203" });
    expect(isStale(fresh)).toBe(false);
    advance(6 * 3_600_000); // past the close
    const stale = await client.prices({ code: "7203" });
    expect(stale).toEqual(fresh);
    expect(isStale(stale)).toBe(true);
    expect(Object.keys(stale)).toEqual(Object.keys(fresh));
    expect(JSON.stringify(stale)).toBe(JSON.stringify(fresh));
    const info = staleInfo(stale);
    expect(info?.error).toBeInstanceOf(ConnectionError);
    expect(info?.error.stale).toBe(true);
    expect(info?.storedAt).toBe(CLIENT_T0);
    await client.prices({ code: "7203" });
    expect(rec.requests).toHaveLength(3);
    expect(client.stats().staleServed).toBe(2);
  });

  test("no stale answer for a 404 or with cache no-store; no answer at all without a previous one", async () => {
    const { client, advance } = setup(
      sequence(
        reply(200, { prices: [] }),
        apiError(404, "not_found", "gone"),
        new TypeError("offline"),
      ),
    );
    await client.prices({ code: "7203" });
    advance(6 * 3_600_000); // past the close
    await expect(client.prices({ code: "7203" })).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.prices({ code: "7203" }, { cache: "no-store" })).rejects.toBeInstanceOf(
      ConnectionError,
    );
    await expect(client.prices({ code: "6758" })).rejects.toBeInstanceOf(ConnectionError);
    expect(client.stats().staleServed).toBe(0);
  });

  test("cache reload asks the API even when fresh; invalidateAll forgets everything", async () => {
    const { rec, client } = setup(() => reply(200, { prices: [] }));
    await client.prices({ code: "7203" });
    await client.prices({ code: "7203" }, { cache: "reload" });
    await client.prices({ code: "7203" });
    expect(rec.requests).toHaveLength(2);
    await client.invalidateAll();
    await client.prices({ code: "7203" });
    expect(rec.requests).toHaveLength(3);
  });

  test("sandbox and production answers never mix", async () => {
    const { rec, client } = setup(() => reply(200, { prices: [] }));
    await client.prices({ code: "7203" });
    client.setBaseUrl(SANDBOX_BASE_URL);
    await client.prices({ code: "7203" });
    expect(rec.requests).toHaveLength(2);
  });

  test("a failing cache store never fails a request", async () => {
    const broken = {
      get: () => Promise.reject(new Error("quota")),
      set: () => Promise.reject(new Error("quota")),
      delete: () => Promise.reject(new Error("quota")),
      clear: () => Promise.reject(new Error("quota")),
      keys: () => Promise.reject(new Error("quota")),
    };
    const { client } = setup(() => reply(200, { prices: [] }), { cacheStore: broken });
    await expect(client.prices({ code: "7203" })).resolves.toEqual({ prices: [] });
  });
});

describe("resolveEdinetCode", () => {
  test("an EDINET code passes through without a request", async () => {
    const { rec, client } = setup();
    await expect(resolveEdinetCode(client, " e02144 ")).resolves.toBe("E02144");
    expect(rec.requests).toHaveLength(0);
  });

  test("a security code is resolved once via the disclosures list (limit=1), concurrently shared", async () => {
    const { rec, client } = setup(() =>
      reply(200, {
        security_code: "7203",
        edinet_code: "E02144",
        disclosures: [],
        next_cursor: null,
        reason: null,
      }),
    );
    const results = await Promise.all([
      resolveEdinetCode(client, 7203),
      resolveEdinetCode(client, "7203"),
      resolveEdinetCode(client, "7203"),
    ]);
    expect(results).toEqual(["E02144", "E02144", "E02144"]);
    expect(rec.requests.map((r) => r.url)).toEqual([
      `${PRODUCTION_BASE_URL}/securities/7203/disclosures?limit=1`,
    ]);
    await client.invalidateAll();
    expect(await resolveEdinetCode(client, "7203")).toBe("E02144");
    expect(rec.requests).toHaveLength(2);
  });

  test("a cached /financials answer for the security code is used instead of a request", async () => {
    const { rec, client } = setup(() => reply(200, annualBody(30, "E02144")));
    await widestFinancials(client, {
      security_code: "7203",
      period: "quarterly",
      as_of: "2024/03",
    });
    expect(await resolveEdinetCode(client, "7203")).toBe("E02144");
    expect(rec.requests).toHaveLength(1);
  });

  test("codes learned from screening results need no request", async () => {
    const { rec, client } = setup(() =>
      reply(200, {
        securities: [{ security_code: "6758", edinet_code: "E01777", name: "Sony", metrics: [] }],
        total_count: 1,
        next_cursor: null,
      }),
    );
    await client.screening({ name: "ソニー" });
    expect(await resolveEdinetCode(client, "6758")).toBe("E01777");
    expect(rec.requests).toHaveLength(1);
  });

  test("a mapping learned from the sandbox is not reused for production", async () => {
    const { rec, client } = setup(() =>
      reply(200, {
        security_code: "7203",
        edinet_code: "E02144",
        disclosures: [],
        next_cursor: null,
      }),
    );
    client.setBaseUrl(SANDBOX_BASE_URL);
    await resolveEdinetCode(client, "7203");
    client.setBaseUrl(PRODUCTION_BASE_URL);
    await resolveEdinetCode(client, "7203");
    expect(rec.requests.map((r) => r.url.split("/v1")[0])).toEqual([
      "http://127.0.0.1:8787",
      "https://api.irbank.net",
    ]);
  });

  test("an unknown security code -> NotFoundError", async () => {
    const { client } = setup(() => apiError(404, "not_found", "security not found"));
    await expect(resolveEdinetCode(client, "9999")).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("withOptions", () => {
  test("a copy with other options shares cache and stats but not settings", async () => {
    const { rec, client } = setup(() => reply(200, { prices: [] }));
    const copy: KaishaClient = client.withOptions({ timeoutMs: 5000, lang: "en" });
    await client.prices({ code: "7203" });
    await copy.prices({ code: "7203" });
    expect(rec.requests).toHaveLength(1);
    expect(copy.stats().cacheHits).toBe(1);
    expect(copy.lang).toBe("en");
    expect(client.lang).toBe("ja");
    expect(copy.message(new AuthenticationError("missing_key"))).toBe(
      "API key not set: open the Kaisha pane",
    );
    expect(client.message(new AuthenticationError("missing_key"))).toBe(
      "APIキーが未設定です：Kaishaパネルを開いて設定してください",
    );
  });
});

describe("cache-only copies (value preview)", () => {
  test("a cacheOnly copy answers fresh entries, including narrower /financials windows, and sends nothing else", async () => {
    const { rec, client } = setup(() => reply(200, annualBody(30)));
    await widestFinancials(client, { security_code: "7203" });
    expect(rec.requests).toHaveLength(1);
    const preview = client.withOptions({ cacheOnly: true });
    const narrow = await widestFinancials(preview, { security_code: "7203", years: 3 });
    expect(narrow.periods).toHaveLength(3);
    const missing = await preview
      .valuations({ security_code: "7203" })
      .catch((e: unknown) => e as { code?: string; message?: string });
    expect(missing).toMatchObject({ code: "not_cached", message: "Preview: press Enter to fetch" });
    await expect(preview.usage()).rejects.toMatchObject({ code: "not_cached" });
    await expect(resolveEdinetCode(preview, "9999")).rejects.toMatchObject({ code: "not_cached" });
    expect(rec.requests).toHaveLength(1);
  });

  test("an expired entry is not previewed: cache-only never serves stale data or sends", async () => {
    const { rec, client, advance } = setup(() => reply(200, { history: [], attribution: {} }));
    await client.valuations({ security_code: "7203" });
    advance(8 * 24 * 60 * 60 * 1000); // past the company's weekly slot
    const preview = client.withOptions({ cacheOnly: true });
    await expect(preview.valuations({ security_code: "7203" })).rejects.toMatchObject({
      code: "not_cached",
    });
    expect(rec.requests).toHaveLength(1);
  });
});
