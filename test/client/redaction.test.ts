// The API key never shows in any error: message, String(), JSON, enumerable fields, cause or stack.

import { KaishaError } from "../../src/client/errors";
import { createClient, type KaishaClient } from "../../src/client/client";
import { staleInfo } from "../../src/client/stale";
import { type FetchLike } from "../../src/client/http";
import { TEST_KEY, apiError, recordingFetch, reply, sequence } from "./helpers";

// A key without the service's shape: only the client's own redaction can catch it.
const PLAIN_KEY = "s3cr3t-plain-value-9f8e7d6c5b4a";

function assertNoKey(err: unknown, key: string): void {
  expect(err).toBeInstanceOf(KaishaError);
  const e = err as KaishaError;
  const cause = e.cause as { message?: string; stack?: string } | undefined;
  const texts = [
    e.message,
    e.messageJa,
    String(e),
    e.stack ?? "",
    JSON.stringify(e),
    JSON.stringify(Object.keys(e).map((k) => (e as unknown as Record<string, unknown>)[k])),
    String(cause ?? ""),
    cause?.message ?? "",
    cause?.stack ?? "",
    JSON.stringify(cause ?? null),
    JSON.stringify(e.details ?? null),
  ];
  for (const t of texts) expect(t).not.toContain(key);
}

async function failure(
  client: KaishaClient,
  call: (c: KaishaClient) => Promise<unknown>,
): Promise<unknown> {
  return call(client).then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e,
  );
}

describe.each([TEST_KEY, PLAIN_KEY])("key %#", (key) => {
  const make = (fetch: FetchLike, extra = {}) =>
    createClient({ apiKey: () => key, fetch, ratePerMinute: 0, maxRetries: 0, ...extra });
  const echo = (status: number) =>
    recordingFetch(() =>
      apiError(status, `code ${key}`, `Bearer ${key} is bad`, {}, [
        { param: "Authorization", reason: "invalid", expected: `not ${key}` },
      ]),
    ).fetch;

  test.each([400, 401, 404, 429, 500, 503])("HTTP %p echoing the key", async (status) => {
    const err = await failure(make(echo(status)), (c) => c.peers({ security_code: "7203" }));
    assertNoKey(err, key);
    // The API's words are kept, with the key blanked out.
    const visible = JSON.stringify(err) + (err as KaishaError).message;
    expect(visible).toContain("[REDACTED]");
  });

  test("connection failure whose cause mentions the key", async () => {
    const fetch: FetchLike = () =>
      Promise.reject(new TypeError(`Invalid header value "Bearer ${key}"`));
    const err = await failure(make(fetch), (c) => c.peers({ security_code: "7203" }));
    assertNoKey(err, key);
    expect((err as KaishaError).cause).toBeInstanceOf(Error);
    expect(((err as KaishaError).cause as Error).message).toContain("[REDACTED]");
  });

  test("a non-Error cause object holding the key", async () => {
    const fetch: FetchLike = () => Promise.reject({ headers: { Authorization: `Bearer ${key}` } });
    assertNoKey(await failure(make(fetch), (c) => c.peers({ security_code: "7203" })), key);
  });

  test("timeout and abort whose reasons mention the key", async () => {
    jest.useFakeTimers();
    try {
      const hang: FetchLike = () => new Promise(() => undefined);
      const p = failure(make(hang, { timeoutMs: 10 }), (c) => c.peers({ security_code: "7203" }));
      await jest.advanceTimersByTimeAsync(10);
      assertNoKey(await p, key);
      const controller = new AbortController();
      const q = failure(make(hang), (c) =>
        c.peers({ security_code: "7204" }, { signal: controller.signal }),
      );
      await jest.advanceTimersByTimeAsync(0);
      controller.abort(new Error(`cancelled ${key}`));
      assertNoKey(await q, key);
    } finally {
      jest.useRealTimers();
    }
  });

  test("non-JSON answer", async () => {
    const fetch = recordingFetch(() => reply(200, `<html>${key}</html>`)).fetch;
    assertNoKey(await failure(make(fetch), (c) => c.peers({ security_code: "7203" })), key);
  });

  test("validation error where the key was pasted into a parameter", async () => {
    const rec = recordingFetch();
    const client = make(rec.fetch);
    await client.usage().catch(() => undefined); // the client has now read the key
    assertNoKey(await failure(client, (c) => c.peers({ security_code: key })), key);
    assertNoKey(
      await failure(client, (c) => c.securities({ q: key.slice(0, 20), market: key as never })),
      key,
    );
  });

  test("the error behind a stale answer", async () => {
    let now = 0;
    const fetch = recordingFetch(
      sequence(reply(200, { prices: [] }), new TypeError(`socket ${key}`)),
    ).fetch;
    const client = make(fetch, { now: () => now });
    await client.prices({ code: "7203" });
    now += 8 * 24 * 3_600_000; // past the next close (1 January is an exchange holiday)
    const body = await client.prices({ code: "7203" });
    assertNoKey(staleInfo(body)?.error, key);
  });
});

test("the key appears only in the Authorization header of what is sent", async () => {
  const rec = recordingFetch(() => reply(200, { prices: [] }));
  const client = createClient({ apiKey: PLAIN_KEY, fetch: rec.fetch, ratePerMinute: 0 });
  await client.prices({ code: "7203", from: "2024-01-01" });
  const req = rec.requests[0];
  expect(req?.url).not.toContain(PLAIN_KEY);
  expect(req?.headers).toEqual({
    Authorization: `Bearer ${PLAIN_KEY}`,
    Accept: "application/json",
  });
});
