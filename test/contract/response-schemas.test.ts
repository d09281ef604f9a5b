// Response schemas accept spec-shaped bodies, tolerate unknown fields and reject missing or mistyped ones.
import type { FinancialsResponse, FinancialsPeriod, UsageResponse } from "../../src/contract";
import { FIELD_DICTIONARY } from "../../src/contract/generated/fields";
import { schemaErrors } from "./response-validator";

const attribution = { source_label: "IRBANK", license_note: "note", processed_by: "IRBANK" };

function period(overrides: Partial<FinancialsPeriod> = {}): FinancialsPeriod {
  const values = Object.fromEntries(FIELD_DICTIONARY.financials.map((f) => [f.key, null]));
  return {
    ...(values as unknown as FinancialsPeriod),
    fiscal_year: "2024/03",
    accounting_standard: "IFRS",
    is_consolidated: true,
    scope_exceptions: [],
    standard_exceptions: {},
    sales: 45_095_325_000_000,
    net_income: 4_944_933_000_000,
    ...overrides,
  };
}

describe("response schemas", () => {
  it("a financials answer with null values and an unknown future field is valid", () => {
    const body: FinancialsResponse & { new_field: string } = {
      fields: [{ key: "sales", label: "売上高", unit: "jpy" }],
      edinet_code: "E02144",
      periods: [period()],
      reason: null,
      attribution,
      new_field: "tolerated",
    };
    expect(schemaErrors("FinancialsResponse", body)).toEqual([]);
  });

  it("an empty financials answer carries reason no_results", () => {
    const body = {
      fields: [],
      edinet_code: "E02144",
      periods: [],
      reason: { code: "no_results", message: "No data." },
      attribution,
    };
    expect(schemaErrors("FinancialsResponse", body)).toEqual([]);
    expect(
      schemaErrors("FinancialsResponse", { ...body, reason: { code: "other", message: "x" } }),
    ).not.toEqual([]);
  });

  it("a period missing a value key, or with a string value, is rejected", () => {
    const { sales: _sales, ...withoutSales } = period();
    expect(schemaErrors("FinancialsPeriod", withoutSales)).toEqual([
      "/ must have required property 'sales'",
    ]);
    expect(schemaErrors("FinancialsPeriod", { ...period(), sales: "1" })).toEqual([
      "/sales must be number,null",
    ]);
  });

  it("quarter is optional and limited to Q1..Q4, H1, full_year", () => {
    expect(schemaErrors("FinancialsPeriod", period({ quarter: "H1" }))).toEqual([]);
    expect(schemaErrors("FinancialsPeriod", { ...period(), quarter: "Q5" })).not.toEqual([]);
  });

  it("a missing attribution is rejected", () => {
    expect(
      schemaErrors("Organization", {
        edinet_code: "E02144",
        name_ja: "トヨタ自動車株式会社",
        address_ja: null,
        listed_security_codes: ["7203"],
      }),
    ).toEqual(["/ must have required property 'attribution'"]);
  });

  it("usage needs only remaining; the sandbox's extra counters are typed and checked", () => {
    const minimal: UsageResponse = { remaining: 3700 };
    expect(schemaErrors("UsageResponse", minimal)).toEqual([]);
    const full: UsageResponse = {
      remaining: 10,
      daily_limit: 100,
      used: 90,
      reset_at: "2026-11-22T15:00:00Z",
      attribution,
    };
    expect(schemaErrors("UsageResponse", full)).toEqual([]);
    expect(schemaErrors("UsageResponse", { used: 1 })).toEqual([
      "/ must have required property 'remaining'",
    ]);
    expect(schemaErrors("UsageResponse", { remaining: 1.5 })).toEqual([
      "/remaining must be integer",
    ]);
  });

  it("errors follow the common error object with the eight detail reasons", () => {
    const body = {
      error: {
        code: "invalid_parameter",
        message: "years must be 1..30",
        details: [{ param: "years", reason: "out_of_range", expected: "1..30" }],
      },
    };
    expect(schemaErrors("ErrorResponse", body)).toEqual([]);
    expect(
      schemaErrors("ErrorResponse", { error: { code: "not_found", message: "Not found" } }),
    ).toEqual([]);
    expect(
      schemaErrors("ErrorResponse", {
        error: { ...body.error, details: [{ param: "years", reason: "too_big" }] },
      }),
    ).not.toEqual([]);
  });

  it("peers allow a null capital relationship and weekly margin integers stay integers", () => {
    const peer = {
      security_code: "7267",
      name: "本田技研工業",
      industry: "輸送用機器",
      segments: ["自動車"],
      competition_reason: null,
      capital_relationship: null,
      parent_companies: [],
    };
    expect(schemaErrors("PeerCompany", peer)).toEqual([]);
    const week = {
      report_date: "2026-11-13",
      buy_balance_total: null,
      buy_balance_regulated: null,
      buy_balance_general: null,
      sell_balance_total: null,
      sell_balance_regulated: null,
      sell_balance_general: null,
      buy_balance_total_reported: 100,
      buy_balance_regulated_reported: 60,
      buy_balance_general_reported: 40,
      sell_balance_total_reported: 50,
      sell_balance_regulated_reported: 50,
      sell_balance_general_reported: 0,
      split_adjustment_factor: null,
      margin_ratio: 2,
      buy_balance_change: null,
      sell_balance_change: null,
      close_price: null,
      volume: null,
      volume_reported: 1000,
    };
    expect(schemaErrors("WeeklyMarginBalanceWeek", week)).toEqual([]);
    expect(
      schemaErrors("WeeklyMarginBalanceWeek", { ...week, buy_balance_total_reported: null }),
    ).toEqual(["/buy_balance_total_reported must be integer"]);
  });
});
