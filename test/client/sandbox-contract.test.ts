// The client against the in-process sandbox (sandbox/app.ts createApp, no socket): real answers,
// real error bodies, real limits.

import { createApp } from "../../sandbox/app";
import { getDataset } from "../../sandbox/data";
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import {
  AuthenticationError,
  NotFoundError,
  RateLimitError,
  ValidationError,
} from "../../src/client/errors";
import { errorFromResponse } from "../../src/client/response-errors";
import { SANDBOX_BASE_URL, createClient } from "../../src/client/client";
import { type FetchLike } from "../../src/client/http";
import { resolveEdinetCode } from "../../src/domain/edinet-resolution";
import { widestFinancials } from "../../src/domain/financials-window";

function sandboxFetch(options: Parameters<typeof createApp>[0] = {}) {
  const sandbox = createApp({ ratePerMinute: 0, ...options });
  let sent = 0;
  const fetch: FetchLike = async (url, init) => {
    sent += 1;
    return sandbox.app.request(url, {
      method: init.method,
      headers: init.headers,
      signal: init.signal,
    });
  };
  return { sandbox, fetch, sent: () => sent };
}

function client(fetch: FetchLike, extra: Parameters<typeof createClient>[0] = {}) {
  return createClient({
    baseUrl: SANDBOX_BASE_URL,
    apiKey: DEMO_API_KEY,
    fetch,
    ratePerMinute: 0,
    maxRetries: 0,
    ...extra,
  });
}

describe("client x sandbox", () => {
  // The sample dataset is generated on first use (seconds on a busy machine): once, up front.
  beforeAll(() => {
    getDataset();
  }, 120_000);

  test("usage verifies the key and records remaining", async () => {
    const { fetch } = sandboxFetch();
    const c = client(fetch);
    const body = await c.usage();
    expect(typeof body.remaining).toBe("number");
    expect(c.stats().lastUsageRemaining).toBe(body.remaining);
  });

  test("financials: years 3 and 10 from one years=30 request, oldest first, API shape", async () => {
    const { fetch, sent, sandbox } = sandboxFetch();
    const c = client(fetch);
    const [y3, y10] = await Promise.all([
      widestFinancials(c, { security_code: "1801", years: 3 }),
      widestFinancials(c, { security_code: "1801", years: 10 }),
    ]);
    expect(sent()).toBe(1);
    expect(sandbox.requestLog[0]?.query).toContain("years=30");
    expect(y3.periods).toHaveLength(3);
    expect(y10.periods).toHaveLength(10);
    expect(y10.periods.slice(-3)).toEqual(y3.periods);
    expect(y3.edinet_code).toMatch(/^[EG]\d{5}$/);
    const direct = await sandbox.app.request("/v1/financials?security_code=1801&years=3", {
      headers: { Authorization: `Bearer ${DEMO_API_KEY}` },
    });
    expect(await direct.json()).toEqual(JSON.parse(JSON.stringify(y3)));
  });

  test("quarterly slices match what the API answers for the same years", async () => {
    const { fetch, sandbox } = sandboxFetch();
    const c = client(fetch);
    const q2 = await widestFinancials(c, { security_code: "1801", period: "quarterly", years: 2 });
    const direct = await sandbox.app.request(
      "/v1/financials?security_code=1801&period=quarterly&years=2",
      {
        headers: { Authorization: `Bearer ${DEMO_API_KEY}` },
      },
    );
    expect(await direct.json()).toEqual(JSON.parse(JSON.stringify(q2)));
  });

  test("resolveEdinetCode uses the cached financials answer", async () => {
    const { fetch, sent } = sandboxFetch();
    const c = client(fetch);
    const body = await widestFinancials(c, { security_code: "1801" });
    expect(await resolveEdinetCode(c, 1801)).toBe(body.edinet_code);
    expect(sent()).toBe(1);
  });

  test("resolveEdinetCode from the disclosures list", async () => {
    const { fetch } = sandboxFetch();
    const c = client(fetch);
    const edinet = await resolveEdinetCode(c, "1801");
    const org = await c.organization({ edinet_code: edinet });
    expect(org.listed_security_codes).toContain("1801");
  });

  test("paging through securities ends on a null cursor", async () => {
    const { fetch } = sandboxFetch();
    const c = client(fetch);
    const codes: string[] = [];
    for await (const page of c.paginate("listSecurities", { limit: 7 }))
      codes.push(...page.securities.map((s) => s.code));
    expect(codes.length).toBeGreaterThan(7);
    expect(new Set(codes).size).toBe(codes.length);
  });

  test("errors map to the right classes", async () => {
    const { fetch } = sandboxFetch();
    await expect(
      client(fetch, { apiKey: "kaisakey_WrongKeyWrongKeyWrongKeyWrongKeyWrongKey0" }).usage(),
    ).rejects.toBeInstanceOf(AuthenticationError);
    await expect(client(fetch).valuations({ security_code: "9998" })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  test("a 400 from the API (sent with validation bypassed) keeps its details", async () => {
    const sb = sandboxFetch();
    const res = await sb.fetch(
      `${SANDBOX_BASE_URL}/financials?edinet_code=E00001&security_code=1801`,
      {
        method: "GET",
        headers: { Authorization: `Bearer ${DEMO_API_KEY}`, Accept: "application/json" },
        signal: new AbortController().signal,
      },
    );
    const err = errorFromResponse({ status: res.status, body: JSON.parse(await res.text()) });
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.details?.map((d) => d.reason)).toEqual(["conflict", "conflict"]);
  });

  test("the daily limit answers 429 that is recognised and not retried", async () => {
    const { fetch, sent } = sandboxFetch({ dailyLimit: 1 });
    const c = client(fetch, { maxRetries: 3 });
    await c.valuations({ security_code: "1801" });
    const err = (await c
      .valuations({ security_code: "1925" })
      .catch((e: unknown) => e)) as RateLimitError;
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err.daily).toBe(true);
    expect(err.message).toMatch(/^Daily request limit reached: nothing is sent until /);
    expect(sent()).toBe(2);
  });
});
