// GET /rankings/{metric} (openapi.json getRankings): gainers, losers, volume, stop-high, stop-low
// of the latest day.
import type { components } from "../../src/contract/generated/api-types";
import type { Dataset, SecurityRecord } from "../data/model";
import { ApiError } from "../lib/api-error";
import { attribution } from "../lib/attribution";
import { jstDate } from "../lib/data-clock";
import { reasonFor } from "../lib/empty-reason";
import { isStopHigh, isStopLow } from "../lib/price-limits";
import { defineRoute } from "../lib/route";

type SecurityDailyPrice = components["schemas"]["SecurityDailyPrice"];

interface Mover {
  security: SecurityRecord;
  close: number | null;
  previousClose: number | null;
  changePercent: number | null;
  volume: number | null;
}

/** The latest trading day on or before `today` across all securities; "" when there is none. */
function targetDate(dataset: Dataset, today: string): string {
  let latest = "";
  for (const rows of dataset.prices.values()) {
    for (let i = rows.length - 1; i >= 0; i -= 1) {
      const date = rows[i]?.date ?? "";
      if (date <= today) {
        if (date > latest) latest = date;
        break;
      }
    }
  }
  return latest;
}

/** Share basis of a day relative to the latest one (close / adj_close; 1 after the last split). */
function basis(row: SecurityDailyPrice): number | null {
  return row.close === null || row.adj_close === null || row.adj_close === 0
    ? null
    : row.close / row.adj_close;
}

/**
 * The previous close on the share basis of `day`: across an ex-rights date the as-traded close
 * steps by the split ratio, which is not a price change (the exchange adjusts its base price too).
 */
function onBasisOf(previous: SecurityDailyPrice, day: SecurityDailyPrice): number | null {
  const before = basis(previous);
  const after = basis(day);
  if (previous.close === null || before === null || after === null) return previous.close;
  // adj_close is rounded: a ratio within 1% of 1 is the same basis.
  const ratio = Math.round((before / after) * 1000) / 1000;
  return Math.abs(ratio - 1) < 0.01 ? previous.close : previous.close / ratio;
}

/** Each security's close on the target day against its previous trading day's close. */
function movers(dataset: Dataset, target: string): Mover[] {
  const out: Mover[] = [];
  for (const security of dataset.securities) {
    // RankingItem.industry_name is a TSE 33 industry: ETFs and REITs (no sector) are not ranked.
    if (security.sector === null) continue;
    const rows = dataset.prices.get(security.code) ?? [];
    let i = rows.length - 1;
    while (i >= 0 && (rows[i]?.date ?? "") > target) i -= 1;
    const day = rows[i];
    if (day === undefined || day.date !== target) continue;
    const close = day.close;
    // openapi.json RankingItem: change vs the previous close; a day without trades has no close,
    // look further back.
    let previous: SecurityDailyPrice | undefined;
    for (let j = i - 1; j >= 0 && previous === undefined; j -= 1)
      if (rows[j]?.close !== null) previous = rows[j];
    const previousClose = previous === undefined ? null : onBasisOf(previous, day);
    const changePercent =
      close === null || previousClose === null || previousClose === 0
        ? null
        : Math.round(((close - previousClose) / previousClose) * 10_000) / 100;
    out.push({ security, close, previousClose, changePercent, volume: day.volume });
  }
  return out;
}

const byCode = (a: Mover, b: Mover): number => a.security.code.localeCompare(b.security.code);

/** openapi.json getRankings: the ranking rule of each metric (ties by security code). */
function rank(metric: string, list: Mover[]): Mover[] {
  const change = (m: Mover): number => m.changePercent ?? 0;
  switch (metric) {
    case "gainers":
      return list
        .filter((m) => change(m) > 0)
        .sort((a, b) => change(b) - change(a) || byCode(a, b));
    case "losers":
      return list
        .filter((m) => change(m) < 0)
        .sort((a, b) => change(a) - change(b) || byCode(a, b));
    case "volume":
      return list
        .filter((m) => m.volume !== null && m.volume > 0)
        .sort((a, b) => (b.volume ?? 0) - (a.volume ?? 0) || byCode(a, b));
    case "stop-high":
      return list
        .filter(
          (m) =>
            m.close !== null && m.previousClose !== null && isStopHigh(m.previousClose, m.close),
        )
        .sort((a, b) => change(b) - change(a) || byCode(a, b));
    default:
      return list
        .filter(
          (m) =>
            m.close !== null && m.previousClose !== null && isStopLow(m.previousClose, m.close),
        )
        .sort((a, b) => change(a) - change(b) || byCode(a, b));
  }
}

export const rankingsRoute = defineRoute({
  operationId: "getRankings",
  notFoundOnUnknown: ["metric"],
  handle({ state, params }) {
    if (!state.priceDataAvailable) {
      throw new ApiError(
        503,
        "data_unavailable",
        "Price data is temporarily unavailable and the base date cannot be resolved; retry later.",
      );
    }
    const metric = params.reqStr("metric") as
      "gainers" | "losers" | "volume" | "stop-high" | "stop-low";
    const dataset = state.dataset();
    const target = targetDate(dataset, jstDate(state.now()));
    const ranked = target === "" ? [] : rank(metric, movers(dataset, target));
    const items = ranked.slice(0, params.reqNum("limit")).map((m, index) => ({
      rank: index + 1,
      security_code: m.security.code,
      name: m.security.name,
      industry_name: m.security.industry,
      close_price: m.close,
      change_percent: m.changePercent,
      volume: m.volume,
    }));
    return {
      metric,
      target_date: target,
      items,
      reason: reasonFor(items.length, "No securities qualify for this ranking on the base date."),
      attribution: attribution(),
    };
  },
});
