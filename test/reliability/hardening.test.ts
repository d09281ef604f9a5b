// Under load and hostility: the pacer's per-minute count, bad answers contained, a server
// that echoes the key into every error path, and the sandbox's bounds on what it repeats and keeps.
import { createApp } from "../../sandbox/app";
import { MAX_QUOTED_INPUT } from "../../sandbox/lib/api-error";
import {
  REQUEST_LOG_MAX_BYTES,
  appendLog,
  requestLogBytes,
  type RequestLogEntry,
} from "../../sandbox/lib/request-log";
import * as TYPED from "../../functions/index";
import { toCellError } from "../../functions/excel-errors";
import { createClient, type KaishaClient, CUT_MARKER, EXCEL_MAX_TEXT } from "../../src/client";
import { setClientForTesting } from "../../src/session";
import { cellErrorOf, harness } from "./support/harness";
import { settleWithFakeTimers } from "./support/settle";

// The wrappers' parameters carry custom-enum types; tests pass what Excel passes (null, text).
const { FINANCIAL } = TYPED as unknown as Record<
  keyof typeof TYPED,
  (...args: unknown[]) => Promise<unknown>
>;

// Generous per-test bound: the first test of a file also builds the sandbox dataset (seconds on a
// busy 2-core machine). A liveness bound, not a timing assertion.
jest.setTimeout(60_000);

const HOUR = 3_600_000;
const invocation = (): CustomFunctions.CancelableInvocation =>
  ({}) as CustomFunctions.CancelableInvocation;

afterEach(() => setClientForTesting(undefined));

/** An app answering every request with `make(url)`; the rest of the harness stays as is. */
function answering(make: (url: URL) => Response): { request(input: string): Response } {
  return { request: (input: string) => make(new URL(input)) };
}

describe("pacing with the pacer on (fake timers)", () => {
  afterEach(() => jest.useRealTimers());

  it("130 distinct requests against a 60/min sandbox: never more than 60 in any minute, no 429, all answered", async () => {
    // Platform timers (faked): granted requests leave at once, as in Excel; an instant
    // clock-jumping sleep would hold them back while the clock runs ahead.
    jest.useFakeTimers();
    const sent: number[] = [];
    const h = harness({
      sandbox: { ratePerMinute: 60 },
      client: { ratePerMinute: 60, onRequest: () => sent.push(Date.now()) },
      realSleep: true,
    });
    const calls = Array.from({ length: 130 }, (_, i) =>
      h.client.prices({ code: "7203", limit: i + 1 }),
    );
    const outcome = await settleWithFakeTimers(Promise.allSettled(calls), 10 * 60_000, 1_000);
    expect(outcome.state).toBe("fulfilled");
    const results = (outcome as { value: PromiseSettledResult<unknown>[] }).value;
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    expect(sent).toHaveLength(130);
    expect(h.sandbox.requestLog.filter((e) => e.status === 429)).toEqual([]);
    expect(h.client.stats().retries).toBe(0);
    const sorted = [...sent].sort((x, y) => x - y);
    const busiest = Math.max(
      ...sorted.map((start) => sorted.filter((t) => t >= start && t < start + 60_000).length),
    );
    expect(busiest).toBe(60);
  });
});

describe("bad answers are contained", () => {
  it("a 200 without a field the functions read: #N/A naming the field, not 'Unexpected error'", async () => {
    const h = harness();
    const healthy = h.sandbox.app;
    h.wire.setApp({
      async request(input: string, init?: RequestInit) {
        const res = await healthy.request(input, init);
        const body = (await res.json()) as Record<string, unknown>;
        delete body["periods"];
        return Response.json(body, { status: res.status });
      },
    });
    const error = await cellErrorOf(FINANCIAL("7203", "sales", 0, null, null, null, invocation()));
    expect(error).toEqual({
      code: "#N/A",
      message: "Unexpected answer from the API (field periods)",
    });
  });

  it("a non-finite number (1e999) is refused with the field named", async () => {
    const h = harness();
    h.wire.setApp(
      answering(
        () =>
          new Response('{"remaining": 1e999}', {
            status: 200,
            headers: { "content-type": "application/json" },
          }),
      ),
    );
    await expect(h.client.usage()).rejects.toMatchObject({
      code: "bad_response",
      message: "Unexpected answer from the API (field remaining)",
    });
  });

  it("text longer than Excel's 32,767 characters is cut with a marker", async () => {
    const h = harness();
    const healthy = h.sandbox.app;
    h.wire.setApp({
      async request(input: string, init?: RequestInit) {
        const res = await healthy.request(input, init);
        const body = (await res.json()) as { securities: { name: string }[] };
        if (body.securities[0]) body.securities[0].name = "長".repeat(40_000);
        return Response.json(body);
      },
    });
    const body = await h.client.securities({ limit: 5 });
    const name = body.securities[0]?.name ?? "";
    expect(name).toHaveLength(EXCEL_MAX_TEXT);
    expect(name.endsWith(CUT_MARKER)).toBe(true);
  });

  it("an answer over 10 MB: #N/A 'answer too large', nothing parsed, not retried", async () => {
    const h = harness();
    const huge = `{"remaining": 1, "pad": "${"x".repeat(10 * 1024 * 1024)}"}`;
    h.wire.setApp(answering(() => new Response(huge, { status: 200 })));
    const error = await h.client.usage().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "bad_response", kind: "too_large" });
    expect((error as Error).message).toMatch(/^Answer too large/);
    expect(h.wire.counters.requests).toBe(1);
  });

  it("a captive portal's 200 HTML page: the last good value is served, marked stale", async () => {
    const h = harness();
    const good = await FINANCIAL("7203", "sales", 0, null, null, null, invocation());
    expect(typeof good).toBe("number");
    h.clock.now += 8 * 24 * HOUR; // past the weekly revalidation slot (src/client/freshness.ts)
    h.wire.setApp(
      answering(
        () =>
          new Response("<html><body>Please log in to the hotel Wi-Fi</body></html>", {
            status: 200,
            headers: { "content-type": "text/html" },
          }),
      ),
    );
    const again = await FINANCIAL("7203", "sales", 0, null, null, null, invocation());
    expect(again).toBe(good);
    expect(h.client.stats().staleServed).toBe(1);
  });
});

describe("a server that echoes the key into every error path", () => {
  const KEY = "echoskey_Z9yX8wV7uT6sR5qP4oN3mL2kJ1iH0gF9eD8cB7aZ6yX5w";
  const NEEDLES = [KEY, KEY.slice(9), encodeURIComponent(KEY), KEY.slice(15, 40)];

  /** Every way an answer can fail, each carrying the key it was sent. */
  const FAILURES: [string, (key: string) => Response | Promise<Response>][] = [
    [
      "400",
      (k) =>
        Response.json(
          {
            error: {
              code: "invalid_parameter",
              message: `bad ${k}`,
              details: [{ param: k, reason: "invalid", expected: k }],
            },
          },
          { status: 400 },
        ),
    ],
    [
      "401",
      (k) =>
        Response.json(
          { error: { code: "unauthorized", message: `key ${k} unknown` } },
          { status: 401 },
        ),
    ],
    [
      "403",
      (k) => Response.json({ error: { message: `plan of ${k} lacks this` } }, { status: 403 }),
    ],
    [
      "404",
      (k) =>
        Response.json(
          { error: { code: "not_found", message: `nothing for ${k}` } },
          { status: 404 },
        ),
    ],
    [
      "429",
      (k) =>
        Response.json(
          { error: { code: "rate_limited", message: k } },
          { status: 429, headers: { "retry-after": "1" } },
        ),
    ],
    [
      "429 daily",
      (k) =>
        Response.json(
          { error: { code: "daily_limit_exceeded", message: `daily ${k}` } },
          { status: 429 },
        ),
    ],
    ["500", (k) => Response.json({ error: { code: "internal", message: k } }, { status: 500 })],
    [
      "503",
      (k) => Response.json({ error: { code: "data_unavailable", message: k } }, { status: 503 }),
    ],
    ["502 html", (k) => new Response(`<h1>Bad gateway for ${k}</h1>`, { status: 502 })],
    [
      "200 html",
      (k) =>
        new Response(`<p>Log in, ${k}</p>`, {
          status: 200,
          headers: { "content-type": `text/html; ${k}` },
        }),
    ],
    ["200 missing field", (k) => Response.json({ [k]: 1 })],
    ["200 too large", (k) => new Response(`{"x":"${k.repeat(210_000)}"}`)],
    ["network error", (k) => Promise.reject(new TypeError(`connect ECONNREFUSED for ${k}`))],
    ["odd status", (k) => new Response(k, { status: 418 })],
  ];

  function echoingClient(failure: (key: string) => Response | Promise<Response>): KaishaClient {
    return createClient({
      apiKey: KEY,
      ratePerMinute: 0,
      maxRetries: 1,
      checkAnswers: true,
      lang: "en",
      sleep: async () => undefined,
      fetch: async (_url, init) => failure((init.headers["Authorization"] ?? "").slice(7)),
    });
  }

  function expectClean(what: string, text: string): void {
    for (const needle of NEEDLES) expect([what, text.includes(needle)]).toEqual([what, false]);
  }

  it.each(FAILURES)(
    "%s: error, cause, JSON, stack and cell message hold no key",
    async (name, failure) => {
      const client = echoingClient(failure);
      const err = await client.usage().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Error);
      const e = err as Error & { messageJa?: string; cause?: unknown };
      expectClean(`${name} message`, e.message);
      expectClean(`${name} messageJa`, e.messageJa ?? "");
      expectClean(`${name} JSON`, JSON.stringify(e));
      expectClean(`${name} stack`, e.stack ?? "");
      expectClean(`${name} cause`, String(e.cause) + JSON.stringify(e.cause ?? null));
      for (const lang of ["en", "ja"] as const) {
        expectClean(`${name} cell ${lang}`, toCellError(err, lang).message ?? "");
      }
    },
  );

  it("a key with a zero-width space or full-width letters is refused before fetch, with its own message", async () => {
    let sent = 0;
    for (const bad of [`${KEY.slice(0, 20)}\u200b${KEY.slice(20)}`, `ｅｃｈｏｓ${KEY.slice(5)}`]) {
      const client = createClient({
        apiKey: bad,
        ratePerMinute: 0,
        fetch: async () => {
          sent += 1;
          return Response.json({ remaining: 1 });
        },
      });
      const err = await client.usage().catch((e: unknown) => e);
      expect(err).toMatchObject({ code: "bad_key" });
      expect((err as Error).message).toMatch(/invisible or full-width/);
      expect((err as Error).message).not.toMatch(/cannot reach/i);
      expectClean("bad key", JSON.stringify(err) + (err as Error).message);
    }
    expect(sent).toBe(0);
  });
});

describe("the sandbox bounds what it repeats and keeps", () => {
  it("an error message quotes at most ~200 characters of a 20,000-character filter", async () => {
    const { app } = createApp({ ratePerMinute: 0 });
    const filter = `per:lt:${"9".repeat(20_000)}x`;
    const res = await app.request(`/v1/screening?filters=${encodeURIComponent(filter)}`, {
      headers: { Authorization: "Bearer kaisakey_SandboxDemoKeyForKaishaExcelLocalTesting001" },
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message.length).toBeLessThan(MAX_QUOTED_INPUT * 3);
    expect(body.error.message).toContain("characters)");
  });

  it("the request log stays within its byte bound under long URLs", () => {
    const log: RequestLogEntry[] = [];
    for (let i = 0; i < 5_000; i += 1) {
      appendLog(log, {
        method: "GET",
        path: `/v1/securities/${"7".repeat(60_000)}`,
        query: `q=${"x".repeat(60_000)}`,
        status: 404,
        at: "2026-11-20T09:00:00.000Z",
      });
    }
    expect(requestLogBytes(log)).toBeLessThanOrEqual(REQUEST_LOG_MAX_BYTES);
    expect(log.length).toBeGreaterThan(100);
    expect(log.at(-1)?.path).toMatch(/characters\)$/);
  });
});
