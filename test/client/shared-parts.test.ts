// Answers that repeat a units list or an attribution word for word share one frozen copy in memory;
// what every reader sees is unchanged.

import { createApp } from "../../sandbox/app";
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import { SANDBOX_BASE_URL, createClient } from "../../src/client/client";
import type { FetchLike } from "../../src/client/http";
import { freezeAnswer } from "../../src/client/shared-parts";
import { fromStoredForm, toStoredForm } from "../../src/client/stored-form";

const answer = (sales: number) => ({
  security_code: "7203",
  periods: [{ fiscal_year: "2025/03", sales }],
  fields: [
    { key: "sales", label: "売上高", unit: "jpy" },
    { key: "eps", label: "EPS", unit: "jpy" },
  ],
  attribution: { source_label: "出典: IRBANK", license: "x", terms_url: "https://example.com" },
});

test("two answers with the same units list and attribution hold one frozen copy of each", () => {
  const a = freezeAnswer(JSON.parse(JSON.stringify(answer(1))));
  const b = freezeAnswer(JSON.parse(JSON.stringify(answer(2))));
  expect(b.fields).toBe(a.fields);
  expect(b.attribution).toBe(a.attribution);
  expect(b.periods).not.toBe(a.periods);
  expect(b).toEqual(answer(2));
  expect(Object.isFrozen(b) && Object.isFrozen(b.fields) && Object.isFrozen(b.fields[0])).toBe(
    true,
  );
});

test("a units list that differs in one label keeps its own copy, with its own words", () => {
  const a = freezeAnswer(answer(1));
  const other = answer(1);
  other.fields[1] = { key: "eps", label: "1株当たり利益", unit: "jpy" };
  const b = freezeAnswer(other);
  expect(b.fields).not.toBe(a.fields);
  expect(b.fields[1]?.label).toBe("1株当たり利益");
  expect(a.fields[1]?.label).toBe("EPS");
});

test("a stored answer read back shares the units list of the same answer received", async () => {
  const received = freezeAnswer(answer(1));
  const reread = (await fromStoredForm(await toStoredForm(answer(5)))) as ReturnType<typeof answer>;
  expect(reread.fields).toBe(received.fields);
  expect(reread.periods[0]?.sales).toBe(5);
});

test("the client's answers for two companies share the units list of /financials", async () => {
  const sandbox = createApp({ ratePerMinute: 0 });
  const fetch: FetchLike = async (url, init) =>
    sandbox.app.request(url, { method: init.method, headers: init.headers, signal: init.signal });
  const client = createClient({
    baseUrl: SANDBOX_BASE_URL,
    apiKey: DEMO_API_KEY,
    fetch,
    ratePerMinute: 0,
    maxRetries: 0,
  });
  const toyota = await client.financials({ security_code: "7203", period: "annual", years: 5 });
  const sony = await client.financials({ security_code: "6758", period: "annual", years: 5 });
  expect(toyota.fields.length).toBeGreaterThan(10);
  expect(sony.fields).toBe(toyota.fields);
  expect(sony.attribution).toBe(toyota.attribution);
  expect(sony.periods).not.toEqual(toyota.periods);
});
