// A table function's period argument (FINANCIALS as_of, SEGMENTS fiscal_year, DIVIDENDS from/to) read in FINANCIAL's one period language.

import type { FinancialsPeriod } from "../contract";
import { isOmitted, requireScalar } from "./args";
import { fiscalPeriodChoice } from "./financial-period";
import { selectPeriod, type RowPeriodType } from "./period-choice";
import type { FiscalPeriodSpec } from "./period-spec";
import { PERIOD_FORMS, type Quarter } from "./period-token";

/** A period argument read: which period, along which series, and the quarter or half it names. */
export interface PeriodArg {
  spec: FiscalPeriodSpec;
  type: RowPeriodType;
  quarter: Quarter | undefined;
}

/**
 * Reads a period argument exactly as FINANCIAL's fiscal_period (FY0, FY-1, FQ-2, FH0, LTM, 2024Q2,
 * 2024年3月期, 2024年度, 令和元年度, FY2024, 202403, 2024, a date); undefined when omitted.
 * #VALUE! names `argument` and lists the forms.
 *
 * @example optionalPeriodArg("FY-1", "as_of") // { spec: relative -1, type: "annual" }
 */
export function optionalPeriodArg(value: unknown, argument: string): PeriodArg | undefined {
  const v = requireScalar(value, argument, PERIOD_FORMS);
  if (isOmitted(v)) return undefined;
  const choice = fiscalPeriodChoice(value, argument);
  const implied = choice.impliedType;
  return {
    spec: choice.spec,
    // LTM's quarters are in the quarterly series; no implied series is the annual one.
    type: implied === undefined ? "annual" : implied === "LTM" ? "quarterly" : implied,
    quarter: choice.impliedQuarter,
  };
}

/** The "YYYY/MM" month a plain year, label or date names without the company's periods; else undefined. */
export function monthWithoutAnswer(arg: PeriodArg): string | undefined {
  if (arg.quarter !== undefined || arg.type !== "annual") return undefined;
  switch (arg.spec.kind) {
    case "year":
      return `${arg.spec.year}/12`; // every fiscal year ending in that year
    case "month":
    case "onOrBefore":
      return arg.spec.month;
    default:
      return undefined;
  }
}

/** The calendar year of the fiscal year end a plain year or label names; else undefined. */
export function yearWithoutAnswer(arg: PeriodArg): number | undefined {
  if (arg.quarter !== undefined || arg.type !== "annual") return undefined;
  if (arg.spec.kind === "year") return arg.spec.year;
  if (arg.spec.kind === "month") return Number(arg.spec.month.slice(0, 4));
  return undefined;
}

/**
 * The fiscal-year label ("YYYY/MM") `arg` names among a company's fiscal-year labels (each a
 * 12-month year, as in an annual answer), or undefined.
 *
 * @example fiscalYearAmong(["2023/03", "2024/03"], optionalPeriodArg("FY-1", "x")!) // "2023/03"
 */
export function fiscalYearAmong(labels: readonly string[], arg: PeriodArg): string | undefined {
  const rows = [...new Set(labels)]
    .sort()
    .map((fiscal_year) => ({ fiscal_year }) as unknown as FinancialsPeriod);
  return selectPeriod(rows, "annual", arg.spec)?.fiscal_year;
}

/** The fiscal year (its "YYYY/MM" label) of the period `arg` names in a /financials answer of its type. */
export function fiscalYearIn(
  periods: readonly FinancialsPeriod[],
  arg: PeriodArg,
): string | undefined {
  return selectPeriod(periods, arg.type, arg.spec, arg.quarter)?.fiscal_year;
}
