// KaishaClient.stored and learnCode: the side-effect-free read of a stored answer and the code pair
// taught to the registry that src/domain/edinet-resolution.ts builds on.
import { createClient } from "../../src/client";
import { TEST_KEY, annualBody, recordingFetch, reply } from "./helpers";

function setup(key: string = TEST_KEY) {
  let apiKey = key;
  const rec = recordingFetch(() => reply(200, annualBody(3, "E02144")));
  const client = createClient({ apiKey: () => apiKey, fetch: rec.fetch, ratePerMinute: 0 });
  return { rec, client, setKey: (k: string) => (apiKey = k) };
}

test("stored reads the current key's answer by its query: nothing sent, no cache hit counted", async () => {
  const { rec, client } = setup();
  await client.financials({ security_code: "7203" });
  const hits = client.stats().cacheHits;
  const held = await client.stored("getFinancials", (q) => q.get("security_code") === "7203");
  expect(held?.edinet_code).toBe("E02144");
  expect(await client.stored("getFinancials", (q) => q.get("security_code") === "6758")).toBe(
    undefined,
  );
  // Another operation's answers are not read as /financials.
  expect(await client.stored("getValuations", () => true)).toBe(undefined);
  expect(rec.requests).toHaveLength(1);
  expect(client.stats().cacheHits).toBe(hits);
});

test("stored never reads another key's answers", async () => {
  const { client, setKey } = setup();
  await client.financials({ security_code: "7203" });
  setKey(`${TEST_KEY}x`);
  expect(await client.stored("getFinancials", () => true)).toBe(undefined);
});

test("stored without a key is the set-a-key error", async () => {
  const client = createClient({ fetch: recordingFetch().fetch, ratePerMinute: 0 });
  await expect(client.stored("getFinancials", () => true)).rejects.toMatchObject({
    code: "missing_key",
  });
});

test("learnCode teaches the current key's registry only", () => {
  const { client, setKey } = setup();
  client.learnCode("7203", "E02144");
  expect(client.knownCode("edinet_code", "7203")).toBe("E02144");
  expect(client.knownCode("security_code", "E02144")).toBe("7203");
  setKey(`${TEST_KEY}x`);
  expect(client.knownCode("edinet_code", "7203")).toBe(undefined);
});
