// Weekly exchange margin balances (openapi.json WeeklyMarginResponse, getWeeklyMarginBalance):
// reported balances on the share basis of the time, adjusted to the latest basis when splits can be
// matched to price steps (not-applicable / applied / undeterminable).
import type { components } from "../../src/contract/generated/api-types";
import { addDays, weekday } from "./calendar";
import { ANNOUNCED_EVENTS, priceFactor } from "./companies";
import type { ShareEvent, WeeklyMarginRecord } from "./model";
import { Prng, round } from "./prng";

// Module-local alias: global lookups are slow inside vm contexts (jest builds the dataset there).
const math = Math;

type S = components["schemas"];
type Week = S["WeeklyMarginBalanceWeek"];
type SecurityDailyPrice = S["SecurityDailyPrice"];

/** The newest published week (balances as of Friday are published the following Tuesday). */
const LAST_REPORT_DATE = "2026-11-13";
/** Weeks kept per security: a little over two years, so a 52-week answer has its previous row. */
const WEEKS_KEPT = 112;

export interface MarginInput {
  code: string;
  events: readonly ShareEvent[];
  shares: number;
  undeterminable: boolean;
  listedFrom: string;
}

function reportDates(): string[] {
  const out: string[] = [];
  let d = LAST_REPORT_DATE;
  while (weekday(d) !== 5) d = addDays(d, -1);
  for (let i = 0; i < WEEKS_KEPT; i += 1) {
    out.push(d);
    d = addDays(d, -7);
  }
  return out.reverse();
}

export function generateWeeklyMargin(
  input: MarginInput,
  prices: readonly SecurityDailyPrice[],
): WeeklyMarginRecord {
  const rng = new Prng(`margin:${input.code}`);
  const dates = reportDates().filter((d) => d >= input.listedFrom);
  const first = dates[0] ?? LAST_REPORT_DATE;
  const inWindow = input.events.filter((e) => e.exDate > first && e.exDate <= LAST_REPORT_DATE);
  const status: WeeklyMarginRecord["split_adjustment_status"] = input.undeterminable
    ? "undeterminable"
    : inWindow.length > 0
      ? "applied"
      : "not-applicable";
  const adjustable = status !== "undeterminable";
  let buy = input.shares * (0.004 + rng.next() * 0.01);
  let sell = buy * (0.15 + rng.next() * 0.6);
  const weeks: Week[] = [];
  let pi = 0;
  let prev: Week | null = null;
  for (const date of dates) {
    buy *= math.exp(rng.normal() * 0.07);
    sell *= math.exp(rng.normal() * 0.1);
    const factor = priceFactor(input.events, date);
    // Published on the basis of the time: old-basis shares before the ex-date.
    const buyRep = math.round(buy / factor / 100) * 100;
    const sellRep = math.round(sell / factor / 100) * 100;
    const buyReg = math.round((buyRep * 0.72) / 100) * 100;
    const sellReg = math.round((sellRep * 0.85) / 100) * 100;
    const monday = addDays(date, -4);
    let close: number | null = null;
    let vol = 0;
    let volRep = 0;
    let traded = false;
    while (pi < prices.length && (prices[pi] as SecurityDailyPrice).date <= date) {
      const p = prices[pi] as SecurityDailyPrice;
      if (p.date >= monday) {
        if (p.adj_close !== null) close = p.adj_close;
        volRep += p.volume ?? 0;
        vol += math.round((p.volume ?? 0) * priceFactor(input.events, p.date));
        traded = true;
      }
      pi += 1;
    }
    const adj = (v: number): number | null => (adjustable ? math.round(v * factor) : null);
    const week: Week = {
      report_date: date,
      buy_balance_total: adj(buyRep),
      buy_balance_regulated: adj(buyReg),
      buy_balance_general: adj(buyRep - buyReg),
      sell_balance_total: adj(sellRep),
      sell_balance_regulated: adj(sellReg),
      sell_balance_general: adj(sellRep - sellReg),
      buy_balance_total_reported: buyRep,
      buy_balance_regulated_reported: buyReg,
      buy_balance_general_reported: buyRep - buyReg,
      sell_balance_total_reported: sellRep,
      sell_balance_regulated_reported: sellReg,
      sell_balance_general_reported: sellRep - sellReg,
      split_adjustment_factor: adjustable ? factor : null,
      margin_ratio: sellRep === 0 ? null : round(buyRep / sellRep, 2),
      buy_balance_change: null,
      sell_balance_change: null,
      close_price: adjustable && traded ? close : null,
      volume: adjustable && traded ? vol : null,
      volume_reported: traded ? volRep : null,
    };
    if (prev && adjustable) {
      week.buy_balance_change = (week.buy_balance_total ?? 0) - (prev.buy_balance_total ?? 0);
      week.sell_balance_change = (week.sell_balance_total ?? 0) - (prev.sell_balance_total ?? 0);
    }
    weeks.push(week);
    prev = week;
  }
  const splitEvents: S["WeeklyMarginSplitEventExternal"][] = [];
  if (status === "applied") {
    const announced = ANNOUNCED_EVENTS.get(input.code) ?? [];
    for (const e of [...input.events.filter((x) => x.exDate > first), ...announced]) {
      splitEvents.push({
        rights_last_date: e.rightsLastDate,
        effective_date: e.effectiveDate,
        ratio_text: e.ratioText,
        ratio: e.ratio,
        kind: e.ratio > 1 ? "split" : "consolidation",
        applied_from_report_date: dates.find((d) => d >= e.exDate) ?? null,
      });
    }
    splitEvents.sort((a, b) => (a.rights_last_date < b.rights_last_date ? -1 : 1));
  }
  return {
    split_adjustment_status: status,
    split_events: splitEvents,
    issued_shares_count: adjustable ? input.shares : null,
    weeks,
  };
}
