// Annual valuation history (openapi.json ValuationHistoryPoint): prices at each fiscal year end
// combined with the annual financials, with the share-basis null rule, per_source and per_5y_avg.
import type { components } from "../../src/contract/generated/api-types";
import { addMonths, addDays, monthEnd } from "./calendar";
import { priceFactor, shareFactor } from "./companies";
import type { CompanyFinancials } from "./financials";
import { lastPricedIndex } from "./prices";
import { round } from "./prng";

// Module-local alias: global lookups are slow inside vm contexts (jest builds the dataset there).
const math = Math;

type S = components["schemas"];
type ValuationHistoryPoint = S["ValuationHistoryPoint"];
type SecurityDailyPrice = S["SecurityDailyPrice"];

export interface ValuationSeries {
  history: ValuationHistoryPoint[];
  per_5y_avg: number | null;
}

/** Fiscal year end date (YYYY-MM-DD) of a YYYY/MM label. */
export function labelEnd(label: string): string {
  return monthEnd(Number(label.slice(0, 4)), Number(label.slice(5, 7)));
}

function div(a: number | null, b: number | null, decimals = 2): number | null {
  if (a === null || b === null || b === 0) return null;
  return round(a / b, decimals);
}

/**
 * openapi.json ValuationHistoryPoint null rule: the year's issued shares (current basis) must be
 * explainable against today's issued shares: latest year within 1.5x, earlier years within an order
 * of magnitude.
 */
function shareBasisVerified(
  adjustedShares: number | null,
  currentShares: number,
  latest: boolean,
): boolean {
  if (adjustedShares === null || adjustedShares <= 0) return false;
  const ratio = adjustedShares / currentShares;
  const limit = latest ? 1.5 : 10;
  return ratio <= limit && ratio >= 1 / limit;
}

export function generateValuations(
  fin: CompanyFinancials,
  prices: readonly SecurityDailyPrice[],
): ValuationSeries {
  const events = fin.spec.events;
  const points: ValuationHistoryPoint[] = [];
  const annual = fin.annual;
  annual.forEach((row, i) => {
    const end = labelEnd(row.fiscal_year);
    const idx = lastPricedIndex(prices, end);
    if (idx < 0) return;
    const day = prices[idx] as SecurityDailyPrice;
    const [sy, sm] = addMonths(Number(end.slice(0, 4)), Number(end.slice(5, 7)), -12);
    const start = addDays(monthEnd(sy, sm), 1);
    if (day.date < start) return; // no trading inside the fiscal year
    let hiAdj = -Infinity;
    let loAdj = Infinity;
    for (let k = idx; k >= 0; k -= 1) {
      const p = prices[k] as SecurityDailyPrice;
      if (p.date < start) break;
      if (p.high === null || p.low === null) continue;
      const f = priceFactor(events, p.date);
      hiAdj = math.max(hiAdj, p.high / f);
      loAdj = math.min(loAdj, p.low / f);
    }
    const pf = priceFactor(events, day.date);
    const sf = shareFactor(events, end);
    const close = day.close;
    const closeAdj = day.adj_close;
    const highAdj = round(hiAdj, 2);
    const lowAdj = round(loAdj, 2);
    const adjustedShares = row.shares_outstanding === null ? null : row.shares_outstanding * sf;
    const latest = i === annual.length - 1;
    const verified = shareBasisVerified(adjustedShares, fin.currentShares, latest);
    // Reported per-share values converted to the price basis of the year-end close.
    const toPriceBasis = (v: number | null): number | null => (v === null ? null : (v * pf) / sf);
    const reportedEpsAdj = row.eps_adjusted;
    const computedEps = row.eps_computed_adjusted;
    const denom = reportedEpsAdj ?? computedEps;
    const perSource =
      reportedEpsAdj !== null ? "reported" : computedEps !== null ? "computed" : null;
    const bpsOnPriceBasis = toPriceBasis(row.bps);
    const dpsReported =
      row.dps !== null
        ? toPriceBasis(row.dps)
        : row.dps_adjusted === null
          ? null
          : row.dps_adjusted * pf;
    const stockHigh = round(hiAdj * pf, 2);
    const stockLow = round(loAdj * pf, 2);
    const point: ValuationHistoryPoint = {
      fiscal_year: row.fiscal_year,
      stock_price: close,
      stock_price_high: stockHigh,
      stock_price_low: stockLow,
      stock_price_adjusted: closeAdj,
      stock_price_high_adjusted: highAdj,
      stock_price_low_adjusted: lowAdj,
      market_cap:
        closeAdj === null || adjustedShares === null ? null : math.round(closeAdj * adjustedShares),
      market_cap_high: adjustedShares === null ? null : math.round(highAdj * adjustedShares),
      market_cap_low: adjustedShares === null ? null : math.round(lowAdj * adjustedShares),
      per: div(closeAdj, denom),
      per_source: perSource,
      per_high: div(highAdj, denom),
      per_low: div(lowAdj, denom),
      pbr_reported: div(close, bpsOnPriceBasis),
      pbr_high_reported: div(stockHigh, bpsOnPriceBasis),
      pbr_low_reported: div(stockLow, bpsOnPriceBasis),
      pbr_adjusted: div(closeAdj, row.bps_adjusted),
      pbr_high_adjusted: div(highAdj, row.bps_adjusted),
      pbr_low_adjusted: div(lowAdj, row.bps_adjusted),
      bps_adjusted: row.bps_adjusted,
      dps_adjusted: row.dps_adjusted,
      eps_adjusted: computedEps,
      eps: row.eps,
      bps_reported: row.bps,
      shares_outstanding: row.shares_outstanding,
      roe: row.roe,
      roe_computed: row.roe_computed,
      dividend_yield_reported: div(dpsReported === null ? null : dpsReported * 100, close),
      dividend_yield_high_reported: div(dpsReported === null ? null : dpsReported * 100, stockLow),
      dividend_yield_low_reported: div(dpsReported === null ? null : dpsReported * 100, stockHigh),
      dividend_yield_adjusted: div(
        row.dps_adjusted === null ? null : row.dps_adjusted * 100,
        closeAdj,
      ),
      dividend_yield_high_adjusted: div(
        row.dps_adjusted === null ? null : row.dps_adjusted * 100,
        lowAdj,
      ),
      dividend_yield_low_adjusted: div(
        row.dps_adjusted === null ? null : row.dps_adjusted * 100,
        highAdj,
      ),
    };
    if (denom === null) point.per_source = null;
    if (!verified) {
      // openapi.json ValuationHistoryPoint: share basis not verifiable -> these are all null
      // (yields 0 for a zero dividend).
      const zeroDividend = row.dps === 0 || row.dps_adjusted === 0;
      for (const k of NULL_WHEN_UNVERIFIED) point[k] = null;
      point.per_source = null;
      for (const k of YIELD_KEYS) point[k] = zeroDividend ? 0 : null;
    }
    points.push(point);
  });
  const history = points.reverse();
  const recentPers = history
    .slice(0, 5)
    .map((p) => p.per)
    .filter((p): p is number => p !== null && p > 0);
  const per5 =
    recentPers.length > 0
      ? round(recentPers.reduce((a, b) => a + b, 0) / recentPers.length, 2)
      : null;
  return { history, per_5y_avg: per5 };
}

const NULL_WHEN_UNVERIFIED = [
  "per", "per_high", "per_low", "pbr_reported", "pbr_high_reported", "pbr_low_reported",
  "pbr_adjusted", "pbr_high_adjusted", "pbr_low_adjusted", "bps_adjusted", "dps_adjusted",
  "eps_adjusted",
] as const; // prettier-ignore

const YIELD_KEYS = [
  "dividend_yield_reported", "dividend_yield_high_reported", "dividend_yield_low_reported",
  "dividend_yield_adjusted", "dividend_yield_high_adjusted", "dividend_yield_low_adjusted",
] as const; // prettier-ignore

/**
 * Fill the as-reported PER (times) of the financial rows from the year-end close (openapi.json
 * FinancialsPeriod ratios).
 */
export function fillFinancialPer(
  fin: CompanyFinancials,
  prices: readonly SecurityDailyPrice[],
): void {
  const perByLabel = new Map<string, number | null>();
  for (const row of fin.annual) {
    const end = labelEnd(row.fiscal_year);
    const idx = lastPricedIndex(prices, end);
    const day = prices[idx];
    if (!day || day.close === null || row.eps === null || row.eps <= 0) continue;
    const onPriceBasis =
      (row.eps * priceFactor(fin.spec.events, day.date)) / shareFactor(fin.spec.events, end);
    perByLabel.set(row.fiscal_year, round(day.close / onPriceBasis, 2));
  }
  for (const row of [...fin.annual, ...fin.quarterly, ...fin.semiannual]) {
    if (row.quarter !== undefined && row.quarter !== "full_year") continue;
    const per = perByLabel.get(row.fiscal_year);
    if (per !== undefined) row.per = per;
  }
}
