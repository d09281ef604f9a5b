// Test helpers for the client: a recording fake fetch and canned API answers.

import type { Sandbox } from "../../sandbox/app";
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import type { CacheStore } from "../../src/client/cache";
import type { FetchLike, ResponseLike } from "../../src/client/http";
import { createClient } from "../../src/client/client";
import type { ClientOptions } from "../../src/client/types";

export const TEST_KEY = "kaisha_key_0123456789abcdefghijklmnopqrstuvwxyzABCDEF";

interface RecordedRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  signal: AbortSignal;
}

/** A Response-like answer with a JSON (or raw text) body. */
export function reply(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): ResponseLike {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return {
    status,
    headers: { get: (name: string) => lower[name.toLowerCase()] ?? null },
    text: () => Promise.resolve(text),
  };
}

/** The openapi.json ErrorResponse common error object. */
export function apiError(
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
  details?: unknown[],
): ResponseLike {
  return reply(status, { error: { code, message, ...(details ? { details } : {}) } }, headers);
}

type Handler = (req: RecordedRequest, index: number) => ResponseLike | Promise<ResponseLike>;

/** A fetch that records every request and answers with `handler` (default: 200 `{ok: true}`). */
export function recordingFetch(handler: Handler = () => reply(200, { ok: true, attribution: {} })) {
  const requests: RecordedRequest[] = [];
  const fetch: FetchLike = async (url, init) => {
    const req = { url, method: init.method, headers: { ...init.headers }, signal: init.signal };
    requests.push(req);
    return handler(req, requests.length - 1);
  };
  return { fetch, requests };
}

/** Answers in order; the last one repeats. */
export function sequence(...answers: Array<ResponseLike | Error>): Handler {
  return (_req, index) => {
    const answer = answers[Math.min(index, answers.length - 1)];
    if (answer instanceof Error) throw answer;
    if (answer === undefined) throw new Error("no answer");
    return answer;
  };
}

/** A financials period row (only the fields the slicing looks at, plus one value). */
function period(fiscalYear: string, quarter?: string) {
  return { fiscal_year: fiscalYear, ...(quarter ? { quarter } : {}), sales: 1 };
}

/** A /financials body with `count` annual periods ending in 2024/03, oldest first. */
export function annualBody(count: number, edinet = "E02144") {
  const periods = Array.from({ length: count }, (_, i) => period(`${2024 - count + 1 + i}/03`));
  return {
    fields: [],
    edinet_code: edinet,
    periods,
    reason: null,
    attribution: { source_label: "x", license_note: "x", processed_by: "x" },
  };
}

/** A quarterly body: for each of `years` fiscal years, Q1..Q4 + full_year. */
export function quarterlyBody(years: number) {
  const periods = [];
  for (let i = 0; i < years; i += 1) {
    const fy = `${2024 - years + 1 + i}/03`;
    for (const q of ["Q1", "Q2", "Q3", "Q4", "full_year"]) periods.push(period(fy, q));
  }
  return {
    fields: [],
    edinet_code: "E02144",
    periods,
    reason: null,
    attribution: { source_label: "x", license_note: "x", processed_by: "x" },
  };
}

/** Lets pending promise callbacks run (microtasks and a macrotask turn). */
export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
}

/**
 * A client over `fetch` on the test's clock that serves a due answer at once and asks it again in
 * the background (stale-while-revalidate), unpaced; `extra` adds or overrides options.
 */
export function revalidatingClient(
  fetch: FetchLike,
  now: () => number,
  extra: Partial<ClientOptions> = {},
) {
  return createClient({
    apiKey: TEST_KEY,
    fetch,
    ratePerMinute: 0,
    now,
    staleWhileRevalidate: true,
    ...extra,
  });
}

/** The instant recordingClient's clock starts at (a Thursday, 10:00 JST). */
export const CLIENT_T0 = Date.UTC(2026, 0, 15, 1, 0);

/**
 * A client over a recording fetch on a clock the test moves (`advance`), unpaced and without
 * retries; `extra` adds or overrides options.
 */
export function recordingClient(
  handler?: Parameters<typeof recordingFetch>[0],
  extra: Partial<ClientOptions> = {},
) {
  const rec = recordingFetch(handler);
  let now = CLIENT_T0;
  const client = createClient({
    apiKey: TEST_KEY,
    fetch: rec.fetch,
    ratePerMinute: 0,
    maxRetries: 0,
    now: () => now,
    ...extra,
  });
  return { rec, client, advance: (ms: number) => (now += ms) };
}

/** The in-process sandbox as a client's fetch: the URL's path and query, with the method, headers and signal. */
export function sandboxFetch(sandbox: Sandbox): FetchLike {
  return async (url, init) => {
    const u = new URL(url);
    return sandbox.app.request(`${u.pathname}${u.search}`, {
      method: init.method,
      headers: init.headers,
      signal: init.signal,
    });
  };
}

/** A client of the in-process sandbox with the demo key, unpaced and without retries unless `extra` says otherwise. */
export function sandboxKaishaClient(
  fetch: FetchLike,
  cacheStore: CacheStore,
  extra: Partial<ClientOptions> = {},
) {
  return createClient({
    baseUrl: "http://sandbox.test/v1",
    apiKey: DEMO_API_KEY,
    fetch,
    ratePerMinute: 0,
    maxRetries: 0,
    cacheStore,
    ...extra,
  });
}
