// The per-cell fast path: repeated identical calls are answered from the memory tier without a
// request, keep freshness and cache-only rules, and never skip validation of new arguments.

import { NotCachedError, ValidationError } from "../../src/client/errors";
import { createClient } from "../../src/client/client";
import { TEST_KEY, recordingFetch, reply } from "./helpers";

const body = {
  edinet_code: "E00001",
  security_code: "7203",
  periods: [{ fiscal_year: "2025/03", quarter: null, sales: 1 }],
  attribution: {},
};

function setup() {
  let now = Date.parse("2026-03-02T00:00:00Z");
  const rec = recordingFetch(() => reply(200, body));
  const client = createClient({
    apiKey: TEST_KEY,
    fetch: rec.fetch,
    ratePerMinute: 0,
    now: () => now,
  });
  return { rec, client, advance: (ms: number) => (now += ms) };
}

describe("client fast path", () => {
  test("1,000 identical calls: 1 request, 999 cache hits, the same answer object", async () => {
    const { rec, client } = setup();
    const first = await client.financials({ security_code: "7203", period: "annual", years: 30 });
    const rest = await Promise.all(
      Array.from({ length: 999 }, () =>
        client.financials({ security_code: "7203", period: "annual", years: 30 }),
      ),
    );
    expect(rec.requests).toHaveLength(1);
    expect(client.stats().cacheHits).toBe(999);
    expect(rest.every((b) => b === first)).toBe(true);
  });

  test("an expired answer is not served by the fast path: the next call asks again", async () => {
    const { rec, client, advance } = setup();
    await client.financials({ security_code: "7203" });
    await client.financials({ security_code: "7203" });
    expect(rec.requests).toHaveLength(1);
    advance(8 * 24 * 60 * 60 * 1000); // past the company's weekly revalidation slot
    await client.financials({ security_code: "7203" });
    expect(rec.requests).toHaveLength(2);
  });

  test("arguments seen before as valid still validate when they differ in type or value", async () => {
    const { rec, client } = setup();
    await client.financials({ security_code: "7203", years: 5 });
    await expect(client.financials({ security_code: "7203", years: 99 })).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(
      client.financials({ security_code: "7203", years: "5" as unknown as number }),
    ).resolves.toBeDefined();
    expect(rec.requests).toHaveLength(1);
  });

  test("a cache-only copy is answered by the fast path, and refuses unseen arguments unsent", async () => {
    const { rec, client } = setup();
    await client.financials({ security_code: "7203" });
    const preview = client.withOptions({ cacheOnly: true });
    await expect(preview.financials({ security_code: "7203" })).resolves.toBeDefined();
    await expect(preview.financials({ security_code: "6758" })).rejects.toBeInstanceOf(
      NotCachedError,
    );
    expect(rec.requests).toHaveLength(1);
  });

  test("peek: the fresh answer of arguments asked before, synchronously; never a request", async () => {
    const { rec, client, advance } = setup();
    const query = Object.freeze({ security_code: "7203", period: "annual", years: 30 });
    expect(client.peek("getFinancials", query)).toBeUndefined();
    const asked = await client.financials(query);
    expect(client.peek("getFinancials", query)).toBe(asked);
    // The same arguments in another object (not frozen) are found by their signature.
    expect(
      client.peek("getFinancials", { security_code: "7203", period: "annual", years: 30 }),
    ).toBe(asked);
    expect(client.peek("getFinancials", { ...query, years: 5 })).toBeUndefined();
    expect(client.peek("getFinancials", { security_code: "9999" })).toBeUndefined();
    advance(8 * 24 * 60 * 60 * 1000);
    expect(client.peek("getFinancials", query)).toBeUndefined();
    expect(rec.requests).toHaveLength(1);
  });

  test("peek keeps what it learned per base URL: another API's client does not see the answer", async () => {
    const { client } = setup();
    const query = Object.freeze({ security_code: "7203", period: "annual", years: 30 });
    await client.financials(query);
    const other = client.withOptions({ baseUrl: "https://sandbox.example/v1" });
    expect(other.peek("getFinancials", query)).toBeUndefined();
    expect(client.peek("getFinancials", query)).toBeDefined();
  });
});
