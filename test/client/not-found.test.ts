// A 404 is an answer too: the same request is not sent again while it stands (quota is money), for
// the key that was given it, and Refresh all still asks.

import { createClient } from "../../src/client/client";
import { NotFoundError } from "../../src/client/errors";
import { TEST_KEY, recordingFetch, reply } from "./helpers";

const OTHER_KEY = "kaisha_key_ZYXWVUTSRQPONMLKJIHGFEDCBA9876543210zyxwvutsrqpon";
const HOUR = 3_600_000;

function setup() {
  const clock = { now: Date.UTC(2026, 0, 15, 1, 0) };
  const apiKey = { current: TEST_KEY };
  const rec = recordingFetch(() =>
    reply(404, { error: { code: "not_found", message: "security not found or not listed" } }),
  );
  const client = createClient({
    apiKey: () => apiKey.current,
    fetch: rec.fetch,
    ratePerMinute: 0,
    maxRetries: 0,
    now: () => clock.now,
  });
  return { rec, client, clock, apiKey };
}

test("an ETF's /financials 404 is asked once, however many cells ask again", async () => {
  const { rec, client } = setup();
  for (let i = 0; i < 5; i++) {
    await expect(client.financials({ security_code: "1306" })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  }
  expect(rec.requests).toHaveLength(1);
  // Another request (another code) is its own question.
  await expect(client.financials({ security_code: "1305" })).rejects.toThrow();
  expect(rec.requests).toHaveLength(2);
});

test("the 404 stands as long as a good answer would, then is asked again", async () => {
  const { rec, client, clock } = setup();
  await expect(client.valuations({ security_code: "1306" })).rejects.toThrow();
  clock.now += 11 * HOUR;
  await expect(client.valuations({ security_code: "1306" })).rejects.toThrow();
  expect(rec.requests).toHaveLength(1);
  clock.now += 2 * HOUR;
  await expect(client.valuations({ security_code: "1306" })).rejects.toThrow();
  expect(rec.requests).toHaveLength(2);
});

test("a document's 404 (a timely-system document under 24 hours old) is asked again within the hour", async () => {
  const { rec, client, clock } = setup();
  await expect(client.disclosure({ doc_id: "20260115000001" })).rejects.toThrow();
  clock.now += 30 * 60_000;
  await expect(client.disclosure({ doc_id: "20260115000001" })).rejects.toThrow();
  expect(rec.requests).toHaveLength(1);
  clock.now += 31 * 60_000;
  await expect(client.disclosure({ doc_id: "20260115000001" })).rejects.toThrow();
  expect(rec.requests).toHaveLength(2);
});

test("Refresh all (no-store) asks anyway; another key is never answered by this key's 404", async () => {
  const { rec, client, apiKey } = setup();
  await expect(client.financials({ security_code: "1306" })).rejects.toThrow();
  await expect(
    client.financials({ security_code: "1306" }, { cache: "no-store" }),
  ).rejects.toThrow();
  expect(rec.requests).toHaveLength(2);
  apiKey.current = OTHER_KEY;
  await expect(client.financials({ security_code: "1306" })).rejects.toThrow();
  expect(rec.requests).toHaveLength(3);
});

test("Forget key drops the remembered 404s", async () => {
  const { rec, client } = setup();
  await expect(client.financials({ security_code: "1306" })).rejects.toThrow();
  await client.forgetKey();
  await expect(client.financials({ security_code: "1306" })).rejects.toThrow();
  expect(rec.requests).toHaveLength(2);
});
