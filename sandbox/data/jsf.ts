// Daily securities-finance balances and reverse fees (openapi.json JsfMarginDailyResponse,
// getJsfMarginDaily): exchange-published, not split- adjusted (the basis switches at the ex-rights
// date), reverse fees on the own and other exchanges.
import type { components } from "../../src/contract/generated/api-types";
import { toDayNumber } from "./calendar";
import type { Exchange, JsfRecord, ShareEvent } from "./model";
import { Prng, round } from "./prng";

// Module-local alias: global lookups are slow inside vm contexts (jest builds the dataset there).
const math = Math;

type S = components["schemas"];

/** First application date kept: a little over 13 months before the data clock. */
const JSF_FROM = "2025-09-01";

/** Securities with frequent sell-side pressure (reverse fees). */
const SHORTED = new Set(["9202", "4592", "3697", "7203", "9501", "4385", "9983", "1321"]);

export interface JsfInput {
  code: string;
  exchange: Exchange;
  listedOn: readonly Exchange[];
  events: readonly ShareEvent[];
  shares: number;
}

const FEES = [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.5, 0.75, 1.0, 1.5];

export function generateJsf(input: JsfInput, days: readonly string[]): JsfRecord {
  const rng = new Prng(`jsf:${input.code}`);
  const list = days.filter((d) => d >= JSF_FROM);
  const shorted = SHORTED.has(input.code);
  // Issued shares on the basis of the first kept day (input.shares is the latest basis).
  const laterRatio = input.events
    .filter((e) => e.exDate > (list[0] ?? JSF_FROM))
    .reduce((factor, e) => factor * e.ratio, 1);
  let loan = math.round((input.shares / laterRatio) * (0.002 + rng.next() * 0.004));
  let stock = math.round(loan * (shorted ? 0.9 + rng.next() * 0.3 : 0.2 + rng.next() * 0.4));
  // Levels the balances revert to: without them the daily flows compound into stock loans larger
  // than the issued shares (shorted names) or balances drained to nothing within a year.
  let loanLevel = loan;
  let stockLevel = shorted ? loan * (1.1 + rng.next() * 0.3) : stock;
  const out: S["JsfMarginDailyPoint"][] = [];
  const reverse: S["JsfReverseFeeExternal"][] = [];
  const other: S["JsfOtherExchangeReverseFeeExternal"][] = [];
  const others = input.listedOn.filter((e) => e !== input.exchange);
  for (const [i, date] of list.entries()) {
    // Balances are on the basis of the time: they step by the ratio at the ex-rights date.
    for (const e of input.events)
      if (e.exDate === date) {
        loan = math.round(loan * e.ratio);
        stock = math.round(stock * e.ratio);
        loanLevel *= e.ratio;
        stockLevel *= e.ratio;
      }
    // New loans are a share of the reference level, repayments a share of the balance: the balance
    // wanders around its level (expected new = expected repay at balance = level).
    const loanNew = math.round(loanLevel * rng.range(0.01, 0.06));
    const loanRepay = math.min(loan + loanNew, math.round(loan * rng.range(0.01, 0.06)));
    const stockNew = math.round(stockLevel * rng.range(0.01, shorted ? 0.07 : 0.06));
    const stockRepay = math.min(stock + stockNew, math.round(stock * rng.range(0.01, 0.06)));
    const prevLoan = i === 0 ? null : loan;
    const prevStock = i === 0 ? null : stock;
    // Balance of the very first kept day already includes its own flows.
    loan = i === 0 ? loan : loan + loanNew - loanRepay;
    stock = i === 0 ? stock : stock + stockNew - stockRepay;
    const prevPoint = out[out.length - 1];
    out.push({
      date,
      loan_balance: loan,
      stock_loan_balance: stock,
      loan_new: loanNew,
      loan_repay: loanRepay,
      stock_loan_new: stockNew,
      stock_loan_repay: stockRepay,
      net_balance: loan - stock,
      loan_balance_change: prevPoint && prevLoan !== null ? loan - prevPoint.loan_balance : null,
      stock_loan_balance_change:
        prevPoint && prevStock !== null ? stock - prevPoint.stock_loan_balance : null,
      lending_ratio: stock === 0 ? null : round(loan / stock, 2),
    });
    const next = list[i + 1];
    const feeDays = next ? toDayNumber(next) - toDayNumber(date) : 1;
    if (stock > loan && rng.chance(shorted ? 0.45 : 0.2)) {
      const total = rng.pick(FEES) * feeDays;
      reverse.push({
        date,
        fee_per_day: round(total / feeDays, 4),
        fee_days: feeDays,
        fee_total: round(total, 2),
      });
    }
    for (const ex of others) {
      if (rng.chance(shorted ? 0.12 : 0.03)) {
        const total = rng.pick(FEES.slice(0, 5)) * feeDays;
        other.push({
          date,
          fee_per_day: round(total / feeDays, 4),
          fee_days: feeDays,
          fee_total: round(total, 2),
          exchange_code: ex,
        });
      }
    }
  }
  return {
    issued_shares_count: input.shares,
    exchange: input.exchange,
    days: out,
    reverse,
    other_exchange_reverse: other,
  };
}
