// When each /financials row's period starts and ends, read from the answer's own labels (never 12-month arithmetic).

import type { FinancialsPeriod } from "../contract";
import { answerMemo } from "./answer-memo";

/** Months since year 0 of a "YYYY/MM" label: 2024/03 -> 2024 * 12 + 2. */
export function monthIndex(label: string): number {
  return Number(label.slice(0, 4)) * 12 + Number(label.slice(5, 7)) - 1;
}

/** "YYYY/MM" of a month index (the inverse of monthIndex). */
export function monthLabel(index: number): string {
  const year = Math.floor(index / 12);
  return `${year}/${String((index % 12) + 1).padStart(2, "0")}`;
}

/** A row's period as month indexes: its first and its last month (a period ends on a month's last day). */
export interface RowSpan {
  readonly first: number;
  readonly last: number;
  /** Months of the fiscal year the row belongs to (12, or fewer for a transitional year). */
  readonly yearMonths: number;
}

function quarterOf(p: FinancialsPeriod): string {
  return p.quarter ?? "full_year";
}

/**
 * Months from a fiscal year's start to the end of a labelled part (openapi.json quarter): Q1 3,
 * Q2 and H1 6, Q3 9, Q4 12; undefined for the full year (or anything else).
 */
function partMonths(quarter: string | undefined): number | undefined {
  switch (quarter) {
    case "Q1":
      return 3;
    case "Q2":
    case "H1":
      return 6;
    case "Q3":
      return 9;
    case "Q4":
      return 12;
    default:
      return undefined;
  }
}

/** A single quarter (Q1..Q4), not a half or the full year. */
function isSingleQuarter(quarter: string | undefined): boolean {
  return quarter === "Q1" || quarter === "Q2" || quarter === "Q3" || quarter === "Q4";
}

/** A fiscal year of the answer: its first and last month and its length. */
interface FiscalYear {
  readonly first: number;
  readonly end: number;
  readonly months: number;
}

/**
 * Every row's span. openapi.json getFinancials: `fiscal_year` is the fiscal year's end month; a
 * fiscal year starts the month after the previous fiscal year's end, so after a year-end change
 * (December -> March, a 3-month transitional year) its Q1 ends at the new year end, not 9 months
 * before it. Annual rows are always 12 months (getFinancials rule 2: one canonical 12-month period
 * per calendar year, a gap filled by a trailing-12-month figure). Without an earlier fiscal year in
 * the answer a year is taken as 12 months, unless it is complete (full_year row) with fewer single
 * quarters, whose count then gives its length. Made once per answer, the first time a cell of a
 * reopened model dates one of its rows: per row one look-up of its year and no text matching.
 */
function spansOf(periods: readonly FinancialsPeriod[]): Map<FinancialsPeriod, RowSpan> {
  const memo = answerMemo(periods);
  if (memo?.spans !== undefined) return memo.spans as Map<FinancialsPeriod, RowSpan>;
  const annual = !periods.some((p) => p.quarter !== undefined);
  const ends = [...new Set(periods.map((p) => p.fiscal_year))].sort();
  const years = new Map<string, FiscalYear>();
  for (let i = 0; i < ends.length; i++) {
    const label = ends[i] as string;
    const end = monthIndex(label);
    let months = 12;
    if (!annual) {
      const before = i > 0 ? monthIndex(ends[i - 1] as string) : undefined;
      if (before !== undefined && end - before < 12) months = end - before;
      else if (before === undefined) {
        const rows = periods.filter((p) => p.fiscal_year === label);
        const quarters = rows.filter((p) => isSingleQuarter(p.quarter)).length;
        const complete = rows.some((p) => quarterOf(p) === "full_year");
        const halves = rows.some((p) => quarterOf(p) === "H1");
        if (complete && !halves && quarters > 0 && quarters < 4) months = quarters * 3;
      }
    }
    years.set(label, { first: end - months + 1, end, months });
  }
  const spans = new Map<FinancialsPeriod, RowSpan>();
  for (const p of periods) {
    const year = years.get(p.fiscal_year) as FiscalYear;
    const part = partMonths(p.quarter);
    const last = part === undefined ? year.end : year.first + part - 1;
    // A quarter-length part starts 3 months before its end; H1 and the year start with the year.
    const start = isSingleQuarter(p.quarter) ? last - 2 : year.first;
    spans.set(p, Object.freeze({ first: start, last, yearMonths: year.months }));
  }
  if (memo !== undefined) memo.spans = spans;
  return spans;
}

/**
 * A row's span, dated from the answer it came in (`periods` must contain `row`).
 *
 * @example rowSpan(quarterly, q1Of2015_03AfterDecember).last === monthIndex("2015/03")
 */
export function rowSpan(periods: readonly FinancialsPeriod[], row: FinancialsPeriod): RowSpan {
  const span = spansOf(periods).get(row);
  if (span === undefined) throw new Error("rowSpan: the row is not in this answer");
  return span;
}
