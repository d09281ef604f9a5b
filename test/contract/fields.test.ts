// The field dictionary and the x-unit / x-label-ja annotations follow the openapi.json schemas.
import { FIELD_DICTIONARY } from "../../src/contract/generated/fields";
import type { Dataset } from "../../src/contract/rules";
import { loadDoc, type Schema } from "./openapi-document";

const UNITS = [
  "jpy",
  "jpy_per_share",
  "percent",
  "points",
  "times",
  "ratio",
  "years",
  "days",
  "months",
  "shares",
  "people",
  "t_co2e",
  "count",
];

// openapi.json FinancialsPeriod value keys, in the spec's group order.
const FINANCIAL_KEYS =
  `sales operating_profit ordinary_income net_income extraordinary_income extraordinary_loss
  comprehensive_income cost_of_sales ebit ebitda financial_expenses financial_income gross_profit
  income_before_tax income_taxes interest_expenses interest_income non_operating_expenses
  non_operating_income rd_expenses sga
  aoci buildings_and_structures capital_stock capital_surplus cash_and_deposits_bs current_assets
  current_liabilities gain_on_disposal_of_treasury_stock goodwill intangible_assets
  interest_bearing_debt inventories inventories_incl_re investment_securities
  investments_and_other_assets land long_term_borrowings net_assets non_controlling_interests
  noncurrent_assets noncurrent_liabilities owners_equity ppe retained_earnings securities
  shareholders_equity short_term_borrowings total_assets total_liabilities trade_payable
  trade_receivable treasury_stock_amount working_capital
  operating_cf investing_cf financing_cf capital_expenditure cash_and_equivalents depreciation
  dividends_paid_cf fcf treasury_stock_disposal_cf treasury_stock_net_cf treasury_stock_purchase_cf
  average_shares shares_outstanding treasury_shares
  eps diluted_eps dps dps_q2 dps_year_end bps
  eps_computed bps_computed
  eps_computed_adjusted eps_adjusted diluted_eps_adjusted bps_computed_adjusted bps_adjusted
  dps_adjusted dps_q2_adjusted dps_year_end_adjusted
  payout_ratio equity_ratio per roe roe_computed
  total_dividends
  average_age average_years_of_service average_annual_salary auditors_remuneration
  directors_remuneration outside_officers_remuneration number_of_employees
  number_of_employees_parent temporary_employees temporary_employees_parent
  number_of_female_directors
  ghg_scope1 ghg_scope1_2_3 ghg_scope1_and_2 ghg_scope2 ghg_scope3 ratio_of_female_directors
  ratio_of_female_managers ratio_of_male_employees_taking_childcare_leave wage_gap_all_employees
  wage_gap_non_regular_employees wage_gap_regular_employees`
    .split(/\s+/)
    .filter(Boolean);

function units(dataset: Dataset): Record<string, string> {
  return Object.fromEntries(FIELD_DICTIONARY[dataset].map((f) => [f.key, f.unit]));
}
function labels(dataset: Dataset): Record<string, string> {
  return Object.fromEntries(FIELD_DICTIONARY[dataset].map((f) => [f.key, f.label]));
}

describe("FIELD_DICTIONARY (generated/fields.ts)", () => {
  const schemas = loadDoc().components.schemas;

  it("financials lists every FinancialsPeriod value key in the spec's group order", () => {
    expect(FINANCIAL_KEYS).toHaveLength(112);
    expect(FIELD_DICTIONARY.financials.map((f) => f.key)).toEqual(FINANCIAL_KEYS);
  });

  it("FinancialsPeriod value fields are required number-or-null", () => {
    const period = schemas.FinancialsPeriod as Schema;
    for (const key of FINANCIAL_KEYS) {
      expect({ key, type: period.properties?.[key]?.type }).toEqual({
        key,
        type: ["number", "null"],
      });
      expect(period.required).toContain(key);
    }
    expect(period.required).not.toContain("quarter");
  });

  it("financial units follow the FinancialsPeriod groups", () => {
    const u = units("financials");
    expect([
      u.sales,
      u.total_assets,
      u.operating_cf,
      u.total_dividends,
      u.average_annual_salary,
    ]).toEqual(["jpy", "jpy", "jpy", "jpy", "jpy"]);
    expect([u.shares_outstanding, u.eps, u.bps_computed_adjusted]).toEqual([
      "shares",
      "jpy_per_share",
      "jpy_per_share",
    ]);
    expect([u.payout_ratio, u.equity_ratio, u.per, u.roe, u.roe_computed]).toEqual([
      "ratio",
      "ratio",
      "times",
      "percent",
      "percent",
    ]);
    expect([u.average_age, u.number_of_employees, u.ghg_scope3, u.wage_gap_all_employees]).toEqual([
      "years",
      "people",
      "t_co2e",
      "ratio",
    ]);
  });

  it("labels read as an analyst expects", () => {
    const l = labels("financials");
    expect([l.sales, l.operating_profit, l.ordinary_income, l.net_income, l.total_assets]).toEqual([
      "売上高",
      "営業利益",
      "経常利益",
      "親会社株主に帰属する当期純利益",
      "総資産",
    ]);
    expect(l.eps).toBe("EPS（1株当たり利益）");
    expect(labels("valuations").market_cap).toBe("時価総額");
    expect(labels("margin").margin_ratio).toBe("信用倍率");
    expect(labels("prices").close).toBe("終値");
  });

  it("each dataset draws on its schema, leaving out dates, identifiers and texts", () => {
    expect(FIELD_DICTIONARY.prices.map((f) => f.key)).toEqual([
      "open",
      "high",
      "low",
      "close",
      "adj_close",
      "volume",
    ]);
    expect(FIELD_DICTIONARY.segments.map((f) => f.key)).toEqual([
      "revenue",
      "operating_income",
      "revenue_share",
      "yoy_growth",
      "employees",
      "assets",
    ]);
    expect(FIELD_DICTIONARY.dividends.map((f) => f.key)).toEqual([
      "annual_dps",
      "annual_dps_adjusted",
      "payout_ratio",
      "doe",
      "net_asset_dividend_rate",
      "consecutive_dividend_increase_years",
    ]);
    // openapi.json getValuations: fiscal_year and per_source are not in fields[].
    const valuationKeys = FIELD_DICTIONARY.valuations.map((f) => f.key);
    expect(valuationKeys).toHaveLength(32); // all ValuationHistoryPoint columns but those two
    expect(valuationKeys).not.toContain("fiscal_year");
    expect(valuationKeys).not.toContain("per_source");
  });

  // As the fields[] of openapi.json getWeeklyMarginBalance / getJsfMarginDaily do.
  it("margin and jsf cover the lists and issued_shares_count", () => {
    const margin = units("margin");
    expect(Object.keys(margin)).toHaveLength(20);
    expect(margin.issued_shares_count).toBe("shares");
    expect(new Set(Object.values(margin))).toEqual(new Set(["shares", "times", "jpy"]));
    const jsf = units("jsf");
    expect(Object.keys(jsf)).toEqual([
      "loan_balance",
      "stock_loan_balance",
      "loan_new",
      "loan_repay",
      "stock_loan_new",
      "stock_loan_repay",
      "net_balance",
      "loan_balance_change",
      "stock_loan_balance_change",
      "lending_ratio",
      "fee_per_day",
      "fee_days",
      "fee_total",
      "issued_shares_count",
    ]);
    expect([jsf.fee_days, jsf.fee_total, jsf.lending_ratio]).toEqual([
      "days",
      "jpy_per_share",
      "times",
    ]);
  });

  it("every entry has a spec unit id, a Japanese label and a unique key", () => {
    for (const [dataset, fields] of Object.entries(FIELD_DICTIONARY)) {
      expect({ dataset, unique: new Set(fields.map((f) => f.key)).size }).toEqual({
        dataset,
        unique: fields.length,
      });
      for (const f of fields) {
        expect(UNITS).toContain(f.unit);
        expect(f.label).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]|^EBITDA$/);
      }
    }
  });

  it("every numeric response property carries x-unit and x-label-ja, except period and free-unit values", () => {
    // Period identifiers and values whose unit depends on the row are not measured quantities.
    const exempt = new Set([
      "DividendRecord.fiscal_year",
      "SegmentRow.quarter",
      "ScreeningSecurityMetric.value",
      "DisclosureXbrlFact.value",
    ]);
    const missing: string[] = [];
    for (const [name, schema] of Object.entries(schemas)) {
      for (const [key, prop] of Object.entries(schema.properties ?? {})) {
        const types = Array.isArray(prop.type) ? prop.type : [prop.type];
        if (!types.includes("number") && !types.includes("integer")) continue;
        if (exempt.has(`${name}.${key}`)) continue;
        if (prop["x-unit"] === undefined || prop["x-label-ja"] === undefined)
          missing.push(`${name}.${key}`);
        else expect(UNITS).toContain(prop["x-unit"]);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe("money kinds (openapi.json x-money-kind)", () => {
  it("every price the API counts in jpy is a price per share, never an amount a money unit scales", () => {
    const perShare = (dataset: Dataset) =>
      FIELD_DICTIONARY[dataset].filter((f) => f.money === "per_share").map((f) => f.key);
    expect(perShare("prices")).toEqual(["open", "high", "low", "close", "adj_close"]);
    expect(perShare("valuations")).toEqual([
      "stock_price",
      "stock_price_high",
      "stock_price_low",
      "stock_price_adjusted",
      "stock_price_high_adjusted",
      "stock_price_low_adjusted",
    ]);
    expect(perShare("margin")).toEqual(["close_price"]);
    expect(FIELD_DICTIONARY.financials.filter((f) => f.money).map((f) => f.key)).toEqual([
      "average_annual_salary",
    ]);
    // Only yen fields carry a kind (an amount carries none: it is the default).
    for (const dataset of Object.keys(FIELD_DICTIONARY) as Dataset[])
      for (const f of FIELD_DICTIONARY[dataset])
        if (f.money !== undefined)
          expect([dataset, f.key, f.unit]).toEqual([dataset, f.key, "jpy"]);
  });
});
