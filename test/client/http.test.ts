// One HTTP exchange: URL, exact headers, timeout and abort that always settle, failure mapping.

import {
  AbortError,
  BadResponseError,
  AuthenticationError,
  ConnectionError,
  ForbiddenError,
  NotFoundError,
  ServerError,
  TimeoutError,
} from "../../src/client/errors";
import { MAX_RESPONSE_BYTES, buildUrl, type FetchLike } from "../../src/client/http";
import { sendRequest } from "../../src/client/send";
import { createClient } from "../../src/client/client";
import { TEST_KEY, recordingFetch, reply } from "./helpers";
import { widestFinancials } from "../../src/domain/financials-window";

describe("buildUrl", () => {
  test("fills and encodes path parameters, sorts the query", () => {
    expect(
      buildUrl("https://api.irbank.net/v1/", "/securities/{code}/prices", {
        to: "2024-03-31",
        code: "7203",
        from: "2024-01-01",
        limit: 5,
      }),
    ).toBe(
      "https://api.irbank.net/v1/securities/7203/prices?from=2024-01-01&limit=5&to=2024-03-31",
    );
    expect(
      buildUrl("/relay/v1", "/screening", {
        filters: "per:lte:15,roe:gte:10",
        sector: "電気・ガス",
      }),
    ).toBe(
      "/relay/v1/screening?filters=per%3Alte%3A15%2Croe%3Agte%3A10&sector=%E9%9B%BB%E6%B0%97%E3%83%BB%E3%82%AC%E3%82%B9",
    );
    expect(buildUrl("", "/disclosures/{doc_id}", { doc_id: "a/b" })).toBe("/disclosures/a%2Fb");
  });
});

describe("requests through the client", () => {
  test("sends exactly `Authorization: Bearer <key>` and `Accept: application/json`, key nowhere in the URL", async () => {
    const rec = recordingFetch(() => reply(200, { remaining: 10, attribution: {} }));
    const client = createClient({
      apiKey: TEST_KEY,
      fetch: rec.fetch,
      ratePerMinute: 0,
      baseUrl: "http://127.0.0.1:8787/v1/",
    });
    await widestFinancials(client, { security_code: "7203" }).catch(() => undefined);
    await client.usage();
    expect(rec.requests.length).toBe(2);
    for (const req of rec.requests) {
      expect(req.headers).toEqual({
        Authorization: `Bearer ${TEST_KEY}`,
        Accept: "application/json",
      });
      expect(req.method).toBe("GET");
      expect(req.url).not.toContain(TEST_KEY);
    }
    expect(rec.requests.map((r) => r.url)).toEqual([
      "http://127.0.0.1:8787/v1/financials?period=annual&security_code=7203&years=30",
      "http://127.0.0.1:8787/v1/usage",
    ]);
  });

  test("a key provider function is read per request and trimmed", async () => {
    const rec = recordingFetch(() => reply(200, { remaining: 1 }));
    let key = ` ${TEST_KEY} `;
    const client = createClient({ apiKey: () => key, fetch: rec.fetch, ratePerMinute: 0 });
    await client.usage();
    key = `${TEST_KEY}2`;
    await client.usage();
    expect(rec.requests.map((r) => r.headers.Authorization)).toEqual([
      `Bearer ${TEST_KEY}`,
      `Bearer ${TEST_KEY}2`,
    ]);
  });
});

describe("sendRequest", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test("times out and settles even when fetch ignores the signal", async () => {
    expect.assertions(3);
    const neverSettles: FetchLike = () => new Promise(() => undefined);
    const p = sendRequest({
      url: "http://x/v1/usage",
      apiKey: TEST_KEY,
      fetch: neverSettles,
      timeoutMs: 30_000,
    });
    const check = p.catch((e: unknown) => {
      expect(e).toBeInstanceOf(TimeoutError);
      expect((e as TimeoutError).message).toContain("30 s");
    });
    await jest.advanceTimersByTimeAsync(29_999);
    await jest.advanceTimersByTimeAsync(1);
    await check;
    expect(jest.getTimerCount()).toBe(0);
  });

  test("a body that never arrives also times out", async () => {
    expect.assertions(1);
    const slowBody: FetchLike = async () => ({
      status: 200,
      headers: { get: () => null },
      text: () => new Promise<string>(() => undefined),
    });
    const p = sendRequest({ url: "http://x", apiKey: TEST_KEY, fetch: slowBody, timeoutMs: 1000 });
    const check = expect(p).rejects.toBeInstanceOf(TimeoutError);
    await jest.advanceTimersByTimeAsync(1000);
    await check;
  });

  test("the caller's abort settles at once with AbortError", async () => {
    expect.assertions(2);
    const controller = new AbortController();
    const neverSettles: FetchLike = () => new Promise(() => undefined);
    const p = sendRequest({
      url: "http://x",
      apiKey: TEST_KEY,
      fetch: neverSettles,
      signal: controller.signal,
    });
    controller.abort();
    await expect(p).rejects.toBeInstanceOf(AbortError);
    expect(jest.getTimerCount()).toBe(0);
  });

  test("an already-aborted signal sends nothing", async () => {
    const rec = recordingFetch();
    const controller = new AbortController();
    controller.abort();
    await expect(
      sendRequest({
        url: "http://x",
        apiKey: TEST_KEY,
        fetch: rec.fetch,
        signal: controller.signal,
      }),
    ).rejects.toBeInstanceOf(AbortError);
    expect(rec.requests).toHaveLength(0);
  });

  test("a network failure -> ConnectionError with the cause kept", async () => {
    const cause = new TypeError("fetch failed");
    const err = await sendRequest({
      url: "http://x",
      apiKey: TEST_KEY,
      fetch: () => Promise.reject(cause),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as ConnectionError).cause).toBe(cause);
  });

  test("a synchronous throw from fetch -> ConnectionError", async () => {
    const err = await sendRequest({
      url: "http://x",
      apiKey: TEST_KEY,
      fetch: () => {
        throw new TypeError("sync");
      },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
  });

  test("a 200 that is not JSON -> BadResponseError", async () => {
    const fetch: FetchLike = async () =>
      reply(200, "<html>login</html>", { "content-type": "text/html" });
    const err = await sendRequest({ url: "http://x", apiKey: TEST_KEY, fetch }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BadResponseError);
    expect((err as BadResponseError).message).toContain("text/html");
    // A captive portal page: the client may serve the last good answer (retry.ts canServeStale).
    expect((err as BadResponseError).kind).toBe("not_json");
  });

  test("a 404 page without the error object -> BadResponseError (wrong base URL), a 502 page -> ServerError", async () => {
    const html404: FetchLike = async () => reply(404, "<html>Not Found</html>");
    const html502: FetchLike = async () => reply(502, "<html>Bad Gateway</html>");
    expect(
      await sendRequest({ url: "http://x", apiKey: TEST_KEY, fetch: html404 }).catch(
        (e: unknown) => e,
      ),
    ).toBeInstanceOf(BadResponseError);
    expect(
      await sendRequest({ url: "http://x", apiKey: TEST_KEY, fetch: html502 }).catch(
        (e: unknown) => e,
      ),
    ).toBeInstanceOf(ServerError);
  });

  test("a JSON 404 -> NotFoundError", async () => {
    const fetch: FetchLike = async () =>
      reply(404, { error: { code: "not_found", message: "no such security" } });
    expect(
      await sendRequest({ url: "http://x", apiKey: TEST_KEY, fetch }).catch((e: unknown) => e),
    ).toBeInstanceOf(NotFoundError);
  });

  test("a 403 is its own error and message, not the 401 one", async () => {
    const fetch: FetchLike = async () => reply(403, { error: { message: "not permitted" } });
    const err = await sendRequest({ url: "http://x", apiKey: TEST_KEY, fetch }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ForbiddenError);
    expect((err as ForbiddenError).code).toBe("forbidden");
    expect((err as ForbiddenError).message).toMatch(/^Not permitted for this key \(403\)/);
    expect((err as ForbiddenError).message).not.toContain("401");
    expect((err as ForbiddenError).messageJa).toContain("403");
  });

  test.each([
    ["a zero-width space", `${TEST_KEY.slice(0, 10)}\u200b${TEST_KEY.slice(10)}`],
    ["full-width letters", `ｋａｉｓｈａ${TEST_KEY.slice(6)}`],
    ["a line break", `${TEST_KEY}\nX-Evil: 1`],
  ])("a key with %s is refused before fetch with its own message", async (_name, key) => {
    let sent = 0;
    const fetch: FetchLike = async () => {
      sent += 1;
      return reply(200, { remaining: 1 });
    };
    const err = await sendRequest({ url: "http://x", apiKey: key, fetch }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    expect((err as AuthenticationError).code).toBe("bad_key");
    expect((err as AuthenticationError).message).not.toMatch(/cannot reach/i);
    expect(sent).toBe(0);
  });

  test("an answer over the size cap is stopped while streaming: not read further, nothing parsed", async () => {
    const chunk = new Uint8Array(1024 * 1024).fill(0x20);
    let pulled = 0;
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(chunk);
      },
      cancel() {
        cancelled = true;
      },
    });
    const fetch: FetchLike = async () => new Response(stream, { status: 200 });
    const err = await sendRequest({ url: "http://x", apiKey: TEST_KEY, fetch }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BadResponseError);
    expect((err as BadResponseError).kind).toBe("too_large");
    expect((err as BadResponseError).message).toMatch(/^Answer too large \(over 10 MB\)/);
    // An endless body: reading stopped just past 10 MB, and the stream was cancelled.
    expect(pulled).toBeLessThanOrEqual(MAX_RESPONSE_BYTES / chunk.length + 2);
    expect(cancelled).toBe(true);
  });

  test("a declared Content-Length over the cap is refused before reading the body", async () => {
    let read = false;
    const fetch: FetchLike = async () => ({
      status: 200,
      headers: {
        get: (n: string) =>
          n.toLowerCase() === "content-length" ? String(50 * 1024 * 1024) : null,
      },
      text: () => {
        read = true;
        return Promise.resolve("{}");
      },
    });
    const err = await sendRequest({ url: "http://x", apiKey: TEST_KEY, fetch }).catch(
      (e: unknown) => e,
    );
    expect((err as BadResponseError).kind).toBe("too_large");
    expect(read).toBe(false);
  });

  test("a body of exactly the cap is read and parsed; multi-byte text is counted in bytes", async () => {
    const text = `{"remaining": 1, "pad": "${"あ".repeat(100)}"}`;
    const fetch: FetchLike = async () => new Response(text, { status: 200 });
    const ok = await sendRequest({ url: "http://x", apiKey: TEST_KEY, fetch });
    expect(ok.bytes).toBe(new TextEncoder().encode(text).length);
    const small = await sendRequest({
      url: "http://x",
      apiKey: TEST_KEY,
      fetch,
      maxBytes: ok.bytes,
    });
    expect(small.body).toMatchObject({ remaining: 1 });
    const err = await sendRequest({
      url: "http://x",
      apiKey: TEST_KEY,
      fetch,
      maxBytes: ok.bytes - 1,
    }).catch((e: unknown) => e);
    expect((err as BadResponseError).kind).toBe("too_large");
  });
});
