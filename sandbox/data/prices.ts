// Daily prices (openapi.json SecurityDailyPrice): a current-basis price path anchored on book
// value, turned into as-traded OHLC with exchange tick sizes, and adj_close on the latest share
// basis across splits and consolidations.
import type { components } from "../../src/contract/generated/api-types";
import { lastIndexOnOrBefore } from "./calendar";
import { priceFactor } from "./companies";
import type { ShareEvent } from "./model";
import { marketLevel, yearFraction } from "./market";
import { Prng, round } from "./prng";

// Module-local alias: global lookups are slow inside vm contexts (jest builds the dataset there).
const math = Math;

type SecurityDailyPrice = components["schemas"]["SecurityDailyPrice"];

export interface PriceInput {
  code: string;
  listedFrom: string;
  events: readonly ShareEvent[];
  /** Current-basis shares (volumes scale with it). */
  shares: number;
  vol: number;
  /** Fair current-basis price at a date before market level and noise. */
  anchor: (date: string) => number;
  illiquid: boolean;
  /** Whole units (REIT / ETF) instead of 100-share lots. */
  unitLot: number;
  /** Force the last day to the daily limit: +1 stop-high, -1 stop-low. */
  lastDayLimit?: 1 | -1;
}

/** Tick size by price (TSE standard table). */
function tickSize(price: number): number {
  if (price <= 3000) return 1;
  if (price <= 5000) return 5;
  if (price <= 30000) return 10;
  if (price <= 50000) return 50;
  if (price <= 300000) return 100;
  if (price <= 500000) return 500;
  return 1000;
}

/** Daily price limit width (値幅制限) by previous close. */
function priceLimit(prev: number): number {
  const table: [number, number][] = [
    [100, 30], [200, 50], [500, 80], [700, 100], [1000, 150], [1500, 300], [2000, 400],
    [3000, 500], [5000, 700], [7000, 1000], [10000, 1500], [15000, 3000], [20000, 4000],
    [30000, 5000], [50000, 7000], [70000, 10000], [100000, 15000], [150000, 30000],
    [200000, 40000], [300000, 50000], [500000, 70000], [700000, 100000], [1000000, 150000],
  ]; // prettier-ignore
  for (const [below, width] of table) if (prev < below) return width;
  return 300000;
}

function toTick(price: number, mode: "round" | "up" | "down"): number {
  const t = tickSize(price);
  const f = mode === "up" ? math.ceil : mode === "down" ? math.floor : math.round;
  return math.max(t, f(price / t) * t);
}

/** Generate the daily series over the given trading days (from the listing date on). */
export function generatePrices(
  input: PriceInput,
  days: readonly string[],
  noise: Float64Array,
): SecurityDailyPrice[] {
  const rng = new Prng(`prices:${input.code}`);
  const out: SecurityDailyPrice[] = [];
  const start = math.max(0, lastIndexOnOrBefore(days, input.listedFrom));
  const beta = 0.6 + rng.next() * 0.8;
  let x = 0;
  let prevRaw = 0;
  let prevFactor = 1;
  for (let i = start; i < days.length; i += 1) {
    const date = days[i] as string;
    if (date < input.listedFrom) continue;
    x = x * (1 - 1 / 90) + rng.normal() * input.vol;
    // Valuations follow the market only partly: book value carries the long-run trend.
    const level = math.sqrt(marketLevel(yearFraction(date))) / 1.35;
    const current = input.anchor(date) * level * math.exp(beta * (noise[i] ?? 0) + x);
    const factor = priceFactor(input.events, date);
    const last = i === days.length - 1;
    if (input.illiquid && rng.chance(0.12) && out.length > 0 && !last) {
      out.push({
        date,
        open: null,
        high: null,
        low: null,
        close: null,
        adj_close: null,
        volume: 0,
      });
      continue;
    }
    let close = toTick(current * factor, "round");
    const prevOnBasis = prevRaw > 0 ? (prevRaw * factor) / prevFactor : close;
    let open = toTick(prevOnBasis + (close - prevOnBasis) * rng.range(0.1, 0.6), "round");
    if (last && input.lastDayLimit && prevRaw > 0) {
      close = prevOnBasis + input.lastDayLimit * priceLimit(prevOnBasis);
      open = toTick(prevOnBasis + (close - prevOnBasis) * 0.5, "round");
    }
    const spread = math.abs(rng.normal()) * input.vol * 0.6;
    let high = toTick(math.max(open, close) * (1 + spread), "up");
    let low = toTick(math.min(open, close) * (1 - spread * rng.next()), "down");
    if (last && input.lastDayLimit === 1) high = close;
    if (last && input.lastDayLimit === -1) low = close;
    high = math.max(high, open, close);
    low = math.min(low, open, close);
    const turnover = 0.0035 * math.exp(rng.normal() * 0.5) * (1 + math.abs(x) * 4);
    const volume = math.max(
      input.unitLot,
      math.round(((input.shares / factor) * turnover) / input.unitLot) * input.unitLot,
    );
    out.push({
      date,
      open,
      high,
      low,
      close,
      adj_close: round(close / factor, 2),
      volume: last && input.lastDayLimit ? volume * 4 : volume,
    });
    prevRaw = close;
    prevFactor = factor;
  }
  return out;
}

/** Index of the last priced (non-null close) day on or before a date, or -1. */
export function lastPricedIndex(prices: readonly SecurityDailyPrice[], date: string): number {
  let lo = 0;
  let hi = prices.length - 1;
  let idx = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((prices[mid] as SecurityDailyPrice).date <= date) {
      idx = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  while (idx >= 0 && (prices[idx] as SecurityDailyPrice).close === null) idx -= 1;
  return idx;
}
