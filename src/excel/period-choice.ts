// The period a choice lands on in a /financials answer: by offset, label, 年度 or date, over quarters, halves or years.

import type { FinancialsPeriod } from "../contract";
import { monthIndex } from "./period-dates";
import type { FiscalPeriodSpec } from "./period-spec";
import type { Quarter } from "./period-token";
import { datedList, type Dated, type ListName, type PeriodEntry } from "./period-rows";

/** FINANCIAL's period types that read rows (LTM is computed, see period-ltm.ts). */
export type RowPeriodType = "annual" | "quarterly" | "semiannual";

/**
 * The list a choice walks:
 * - annual: the annual rows;
 * - a named quarter (Q1..Q4, H1, H2, full_year): that quarter's entries, so offsets move by fiscal
 *   year and a date finds the latest such quarter ended by then;
 * - quarterly, by offset or date: the single quarters (FQ-2 is two quarters back; a date the latest
 *   quarter ended on or before it);
 * - semiannual, by offset or date: the halves H1, H2, H1, ... (never a 12-month figure);
 * - quarterly or semiannual by year, label or 年度: the fiscal year's full_year row.
 */
function listFor(type: RowPeriodType, spec: FiscalPeriodSpec, quarter?: Quarter): ListName {
  if (type === "annual") return "all";
  if (quarter !== undefined) return quarter;
  if (spec.kind === "relative" || spec.kind === "onOrBefore")
    return type === "quarterly" ? "singles" : "halves";
  return "full_year";
}

/**
 * The entry of `list` that `spec` names, or undefined. A label or year that two fiscal years share
 * (a year-end change) names the later; a 年度 shared by a transitional year and a 12-month one
 * names the 12-month year, else the earlier.
 */
export function pickDated(list: readonly Dated[], spec: FiscalPeriodSpec): Dated | undefined {
  switch (spec.kind) {
    case "relative":
      return list[list.length - 1 + spec.offset];
    case "month":
      return lastWhere(list, (d) => d.fiscalYear === spec.month);
    case "year": {
      const prefix = `${spec.year}/`;
      return lastWhere(list, (d) => d.fiscalYear.startsWith(prefix));
    }
    case "startYear": {
      let best: Dated | undefined;
      for (const d of list) {
        if (Math.floor(d.yearFirst / 12) !== spec.year) continue;
        if (best === undefined) best = d;
        else if (d.fiscalYear === best.fiscalYear)
          best = d; // same year: the later entry
        else if (best.yearMonths !== 12 && d.yearMonths === 12) best = d;
      }
      return best;
    }
    case "onOrBefore": {
      const limit = monthIndex(spec.month);
      return lastWhere(list, (d) => d.end <= limit);
    }
  }
}

function lastWhere(list: readonly Dated[], ok: (d: Dated) => boolean): Dated | undefined {
  for (let i = list.length - 1; i >= 0; i--) {
    const d = list[i] as Dated;
    if (ok(d)) return d;
  }
  return undefined;
}

/**
 * The period FINANCIAL reads: a row of the answer, a derived second half (H2), or undefined.
 *
 * @example selectPeriod(quarterly, "quarterly", { kind: "onOrBefore", month: "2024/06", iso: "2024-07-15" }) // 2025/03 Q1
 */
export function selectPeriod(
  periods: readonly FinancialsPeriod[],
  type: RowPeriodType,
  spec: FiscalPeriodSpec,
  quarter?: Quarter,
): PeriodEntry | undefined {
  return pickDated(datedList(periods, listFor(type, spec, quarter)), spec)?.entry;
}
