// A /financials answer's rows in time order, and the lists a period argument walks: single quarters, halves, year ends.

import type { FinancialsPeriod } from "../contract";
import { answerMemo } from "./answer-memo";
import { monthIndex, rowSpan } from "./period-dates";
import { ownValue } from "./own-key";

/** openapi.json FinancialsPeriod.quarter; an annual row has none (the whole fiscal year). */
export function quarterOf(p: FinancialsPeriod): string {
  return p.quarter ?? "full_year";
}

const QUARTER_ORDER: Readonly<Record<string, number>> = {
  Q1: 1,
  H1: 2,
  Q2: 2,
  Q3: 3,
  Q4: 4,
  full_year: 5,
};
const SINGLE_QUARTERS: ReadonlySet<string> = new Set(["Q1", "Q2", "Q3", "Q4"]);

/**
 * The rows oldest first (quarters before the full year). Read-only: for a frozen answer the same
 * sorted array serves every cell (a model sorts each answer once, not once per cell).
 */
export function sortedRows(periods: readonly FinancialsPeriod[]): readonly FinancialsPeriod[] {
  const memo = answerMemo(periods);
  if (memo === undefined) return sortRows(periods);
  return (memo.sorted ??= Object.freeze(sortRows(periods)));
}

function sortRows(periods: readonly FinancialsPeriod[]): FinancialsPeriod[] {
  return [...periods].sort(
    (a, b) =>
      a.fiscal_year.localeCompare(b.fiscal_year) ||
      (ownValue(QUARTER_ORDER, quarterOf(a)) ?? 9) - (ownValue(QUARTER_ORDER, quarterOf(b)) ?? 9),
  );
}

/**
 * The second half of a fiscal year, which the API does not send (openapi.json getFinancials
 * semiannual: H1 + full_year): full_year − H1 for flows, the full_year balance for stocks.
 * `h1` is undefined when the year's H1 was not disclosed (then it cannot be derived).
 */
export interface SecondHalf {
  readonly quarter: "H2";
  readonly fiscal_year: string;
  readonly fullYear: FinancialsPeriod;
  readonly h1: FinancialsPeriod | undefined;
}

/** A period a choice can land on: a row of the answer or a derived second half. */
export type PeriodEntry = FinancialsPeriod | SecondHalf;

export function isSecondHalf(entry: PeriodEntry): entry is SecondHalf {
  return "fullYear" in entry;
}

/** An entry with its dates (month indexes), in a list ordered by end. */
export interface Dated {
  readonly entry: PeriodEntry;
  readonly fiscalYear: string;
  /** Last month of the entry's period. */
  readonly end: number;
  /** First month of the fiscal year it belongs to, and that year's length in months. */
  readonly yearFirst: number;
  readonly yearMonths: number;
}

function dated(periods: readonly FinancialsPeriod[], row: FinancialsPeriod): Dated {
  const span = rowSpan(periods, row);
  return Object.freeze({
    entry: row,
    fiscalYear: row.fiscal_year,
    end: span.last,
    yearFirst: monthIndex(row.fiscal_year) - span.yearMonths + 1,
    yearMonths: span.yearMonths,
  });
}

/** The lists a choice walks, by name. */
export type ListName =
  | "all" // every row (annual answers)
  | "singles" // single quarters Q1..Q4
  | "Q1"
  | "Q2"
  | "Q3"
  | "Q4"
  | "H1"
  | "full_year"
  | "yearEnds" // each fiscal year's last single quarter (the one ending at the year end)
  | "halves" // H1 and H2 of each 12-month fiscal year, in time order
  | "H2";

/**
 * One of the lists, oldest first, made once per frozen answer (every cell of a company walks the
 * same lists). Dates come from the answer's own labels (period-dates.ts).
 *
 * @example datedList(semiannual, "halves") // 2024/03 H1, 2024/03 H2, 2025/03 H1, ...
 */
export function datedList(periods: readonly FinancialsPeriod[], name: ListName): readonly Dated[] {
  const memo = answerMemo(periods);
  if (memo === undefined) return makeList(periods, name);
  const lists = (memo.lists ??= new Map()) as Map<ListName, readonly Dated[]>;
  let list = lists.get(name);
  if (list === undefined) {
    list = Object.freeze(makeList(periods, name));
    lists.set(name, list);
  }
  return list;
}

function makeList(periods: readonly FinancialsPeriod[], name: ListName): Dated[] {
  // Every other list is a part of "all": its rows dated once per answer, not once per list.
  if (name === "all") return sortedRows(periods).map((p) => dated(periods, p));
  const all = datedList(periods, "all");
  switch (name) {
    case "singles":
      return all.filter((d) => SINGLE_QUARTERS.has(quarterOf(d.entry as FinancialsPeriod)));
    case "yearEnds":
      return all.filter(
        (d) =>
          SINGLE_QUARTERS.has(quarterOf(d.entry as FinancialsPeriod)) &&
          d.end === monthIndex(d.fiscalYear),
      );
    case "halves":
    case "H2":
      return halves(periods, all, name === "H2");
    default:
      return all.filter((d) => quarterOf(d.entry as FinancialsPeriod) === name);
  }
}

/**
 * H1 and H2 of every 12-month fiscal year (a transitional year is no half of anything): H1 when
 * its row exists, H2 when the full year's does, dated H1 at the year's sixth month, H2 at its end.
 */
function halves(
  periods: readonly FinancialsPeriod[],
  all: readonly Dated[],
  onlyH2: boolean,
): Dated[] {
  const out: Dated[] = [];
  // Each fiscal year's H1 row (the first, as a search from the start finds it).
  const firstHalves = new Map<string, FinancialsPeriod>();
  for (const p of periods)
    if (quarterOf(p) === "H1" && !firstHalves.has(p.fiscal_year)) firstHalves.set(p.fiscal_year, p);
  for (const d of all) {
    const row = d.entry as FinancialsPeriod;
    if (d.yearMonths !== 12) continue;
    const q = quarterOf(row);
    if (q === "H1" && !onlyH2) out.push(d);
    if (q !== "full_year") continue;
    const h1 = firstHalves.get(row.fiscal_year);
    const second: SecondHalf = Object.freeze({
      quarter: "H2",
      fiscal_year: row.fiscal_year,
      fullYear: row,
      h1,
    });
    out.push(Object.freeze({ ...d, entry: second }));
  }
  return out;
}
