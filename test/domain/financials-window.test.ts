// Financials widening (src/domain/financials-window.ts widestFinancials) over a client with a
// recording fetch: one years=30 request answers every window, each cut as the API would answer it.

import { PRODUCTION_BASE_URL, isStale } from "../../src/client";
import { widestFinancials } from "../../src/domain/financials-window";
import { annualBody, quarterlyBody, recordingClient, reply, sequence } from "../client/helpers";

const setup = recordingClient;

describe("financials economy (openapi.json getFinancials: one count per request)", () => {
  test("years 3, 5, 10 -> one request with years=30, each answer the right slice", async () => {
    const { rec, client } = setup(() => reply(200, annualBody(30)));
    const [y3, y5, y10] = await Promise.all([
      widestFinancials(client, { security_code: "7203", years: 3 }),
      widestFinancials(client, { security_code: "7203", years: 5 }),
      widestFinancials(client, { security_code: "7203", years: 10 }),
    ]);
    expect(rec.requests).toHaveLength(1);
    expect(rec.requests[0]?.url).toBe(
      `${PRODUCTION_BASE_URL}/financials?period=annual&security_code=7203&years=30`,
    );
    expect(y3.periods.map((p) => p.fiscal_year)).toEqual(["2022/03", "2023/03", "2024/03"]);
    expect(y5.periods).toHaveLength(5);
    expect(y10.periods[0]?.fiscal_year).toBe("2015/03");
    expect(Object.keys(y3)).toEqual(["fields", "edinet_code", "periods", "reason", "attribution"]);
    const later = await widestFinancials(client, { security_code: "7203" });
    expect(later.periods).toHaveLength(10);
    expect(rec.requests).toHaveLength(1);
  });

  test("period omitted and period annual share the request", async () => {
    const { rec, client } = setup(() => reply(200, annualBody(30)));
    await widestFinancials(client, { edinet_code: "E02144", years: 2 });
    await widestFinancials(client, { edinet_code: "E02144", period: "annual", years: 7 });
    expect(rec.requests).toHaveLength(1);
  });

  test("fewer periods than asked: everything there is", async () => {
    const { client } = setup(() => reply(200, annualBody(4)));
    expect(
      (await widestFinancials(client, { edinet_code: "E02144", years: 10 })).periods,
    ).toHaveLength(4);
  });

  test("quarterly: the periods of the last N distinct fiscal years", async () => {
    const { rec, client } = setup(() => reply(200, quarterlyBody(30)));
    const q2 = await widestFinancials(client, {
      edinet_code: "E02144",
      period: "quarterly",
      years: 2,
    });
    expect(q2.periods).toHaveLength(10);
    expect(new Set(q2.periods.map((p) => p.fiscal_year))).toEqual(new Set(["2023/03", "2024/03"]));
    expect(q2.periods[0]).toMatchObject({ fiscal_year: "2023/03", quarter: "Q1" });
    expect(rec.requests[0]?.url).toContain("period=quarterly");
  });

  test("as_of is part of the identity: a different month is a different request", async () => {
    const { rec, client } = setup(() => reply(200, annualBody(30)));
    await widestFinancials(client, { edinet_code: "E02144", as_of: "2020/03", years: 3 });
    await widestFinancials(client, { edinet_code: "E02144", as_of: "2021/03", years: 3 });
    await widestFinancials(client, { edinet_code: "E02144", as_of: "2021/03", years: 5 });
    expect(rec.requests.map((r) => new URL(r.url).searchParams.get("as_of"))).toEqual([
      "2020/03",
      "2021/03",
    ]);
  });

  test("a stale wide answer stays marked stale after slicing", async () => {
    const { client, advance } = setup(
      sequence(reply(200, annualBody(30)), new TypeError("offline")),
    );
    await widestFinancials(client, { edinet_code: "E02144", years: 5 });
    advance(8 * 24 * 3_600_000); // past the company's weekly slot
    const body = await widestFinancials(client, { edinet_code: "E02144", years: 5 });
    expect(body.periods).toHaveLength(5);
    expect(isStale(body)).toBe(true);
  });
});

test("invalid arguments are refused before anything is asked", async () => {
  const { rec, client } = setup(() => reply(200, annualBody(30)));
  await expect(widestFinancials(client, { security_code: "7203", years: 31 })).rejects.toThrow();
  expect(rec.requests).toHaveLength(0);
});
