// Screening catalogue (openapi.json ScreeningField, GET /screening/fields) and the numeric metrics
// of a security evaluated at a date from its prices and the latest annual results published by
// then.
import type { components } from "../../src/contract/generated/api-types";
import { addDays } from "./calendar";
import { shareFactor } from "./companies";
import { PUBLICATION_LAG_DAYS } from "./fiscal-periods";
import type { DatasetTables, MetricInput, ScreeningMetricValue } from "./model";
import { lastPricedIndex } from "./prices";
import { round } from "./prng";
import { labelEnd } from "./valuations";

type S = components["schemas"];
type ScreeningField = S["ScreeningField"];
type SecurityDailyPrice = S["SecurityDailyPrice"];
type DividendRecord = S["DividendRecord"];

// prettier-ignore
export const SCREENING_FIELDS: ScreeningField[] = [
  { key: "marketCap", label: "時価総額", unit: "jpy", type: "numeric" },
  { key: "enterpriseValue", label: "企業価値（EV）", unit: "jpy", type: "numeric", note: "時価総額＋有利子負債－現金及び現金同等物" },
  { key: "per", label: "PER（実績）", unit: "times", type: "numeric" },
  { key: "pbr", label: "PBR（実績）", unit: "times", type: "numeric" },
  { key: "evEbitda", label: "EV/EBITDA倍率", unit: "times", type: "numeric" },
  { key: "dividendYield", label: "配当利回り", unit: "percent", type: "numeric" },
  { key: "payoutRatio", label: "配当性向", unit: "percent", type: "numeric" },
  { key: "roe", label: "ROE", unit: "percent", type: "numeric" },
  { key: "roa", label: "ROA", unit: "percent", type: "numeric" },
  { key: "equityRatio", label: "自己資本比率", unit: "ratio", type: "numeric", note: "1.0 = 100%。単位を省略した閾値も同じ尺度" },
  { key: "sales", label: "売上高", unit: "jpy", type: "numeric" },
  { key: "operatingProfit", label: "営業利益", unit: "jpy", type: "numeric" },
  { key: "netIncome", label: "親会社株主に帰属する当期純利益", unit: "jpy", type: "numeric" },
  { key: "totalAssets", label: "総資産", unit: "jpy", type: "numeric" },
  { key: "freeCashFlow", label: "フリーキャッシュフロー", unit: "jpy", type: "numeric" },
  { key: "operatingMargin", label: "営業利益率", unit: "percent", type: "numeric" },
  { key: "netMargin", label: "純利益率", unit: "percent", type: "numeric" },
  { key: "salesGrowth", label: "売上高成長率（前期比）", unit: "percent", type: "numeric" },
  { key: "operatingProfitGrowth", label: "営業利益成長率（前期比）", unit: "percent", type: "numeric" },
  { key: "eps", label: "EPS（1株当たり当期純利益）", unit: "jpy_per_share", type: "numeric" },
  { key: "bps", label: "BPS（1株当たり純資産）", unit: "jpy_per_share", type: "numeric" },
  { key: "dps", label: "1株当たり配当金", unit: "jpy_per_share", type: "numeric" },
  { key: "closePrice", label: "終値", unit: "jpy", type: "numeric" },
  { key: "volume", label: "出来高", unit: "shares", type: "numeric" },
  { key: "changePercent", label: "前日比騰落率", unit: "percent", type: "numeric" },
  { key: "employees", label: "従業員数（連結）", unit: "people", type: "numeric" },
  { key: "averageAnnualSalary", label: "平均年間給与", unit: "jpy", type: "numeric" },
  { key: "averageAge", label: "平均年齢", unit: "years", type: "numeric" },
  { key: "consecutiveDividendIncreaseYears", label: "連続増配年数", unit: "years", type: "numeric" },
  { key: "ghgScope1And2", label: "温室効果ガス排出量（Scope1+2）", unit: "t_co2e", type: "numeric" },
  { key: "sector", label: "業種（17業種）", unit: null, type: "enum" },
  { key: "industry", label: "業種（33業種）", unit: null, type: "enum" },
];

interface MetricSource {
  prices: readonly SecurityDailyPrice[];
  /** The company's annual rows and share events; null for ETFs and the second share class. */
  fin: { annual: readonly S["FinancialsPeriod"][]; events: MetricInput["events"] } | null;
  dividends: readonly DividendRecord[];
}

/**
 * Dataset.screeningMetrics over the tables: the security's prices, and for a company its annual
 * financials, share events and dividends; {} for a code without prices.
 */
export function metricsFromTables(
  tables: DatasetTables,
  code: string,
  asOf: string,
  resultsPublic?: (fiscalYear: string) => boolean | undefined,
): Record<string, ScreeningMetricValue> {
  const prices = tables.prices.get(code);
  if (!prices) return {};
  const input = tables.metricInputs.get(code);
  const annual = input === undefined ? undefined : tables.financials.get(input.edinet)?.annual;
  return computeMetrics(
    {
      prices,
      fin: input === undefined || annual === undefined ? null : { annual, events: input.events },
      dividends: input === undefined ? [] : (tables.dividends.get(input.edinet) ?? []),
    },
    asOf,
    resultsPublic,
  );
}

/** Numeric metrics of one security at `asOf` (YYYY-MM-DD); keys without a value are absent. */
function computeMetrics(
  src: MetricSource,
  asOf: string,
  resultsPublic?: (fiscalYear: string) => boolean | undefined,
): Record<string, ScreeningMetricValue> {
  const out: Record<string, ScreeningMetricValue> = {};
  const put = (key: string, value: number | null | undefined, date: string, decimals = 2): void => {
    if (value === null || value === undefined || !Number.isFinite(value)) return;
    out[key] = { value: round(value, decimals), as_of: date };
  };
  const idx = lastPricedIndex(src.prices, asOf);
  const day = idx >= 0 ? src.prices[idx] : undefined;
  if (day && day.close !== null && day.adj_close !== null) {
    put("closePrice", day.close, day.date);
    put("volume", day.volume, day.date, 0);
    const prevIdx = lastPricedIndex(src.prices, addDays(day.date, -1));
    const prev = prevIdx >= 0 ? src.prices[prevIdx] : undefined;
    if (prev?.adj_close) put("changePercent", (day.adj_close / prev.adj_close - 1) * 100, day.date);
  }
  const fin = src.fin;
  if (!fin) return out;
  // Latest annual results public by asOf: 24 hours after their tanshin (openapi.json
  // info.description, the same rule as
  // /financials); without a known tanshin, about 45 days after the year end.
  const published = fin.annual.filter(
    (r) =>
      r.sales !== null &&
      (resultsPublic?.(r.fiscal_year) ??
        addDays(labelEnd(r.fiscal_year), PUBLICATION_LAG_DAYS) <= asOf),
  );
  const row = published[published.length - 1];
  if (!row) return out;
  const prevRow = published[published.length - 2];
  const fyEnd = labelEnd(row.fiscal_year);
  put("sales", row.sales, fyEnd, 0);
  put("operatingProfit", row.operating_profit, fyEnd, 0);
  put("netIncome", row.net_income, fyEnd, 0);
  put("totalAssets", row.total_assets, fyEnd, 0);
  put("freeCashFlow", row.fcf, fyEnd, 0);
  put("equityRatio", row.equity_ratio, fyEnd, 4);
  put("roe", row.roe ?? row.roe_computed, fyEnd);
  if (row.net_income !== null && row.total_assets)
    put("roa", (row.net_income / row.total_assets) * 100, fyEnd);
  if (row.sales && row.operating_profit !== null)
    put("operatingMargin", (row.operating_profit / row.sales) * 100, fyEnd);
  if (row.sales && row.net_income !== null)
    put("netMargin", (row.net_income / row.sales) * 100, fyEnd);
  if (prevRow?.sales && row.sales !== null)
    put("salesGrowth", (row.sales / prevRow.sales - 1) * 100, fyEnd);
  if (prevRow?.operating_profit && prevRow.operating_profit > 0 && row.operating_profit !== null) {
    put(
      "operatingProfitGrowth",
      (row.operating_profit / prevRow.operating_profit - 1) * 100,
      fyEnd,
    );
  }
  const eps = row.eps_computed_adjusted;
  const bps = row.bps_computed_adjusted;
  put("eps", eps, fyEnd);
  put("bps", bps, fyEnd);
  put("dps", row.dps_adjusted, fyEnd);
  if (row.payout_ratio !== null) put("payoutRatio", row.payout_ratio * 100, fyEnd);
  put("employees", row.number_of_employees, fyEnd, 0);
  put("averageAnnualSalary", row.average_annual_salary, fyEnd, 0);
  put("averageAge", row.average_age, fyEnd, 1);
  put("ghgScope1And2", row.ghg_scope1_and_2, fyEnd, 0);
  const div = src.dividends.filter((d) => d.fiscal_year <= Number(row.fiscal_year.slice(0, 4)));
  put(
    "consecutiveDividendIncreaseYears",
    div[div.length - 1]?.consecutive_dividend_increase_years,
    fyEnd,
    0,
  );
  if (day && day.adj_close !== null) {
    // Share count on today's basis: reported shares at the year end times the basis factor since then.
    const shares =
      row.shares_outstanding === null
        ? null
        : row.shares_outstanding * shareFactor(fin.events, fyEnd);
    if (shares !== null) {
      const cap = day.adj_close * shares;
      put("marketCap", cap, day.date, 0);
      if (row.interest_bearing_debt !== null && row.cash_and_equivalents !== null) {
        const ev = cap + row.interest_bearing_debt - row.cash_and_equivalents;
        put("enterpriseValue", ev, day.date, 0);
        if (row.ebitda) put("evEbitda", ev / row.ebitda, day.date);
      }
    }
    if (eps !== null && eps > 0) put("per", day.adj_close / eps, day.date);
    if (bps !== null && bps > 0) put("pbr", day.adj_close / bps, day.date);
    if (row.dps_adjusted !== null)
      put("dividendYield", (row.dps_adjusted / day.adj_close) * 100, day.date);
  }
  return out;
}
