// Invalid input is rejected with openapi.json ErrorDetail reasons before anything is sent.

import { createClient } from "../../src/client/client";
import { loadIndustryNames, validateParams } from "../../src/client/validate";
import { ValidationError } from "../../src/client/errors";
import { type ErrorDetail } from "../../src/client/messages";
import type { OperationId } from "../../src/contract/rules";
import { recordingFetch, TEST_KEY } from "./helpers";

// validateParams reads sector / industry names from a lazy chunk (the client loads it itself).
beforeAll(() => loadIndustryNames());

const NOW = Date.UTC(2026, 0, 15, 3, 0); // 2026-01-15 12:00 JST

function client() {
  const rec = recordingFetch();
  return {
    rec,
    client: createClient({ apiKey: TEST_KEY, fetch: rec.fetch, ratePerMinute: 0, now: () => NOW }),
  };
}

const cases: Array<[string, OperationId, Record<string, unknown>, Partial<ErrorDetail>]> = [
  [
    "financials: neither edinet_code nor security_code -> missing",
    "getFinancials",
    { period: "annual" },
    { param: "edinet_code", reason: "missing" },
  ],
  [
    "financials: both codes -> conflict",
    "getFinancials",
    { edinet_code: "E02144", security_code: "7203" },
    { param: "edinet_code", reason: "conflict" },
  ],
  [
    "financials: years 31 -> out_of_range",
    "getFinancials",
    { security_code: "7203", years: 31 },
    { param: "years", reason: "out_of_range", expected: "1..30" },
  ],
  [
    "financials: years 0 -> out_of_range",
    "getFinancials",
    { security_code: "7203", years: 0 },
    { param: "years", reason: "out_of_range" },
  ],
  [
    "financials: years 2.5 -> invalid_type",
    "getFinancials",
    { security_code: "7203", years: 2.5 },
    { param: "years", reason: "invalid_type" },
  ],
  [
    "financials: years 'ten' -> invalid_type",
    "getFinancials",
    { security_code: "7203", years: "ten" },
    { param: "years", reason: "invalid_type" },
  ],
  [
    "financials: period monthly -> unknown_value",
    "getFinancials",
    { security_code: "7203", period: "monthly" },
    { param: "period", reason: "unknown_value" },
  ],
  [
    "financials: as_of 2024-13 -> invalid_format",
    "getFinancials",
    { security_code: "7203", as_of: "2024/13" },
    { param: "as_of", reason: "invalid_format" },
  ],
  [
    "financials: bad security code -> invalid_format",
    "getFinancials",
    { security_code: "72" },
    { param: "security_code", reason: "invalid_format" },
  ],
  [
    "valuations: missing security_code",
    "getValuations",
    {},
    { param: "security_code", reason: "missing" },
  ],
  [
    "valuations: years 51",
    "getValuations",
    { security_code: "7203", years: 51 },
    { param: "years", reason: "out_of_range" },
  ],
  [
    "prices: from before 2005-01-01",
    "getPrices",
    { code: "7203", from: "2004-12-31" },
    { param: "from", reason: "out_of_range" },
  ],
  [
    "prices: to before 2005-01-01",
    "getPrices",
    { code: "7203", to: "2001-01-01" },
    { param: "to", reason: "out_of_range" },
  ],
  [
    "prices: impossible date",
    "getPrices",
    { code: "7203", from: "2024-02-30" },
    { param: "from", reason: "invalid_format" },
  ],
  [
    "prices: limit 501",
    "getPrices",
    { code: "7203", limit: 501 },
    { param: "limit", reason: "out_of_range" },
  ],
  ["prices: missing code", "getPrices", {}, { param: "code", reason: "missing" }],
  [
    "rankings: unknown metric",
    "getRankings",
    { metric: "best" },
    { param: "metric", reason: "unknown_value" },
  ],
  [
    "securities: q longer than 100",
    "listSecurities",
    { q: "x".repeat(101) },
    { param: "q", reason: "out_of_range" },
  ],
  [
    "securities: unknown market",
    "listSecurities",
    { market: "TSE1" },
    { param: "market", reason: "unknown_value" },
  ],
  [
    "segments: fiscal_year 1989",
    "getSegments",
    { edinet_code: "E02144", fiscal_year: 1989 },
    { param: "fiscal_year", reason: "out_of_range" },
  ],
  [
    "dividends: edinet_code is a security code",
    "getDividends",
    { edinet_code: "7203" },
    { param: "edinet_code", reason: "invalid_format" },
  ],
  [
    "peers: limit 21",
    "getPeers",
    { security_code: "7203", limit: 21 },
    { param: "limit", reason: "out_of_range" },
  ],
  [
    "disclosure: bad doc_id",
    "getDisclosure",
    { doc_id: "X123" },
    { param: "doc_id", reason: "invalid_format" },
  ],
  [
    "disclosure: unknown include group",
    "getDisclosure",
    { doc_id: "S100ABCD", include: "meta,pdf" },
    { param: "include", reason: "invalid_format" },
  ],
  [
    "section: unknown section id",
    "getDisclosureSection",
    { doc_id: "S100ABCD", section: "summary" },
    { param: "section", reason: "unknown_value" },
  ],
  ["person: non-numeric id", "getPerson", { id: "abc" }, { param: "id", reason: "invalid_format" }],
  [
    "weekly margin: period 13w",
    "getWeeklyMarginBalance",
    { code: "7203", period: "13w" },
    { param: "period", reason: "unknown_value" },
  ],
  [
    "jsf: unknown exchange",
    "getJsfMarginDaily",
    { code: "7203", exchange: "XOSE" },
    { param: "exchange", reason: "unknown_value" },
  ],
  [
    "screening: filter without value",
    "getScreening",
    { filters: "per:lte" },
    { param: "filters", reason: "invalid_format" },
  ],
  [
    "screening: unknown operator",
    "getScreening",
    { filters: "per:le:15" },
    { param: "filters", reason: "unknown_value" },
  ],
  [
    "screening: non-numeric threshold",
    "getScreening",
    { filters: "per:lte:cheap" },
    { param: "filters", reason: "invalid_format" },
  ],
  [
    "screening: unknown unit",
    "getScreening",
    { filters: "marketCap:gte:1000:billion_jpy" },
    { param: "filters", reason: "unknown_value" },
  ],
  [
    "screening: empty condition",
    "getScreening",
    { filters: "per:lte:15,,roe:gte:10" },
    { param: "filters", reason: "invalid_format" },
  ],
  [
    "screening: too many segments",
    "getScreening",
    { filters: "per:lte:15:times:x" },
    { param: "filters", reason: "invalid_format" },
  ],
  [
    "screening: as_of in the future",
    "getScreening",
    { as_of: "2026-01-16" },
    { param: "as_of", reason: "out_of_range" },
  ],
  [
    "screening: as_of before 2005",
    "getScreening",
    { as_of: "2004-12-31" },
    { param: "as_of", reason: "out_of_range" },
  ],
  [
    "screening: as_of not a date",
    "getScreening",
    { as_of: "today" },
    { param: "as_of", reason: "invalid_format" },
  ],
  [
    "screening: limit 101",
    "getScreening",
    { limit: 101 },
    { param: "limit", reason: "out_of_range" },
  ],
  [
    "screening: sort_order sideways",
    "getScreening",
    { sort_by: "per", sort_order: "sideways" },
    { param: "sort_order", reason: "unknown_value" },
  ],
  [
    "unknown parameter is rejected",
    "getPeers",
    { security_code: "7203", limt: 5 },
    { param: "limt", reason: "invalid" },
  ],
];

describe("invalid input sends nothing", () => {
  test.each(cases)("%s", async (_name, opId, params, detail) => {
    expect.assertions(4);
    const { rec, client: c } = client();
    try {
      await c.request(opId, params as never);
    } catch (e) {
      expect(e).toBeInstanceOf(ValidationError);
      expect((e as ValidationError).code).toBe("invalid_parameter");
      expect((e as ValidationError).details).toContainEqual(expect.objectContaining(detail));
    }
    expect(rec.requests).toHaveLength(0);
  });
});

describe("screening condition cap (openapi.json getScreening)", () => {
  const filters = (n: number) => Array.from({ length: n }, (_, i) => `per:gte:${i}`).join(",");

  test("20 filters pass", () => {
    expect(validateParams("getScreening", { filters: filters(20) }).filters).toBe(filters(20));
  });

  test("19 filters + sector + industry pass", () => {
    expect(() =>
      validateParams("getScreening", {
        filters: filters(18),
        sector: "電力・ガス",
        industry: "銀行業",
      }),
    ).not.toThrow();
  });

  test("20 filters + sector -> too_many_items, nothing sent", async () => {
    expect.assertions(3);
    const { rec, client: c } = client();
    try {
      await c.screening({ filters: filters(20), sector: "電力・ガス" });
    } catch (e) {
      expect((e as ValidationError).details[0]).toMatchObject({
        param: "filters",
        reason: "too_many_items",
      });
      expect((e as ValidationError).message).toMatch(/Too many conditions in filters: at most 20/);
    }
    expect(rec.requests).toHaveLength(0);
  });

  test("21 filters -> too_many_items", () => {
    expect(() => validateParams("getScreening", { filters: filters(21) })).toThrow(
      /Too many conditions/,
    );
  });
});

describe("cleaning", () => {
  test("numbers become strings for string parameters, codes are upper-cased and trimmed", () => {
    expect(
      validateParams("getFinancials", { security_code: 7203, years: "5", period: " annual " }),
    ).toEqual({
      security_code: "7203",
      years: 5,
      period: "annual",
    });
    expect(validateParams("getPrices", { code: " 130a " })).toEqual({ code: "130A" });
  });

  test("blank values count as omitted", () => {
    expect(
      validateParams("getFinancials", {
        edinet_code: "E02144",
        security_code: "",
        as_of: null,
        years: undefined,
      }),
    ).toEqual({
      edinet_code: "E02144",
    });
  });

  test("filters with all operators and units are accepted", () => {
    const f =
      "marketCap:gte:1000:hundred_million_jpy,per:lt:15,roe:gt:0.1:ratio,dividendYield:eq:3:percent,pbr:lte:1";
    expect(validateParams("getScreening", { filters: f, as_of: "2025-12-31" })).toEqual({
      filters: f,
      as_of: "2025-12-31",
    });
  });

  test("as_of today (JST) is accepted, as is now", () => {
    expect(() =>
      validateParams("getScreening", { as_of: "2026-01-15" }, { now: () => NOW }),
    ).not.toThrow();
    expect(() =>
      validateParams("getScreening", { as_of: "now" }, { now: () => NOW }),
    ).not.toThrow();
  });

  test("every problem is reported at once, with an actionable message", () => {
    expect.assertions(3);
    try {
      validateParams("getFinancials", { security_code: "7203", years: 99, period: "daily" });
    } catch (e) {
      const err = e as ValidationError;
      expect(err.details.map((d) => d.param).sort()).toEqual(["period", "years"]);
      expect(err.message).toBe(
        'period "daily" is not an accepted value: use annual, quarterly, semiannual (and 1 more)',
      );
      expect(err.messageJa).toContain("period の値が使えません");
    }
  });

  test("neither code: one clear message for both details", () => {
    expect.assertions(2);
    try {
      validateParams("getFinancials", {});
    } catch (e) {
      expect((e as ValidationError).message).toBe("Give exactly one of edinet_code, security_code");
      expect((e as ValidationError).messageJa).toBe(
        "edinet_code, security_code のどちらか一方を指定してください",
      );
    }
  });
});

describe("screening sector / industry names (getScreening: official TSE names)", () => {
  test("official names pass and are sent in their official spelling (half-width brackets, spaces, 、)", () => {
    const clean = validateParams("getScreening", {
      sector: " 金融(除く銀行)、電力・ガス ",
      industry: "電気機器, 輸送用機器",
    });
    expect(clean.sector).toBe("金融（除く銀行）,電力・ガス");
    expect(clean.industry).toBe("電気機器,輸送用機器");
  });

  test("an unknown name is refused unsent with unknown_value naming the accepted values", async () => {
    const rec = recordingFetch();
    const client = createClient({ apiKey: TEST_KEY, fetch: rec.fetch, ratePerMinute: 0 });
    const err = await client
      .screening({ sector: "自動車", industry: "電気機器,半導体" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    const details = (err as ValidationError).details as ErrorDetail[];
    expect(details).toEqual([
      expect.objectContaining({
        param: "sector",
        reason: "unknown_value",
        expected: expect.stringContaining("自動車・輸送機"),
      }),
      expect.objectContaining({ param: "industry", reason: "unknown_value" }),
    ]);
    expect(rec.requests).toHaveLength(0);
  });
});

describe("securities industry (openapi.json listSecurities: one exact TSE 33 name)", () => {
  test("the official name in any width passes in its official spelling", () => {
    expect(validateParams("listSecurities", { industry: " 証券、商品先物取引業 " }).industry).toBe(
      "証券、商品先物取引業",
    );
    expect(validateParams("listSecurities", { industry: "ｻｰﾋﾞｽ業" }).industry).toBe("サービス業");
  });

  test("any other name is refused unsent", async () => {
    const rec = recordingFetch();
    const client = createClient({ apiKey: TEST_KEY, fetch: rec.fetch, ratePerMinute: 0 });
    const err = await client.securities({ industry: "半導体" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).details).toEqual([
      expect.objectContaining({ param: "industry", reason: "unknown_value" }),
    ]);
    expect(rec.requests).toHaveLength(0);
  });
});

test("screening industry: 証券、商品先物取引業 is one official name even though 、 also separates names", () => {
  expect(validateParams("getScreening", { industry: "証券、商品先物取引業" }).industry).toBe(
    "証券、商品先物取引業",
  );
  expect(
    validateParams("getScreening", { industry: "銀行業、証券、商品先物取引業、保険業" }).industry,
  ).toBe("銀行業,証券、商品先物取引業,保険業");
});
