// FINANCIAL's period arguments: fiscal_period / quarter / period read together, FINANCIALS' row layout, older windows.

import type { FinancialsPeriod } from "../contract";
import { ArgumentError, cellOf, isOmitted, optionalChoice, requireScalar } from "./args";
import { normalizeText } from "../util/normalize";
import { lastEndedMonth } from "./period-number";
import { PERIOD_FORMS, periodToken, type PeriodUnit, type Quarter } from "./period-token";
import { monthIndex, monthLabel } from "./period-dates";
import { quarterOf, sortedRows as sorted } from "./period-rows";
import type { FiscalPeriodSpec } from "./period-spec";
import { ownValue } from "./own-key";

export type { Quarter } from "./period-token";
export type { FiscalPeriodSpec } from "./period-spec";
export { selectPeriod, type RowPeriodType } from "./period-choice";
export { isSecondHalf, type PeriodEntry } from "./period-rows";
export { ltmAnchor, ltmAt, ltmFromHalves, secondHalfValue, type LtmAnchor } from "./period-ltm";

/** What `fiscal_period` says besides the period: the series or quarter its token implies. */
export interface FiscalPeriodChoice {
  spec: FiscalPeriodSpec;
  /** FY -> annual, FQ / 2024Q2 -> quarterly, FH / 2024H1 -> semiannual, LTM -> LTM. */
  impliedType?: FinancialPeriodType;
  impliedQuarter?: Quarter;
}

/**
 * `fiscal_period` as a period token (period-token.ts): FY0, FY-1, LTM-1, FQ-2, FH0, 2024Q2,
 * 2024H1, 2024H2, 2024/03, 202403, 2024年3月期(第2四半期), 令和6年3月期, 2024年度, 令和元年度,
 * FY2024, a year, 0 / -1, or a date meaning the latest period that ended on or before it (a
 * period ends on the last day of its month: DATE(2024,3,15) is before FY2024/03 ends).
 *
 * @example fiscalPeriodChoice("FQ-1") // { spec: relative -1, impliedType: "quarterly" }
 */
export function fiscalPeriodChoice(value: unknown, argument = "fiscal_period"): FiscalPeriodChoice {
  const rich = cellOf(value);
  const v = requireScalar(value, argument, PERIOD_FORMS);
  if (isOmitted(v)) return { spec: { kind: "relative", offset: 0 } };
  const token = periodToken(v, rich);
  if (token === undefined) throw new ArgumentError(argument, PERIOD_FORMS, v);
  switch (token.kind) {
    case "relative": {
      const spec: FiscalPeriodSpec = { kind: "relative", offset: token.offset };
      return token.unit === undefined ? { spec } : { spec, impliedType: UNIT_TYPE[token.unit] };
    }
    case "year":
    case "startYear":
    case "month": {
      const spec: FiscalPeriodSpec =
        token.kind === "month"
          ? { kind: "month", month: token.month }
          : { kind: token.kind, year: token.year };
      if (token.quarter === undefined) return { spec };
      return {
        spec,
        impliedType: quarterType(token.quarter),
        impliedQuarter: token.quarter,
      };
    }
    case "date":
      return { spec: { kind: "onOrBefore", month: lastEndedMonth(token.iso), iso: token.iso } };
  }
}

/** The series a named quarter lives in: halves in semiannual, Q1..Q4 in quarterly. */
function quarterType(quarter: Quarter): FinancialPeriodType {
  return quarter === "H1" || quarter === "H2" ? "semiannual" : "quarterly";
}

const UNIT_TYPE: Readonly<Record<PeriodUnit, FinancialPeriodType>> = {
  FY: "annual",
  FQ: "quarterly",
  FH: "semiannual",
  LTM: "LTM",
};

/** FINANCIAL's three period arguments read together. */
export interface FinancialPeriodArgs {
  spec: FiscalPeriodSpec;
  type: FinancialPeriodType;
  quarter: Quarter | undefined;
}

/**
 * `fiscal_period`, `period` and `quarter` together: what the token implies fills an omitted
 * `period` / `quarter`; an explicit one that contradicts it is refused (never silently one of
 * the two). A quarter token with period LTM is the quarter the twelve months end with.
 *
 * @example financialPeriodArgs("2024Q2", null, null) // year 2024, quarterly, Q2
 */
export function financialPeriodArgs(
  fiscalPeriod: unknown,
  period: unknown,
  quarter: unknown,
): FinancialPeriodArgs {
  const choice = fiscalPeriodChoice(fiscalPeriod);
  const explicitQuarter = quarterArg(quarter);
  const requested = optionalChoice<FinancialPeriodType>(
    period,
    "period",
    ["annual", "quarterly", "semiannual", "LTM"],
    { ltm: "LTM" },
  );
  const implied = choice.impliedType;
  if (implied !== undefined && requested !== undefined && requested !== implied) {
    const compatible = requested === "LTM" && implied === "quarterly";
    if (!compatible) {
      throw new ArgumentError(
        "period",
        {
          en: `${implied} or nothing: fiscal_period already names a ${implied} period`,
          ja: `${implied} または空欄（決算期 が ${implied} の期間を指定しています）`,
        },
        requested,
      );
    }
  }
  const iq = choice.impliedQuarter;
  if (iq !== undefined && explicitQuarter !== undefined && explicitQuarter !== iq) {
    throw new ArgumentError(
      "quarter",
      {
        en: `${iq} or nothing: fiscal_period already names ${iq}`,
        ja: `${iq} または空欄（決算期 が ${iq} を指定しています）`,
      },
      explicitQuarter,
    );
  }
  const q = explicitQuarter ?? iq;
  return { spec: choice.spec, type: resolvePeriodType(requested ?? implied, q), quarter: q };
}

/**
 * `quarter`: Q1..Q4, H1, H2, full_year (also 1-4, FY, 通期, 上期, 下期).
 * @internal Tests read quarter texts directly; FINANCIAL reaches it through financialPeriodArgs.
 */
export function quarterArg(value: unknown, argument = "quarter"): Quarter | undefined {
  const accepted = {
    en: "Q1, Q2, Q3, Q4, H1, H2 (full year − H1) or full_year",
    ja: "Q1、Q2、Q3、Q4、H1、H2（通期 − 上期）、full_year のいずれか",
  };
  const v = requireScalar(value, argument, accepted);
  if (isOmitted(v)) return undefined;
  if (typeof v === "number") {
    if (v === 1 || v === 2 || v === 3 || v === 4) return `Q${v}` as Quarter;
    throw new ArgumentError(argument, accepted, v);
  }
  if (typeof v !== "string") throw new ArgumentError(argument, accepted, v);
  const t = (normalizeText(v) ?? "").toLowerCase();
  const map: Record<string, Quarter> = {
    q1: "Q1",
    q2: "Q2",
    q3: "Q3",
    q4: "Q4",
    "1q": "Q1",
    "2q": "Q2",
    "3q": "Q3",
    "4q": "Q4",
    h1: "H1",
    "1h": "H1",
    h2: "H2",
    "2h": "H2",
    下期: "H2",
    下半期: "H2",
    上半期: "H1",
    full_year: "full_year",
    fy: "full_year",
    "full year": "full_year",
    通期: "full_year",
    上期: "H1",
    中間期: "H1",
    第1四半期: "Q1",
    第2四半期: "Q2",
    第3四半期: "Q3",
    第4四半期: "Q4",
  };
  const q = ownValue(map, t);
  if (q === undefined) throw new ArgumentError(argument, accepted, v);
  return q;
}

/** FINANCIAL's `period`: the API's three plus LTM. */
type FinancialPeriodType = "annual" | "quarterly" | "semiannual" | "LTM";

/**
 * Resolves `period` and `quarter` together: a quarter implies its period type when period is
 * omitted (Q1..Q4 -> quarterly, H1 -> semiannual), and a quarter with `annual` is refused.
 * @internal Tests check it directly; FINANCIAL reaches it through financialPeriodArgs.
 */
export function resolvePeriodType(
  period: FinancialPeriodType | undefined,
  quarter: Quarter | undefined,
): FinancialPeriodType {
  if (period === undefined) {
    if (quarter === "H1" || quarter === "H2") return "semiannual";
    if (quarter !== undefined && quarter !== "full_year") return "quarterly";
    return "annual";
  }
  if (period === "LTM" && (quarter === "H1" || quarter === "H2")) {
    throw new ArgumentError(
      "quarter",
      {
        en: "Q1-Q4 (the quarter the twelve months end with) or full_year with period LTM",
        ja: "期間 が LTM のときは Q1〜Q4（12か月の最後の四半期）か full_year",
      },
      quarter,
    );
  }
  if (period === "annual" && quarter !== undefined && quarter !== "full_year") {
    throw new ArgumentError(
      "quarter",
      {
        en: "nothing with period annual (use period quarterly or semiannual)",
        ja: "空欄（期間 が annual のとき。四半期は 期間 を quarterly か semiannual に）",
      },
      quarter,
    );
  }
  if (period === "quarterly" && (quarter === "H1" || quarter === "H2")) {
    throw new ArgumentError(
      "quarter",
      {
        en: "Q1-Q4 or full_year with period quarterly",
        ja: "期間 が quarterly のときは Q1〜Q4 か full_year",
      },
      quarter,
    );
  }
  if (
    period === "semiannual" &&
    quarter !== undefined &&
    quarter !== "H1" &&
    quarter !== "H2" &&
    quarter !== "full_year"
  ) {
    throw new ArgumentError(
      "quarter",
      {
        en: "H1, H2 or full_year with period semiannual",
        ja: "期間 が semiannual のときは H1、H2 か full_year",
      },
      quarter,
    );
  }
  return period;
}

/**
 * FINANCIALS' rows in the order asked. Quarterly and semiannual answers interleave quarter and
 * full_year rows (openapi.json getFinancials); they are shown as two blocks, the quarter (or H1)
 * rows first and the full-year rows after them, so a SUM over the quarter block never double-counts
 * the year.
 *
 * @example statementRows(quarterly, "asc") // 2023/03 Q1..Q4, 2024/03 Q1..Q4, then 2023/03 and 2024/03 full_year
 */
export function statementRows(
  periods: readonly FinancialsPeriod[],
  order: "asc" | "desc",
): FinancialsPeriod[] {
  const inOrder = (rows: FinancialsPeriod[]) => (order === "asc" ? rows : rows.reverse());
  const all = [...sorted(periods)];
  const parts = all.filter((p) => quarterOf(p) !== "full_year");
  if (parts.length === 0) return inOrder(all);
  return [...inOrder(parts), ...inOrder(all.filter((p) => quarterOf(p) === "full_year"))];
}

/**
 * When the asked-for period is older than the fetched window, the `as_of` month of the next older
 * window; otherwise undefined. openapi.json getFinancials: the latest `years` fiscal years are
 * returned, and an as_of earlier than the oldest returned period goes further back. So:
 *
 * - a window holding fewer than `windowYears` fiscal years is the whole history: nothing older
 *   exists and no request is spent looking for it;
 * - the next window is asked for with the month before the oldest returned period, the same for
 *   every older year of a company, so a model with many old-year cells shares one request.
 *
 * @example olderWindowAsOf(thirtyYearsFrom2000_03, { kind: "year", year: 1995 }, 30) // "2000/02"
 */
export function olderWindowAsOf(
  periods: readonly FinancialsPeriod[],
  spec: FiscalPeriodSpec,
  windowYears: number,
): string | undefined {
  const oldest = sorted(periods)[0];
  if (oldest === undefined) return undefined;
  // The latest month the asked-for fiscal year can end in (a 年度 Y year ends by Y+1/11).
  const target =
    spec.kind === "year"
      ? `${spec.year}/12`
      : spec.kind === "startYear"
        ? `${spec.year + 1}/11`
        : spec.kind === "relative"
          ? undefined
          : spec.month;
  if (target === undefined || monthIndex(target) >= monthIndex(oldest.fiscal_year))
    return undefined;
  const fiscalYears = fiscalYearCount(periods);
  if (fiscalYears < windowYears) return undefined;
  return monthLabel(monthIndex(oldest.fiscal_year) - 1);
}

/** Distinct fiscal years of an answer. */
function fiscalYearCount(periods: readonly FinancialsPeriod[]): number {
  return new Set(periods.map((p) => p.fiscal_year)).size;
}
