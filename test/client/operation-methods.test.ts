// The client's per-operation methods come from the contract's OPERATIONS table: every operation has one, each sends its own path.

import { createClient } from "../../src/client/client";
import { OPERATIONS } from "../../src/contract/generated/param-rules";
import { TEST_KEY, recordingFetch, reply } from "./helpers";

function setup() {
  const rec = recordingFetch(() => reply(200, { remaining: 42, attribution: {} }));
  const client = createClient({ apiKey: TEST_KEY, fetch: rec.fetch, ratePerMinute: 0 });
  return { rec, client };
}

/** The method names the add-in calls (functions/, taskpane/, bench/). */
const APP_METHODS = [
  "screening",
  "screeningFields",
  "usage",
  "securities",
  "prices",
  "rankings",
  "valuations",
  "financials",
  "segments",
  "dividends",
  "organization",
  "peers",
  "securityDisclosures",
  "disclosure",
  "disclosureSection",
  "officers",
  "person",
  "personAppointments",
  "personCompensation",
  "weeklyMargin",
  "jsfMarginDaily",
];

describe("per-operation methods", () => {
  test("every operation of the contract has a method, under the names the add-in calls", () => {
    const { client } = setup();
    const methods = APP_METHODS.filter(
      (name) => typeof (client as unknown as Record<string, unknown>)[name] === "function",
    );
    expect(methods).toEqual(APP_METHODS);
    expect(APP_METHODS).toHaveLength(Object.keys(OPERATIONS).length);
  });

  test("a method sends its operation's path with the parameters given", async () => {
    const { rec, client } = setup();
    await client.weeklyMargin({ code: "7203" });
    await client.personCompensation({ id: "1001" });
    await client.securities();
    expect(rec.requests.map((r) => new URL(r.url).pathname + new URL(r.url).search)).toEqual([
      "/v1/securities/7203/weekly-margin-balance",
      "/v1/persons/1001/compensation-history",
      "/v1/securities",
    ]);
  });

  test("an operation without parameters takes the request options first", async () => {
    const { client } = setup();
    const gone = new AbortController();
    gone.abort();
    await expect(client.screeningFields({ signal: gone.signal })).rejects.toMatchObject({
      code: "aborted",
    });
  });

  test("usage is asked every time, never answered from the cache, and records what remains", async () => {
    const { rec, client } = setup();
    await client.usage();
    await client.usage();
    expect(rec.requests).toHaveLength(2);
    expect(client.stats().lastUsageRemaining).toBe(42);
  });
});
