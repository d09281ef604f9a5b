// Items and fields the benchmark's model cells ask for (bench/scale-cells.ts builds the cells).

/** 30 statement items a model typically pulls (openapi.json FinancialsPeriod keys). */
export const MODEL_ITEMS = [
  "sales",
  "cost_of_sales",
  "gross_profit",
  "sga",
  "operating_profit",
  "ordinary_income",
  "income_before_tax",
  "income_taxes",
  "net_income",
  "comprehensive_income",
  "ebitda",
  "rd_expenses",
  "total_assets",
  "current_assets",
  "noncurrent_assets",
  "current_liabilities",
  "total_liabilities",
  "net_assets",
  "shareholders_equity",
  "retained_earnings",
  "interest_bearing_debt",
  "cash_and_deposits_bs",
  "inventories",
  "operating_cf",
  "investing_cf",
  "financing_cf",
  "fcf",
  "capital_expenditure",
  "depreciation",
  "cash_and_equivalents",
] as const;

/** Valuation fields a model's VALUATION spill shows. */
export const VALUATION_FIELDS = [
  "stock_price",
  "market_cap",
  "per",
  "pbr_adjusted",
  "roe",
  "dividend_yield_adjusted",
];

/** Price fields of the PRICES spill. */
export const PRICE_FIELDS = ["close", "volume"];
