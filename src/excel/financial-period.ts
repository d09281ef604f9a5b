// FINANCIAL's period logic: fiscal_period / quarter / period parsing, row selection and LTM (spec 2.5).

import type { FinancialsPeriod } from "../contract";
import { ArgumentError, cellOf, isOmitted, optionalChoice, requireScalar } from "./args";
import { normalizeText } from "../client/normalize";
import { lastEndedMonth } from "./period-number";
import { ltmKind } from "./ltm-kind";
import { PERIOD_FORMS, periodToken, type PeriodUnit, type Quarter } from "./period-token";
import { BoundedMemo } from "../client/bounded-memo";

export type { Quarter } from "./period-token";

/** Which period the user asked for. */
export type FiscalPeriodSpec =
  | { kind: "relative"; offset: number } // 0 latest, -1 the one before, ...
  | { kind: "month"; month: string } // "YYYY/MM": the period ending that month
  | { kind: "year"; year: number } // the fiscal year ending in that calendar year
  | { kind: "onOrBefore"; month: string }; // an Excel date: the latest period ending on or before

function monthText(year: number, month: number): string {
  return `${year}/${String(month).padStart(2, "0")}`;
}

/** What `fiscal_period` says besides the period: the series or quarter its token implies. */
export interface FiscalPeriodChoice {
  spec: FiscalPeriodSpec;
  /** FY -> annual, FQ / 2024Q2 -> quarterly, FH / 2024H1 -> semiannual, LTM -> LTM. */
  impliedType?: FinancialPeriodType;
  impliedQuarter?: Quarter;
}

/**
 * `fiscal_period` as a period token (period-token.ts): FY0, FY-1, LTM-1, FQ-2, FH0, 2024Q2,
 * 2024H1, 2024/03, 202403, 2024年3月期(第2四半期), 令和6年3月期, FY2024, a year, 0 / -1, or a
 * date meaning the latest period that ended on or before it (a period ends on the last day of its
 * month: DATE(2024,3,15) is before FY2024/03 ends).
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
    case "month": {
      const spec: FiscalPeriodSpec =
        token.kind === "year"
          ? { kind: "year", year: token.year }
          : { kind: "month", month: token.month };
      if (token.quarter === undefined) return { spec };
      return {
        spec,
        impliedType: token.quarter === "H1" ? "semiannual" : "quarterly",
        impliedQuarter: token.quarter,
      };
    }
    case "date":
      return { spec: { kind: "onOrBefore", month: lastEndedMonth(token.iso) } };
  }
}

const UNIT_TYPE: Readonly<Record<PeriodUnit, FinancialPeriodType>> = {
  FY: "annual",
  FQ: "quarterly",
  FH: "semiannual",
  LTM: "LTM",
};

/** The period spec alone (see fiscalPeriodChoice). */
export function fiscalPeriodArg(value: unknown, argument = "fiscal_period"): FiscalPeriodSpec {
  return fiscalPeriodChoice(value, argument).spec;
}

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
  // Every cell of a model row passes the same few primitives: read each triple once (a refused
  // one is not remembered, so its error is rebuilt with the cell's own text).
  const key = primitiveKey(fiscalPeriod, period, quarter);
  if (key === undefined) return readPeriodArgs(fiscalPeriod, period, quarter);
  const known = periodArgsMemo.get(key);
  if (known !== undefined) return known;
  const read = readPeriodArgs(fiscalPeriod, period, quarter);
  Object.freeze(read.spec);
  periodArgsMemo.set(key, Object.freeze(read));
  return read;
}

/** Bound on remembered argument triples (a model uses a few dozen). */
const PERIOD_MEMO_LIMIT = 4096;
const periodArgsMemo = new BoundedMemo<string, FinancialPeriodArgs>(PERIOD_MEMO_LIMIT);

/** A key for primitive arguments (type-tagged: 2024 and "2024" differ), undefined for anything else. */
function primitiveKey(...values: unknown[]): string | undefined {
  let key = "";
  for (const v of values) {
    if (v === null || v === undefined) key += `${String(v)[0]}|`;
    else if (typeof v === "number") {
      if (Object.is(v, -0)) return undefined;
      key += `n${v}|`;
    } else if (typeof v === "string") key += `s${v.length}:${v}|`;
    else if (typeof v === "boolean") key += `b${v}|`;
    else return undefined;
  }
  return key;
}

function readPeriodArgs(
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
          ja: `${implied} または空欄（fiscal_period が ${implied} の期間を指定しています）`,
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
        ja: `${iq} または空欄（fiscal_period が ${iq} を指定しています）`,
      },
      explicitQuarter,
    );
  }
  const q = explicitQuarter ?? iq;
  return { spec: choice.spec, type: resolvePeriodType(requested ?? implied, q), quarter: q };
}

/** `quarter`: Q1..Q4, H1, full_year (also 1-4, FY, 通期). */
export function quarterArg(value: unknown, argument = "quarter"): Quarter | undefined {
  const accepted = {
    en: "Q1, Q2, Q3, Q4, H1 or full_year",
    ja: "Q1、Q2、Q3、Q4、H1、full_year のいずれか",
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
  const q = map[t];
  if (q === undefined) throw new ArgumentError(argument, accepted, v);
  return q;
}

/** FINANCIAL's `period`: the API's three plus LTM. */
export type FinancialPeriodType = "annual" | "quarterly" | "semiannual" | "LTM";

/**
 * Resolves `period` and `quarter` together: a quarter implies its period type when period is
 * omitted (Q1..Q4 -> quarterly, H1 -> semiannual), and a quarter with `annual` is refused.
 */
export function resolvePeriodType(
  period: FinancialPeriodType | undefined,
  quarter: Quarter | undefined,
): FinancialPeriodType {
  if (period === undefined) {
    if (quarter === "H1") return "semiannual";
    if (quarter !== undefined && quarter !== "full_year") return "quarterly";
    return "annual";
  }
  if (period === "LTM" && quarter === "H1") {
    throw new ArgumentError(
      "quarter",
      {
        en: "Q1-Q4 (the quarter the twelve months end with) or full_year with period LTM",
        ja: "period が LTM のときは Q1〜Q4（12か月の最後の四半期）か full_year",
      },
      quarter,
    );
  }
  if (period === "annual" && quarter !== undefined && quarter !== "full_year") {
    throw new ArgumentError(
      "quarter",
      {
        en: "nothing with period annual (use period quarterly or semiannual)",
        ja: "空欄（period が annual のとき。四半期は period を quarterly か semiannual に）",
      },
      quarter,
    );
  }
  if (period === "quarterly" && quarter === "H1") {
    throw new ArgumentError(
      "quarter",
      {
        en: "Q1-Q4 or full_year with period quarterly",
        ja: "period が quarterly のときは Q1〜Q4 か full_year",
      },
      quarter,
    );
  }
  if (
    period === "semiannual" &&
    quarter !== undefined &&
    quarter !== "H1" &&
    quarter !== "full_year"
  ) {
    throw new ArgumentError(
      "quarter",
      {
        en: "H1 or full_year with period semiannual",
        ja: "period が semiannual のときは H1 か full_year",
      },
      quarter,
    );
  }
  return period;
}

const QUARTER_ORDER: Readonly<Record<string, number>> = {
  Q1: 1,
  H1: 2,
  Q2: 2,
  Q3: 3,
  Q4: 4,
  full_year: 5,
};
const SINGLE_QUARTERS = new Set(["Q1", "Q2", "Q3", "Q4"]);

function quarterOf(p: FinancialsPeriod): string {
  return p.quarter ?? "full_year";
}

/** Months since year 0 of a "YYYY/MM" label (for ordering and consecutiveness). */
function monthIndex(fiscalYear: string): number {
  return Number(fiscalYear.slice(0, 4)) * 12 + Number(fiscalYear.slice(5, 7)) - 1;
}

/** End month index of a row: the fiscal year end, minus 3 months per quarter before Q4. */
export function periodEndIndex(p: FinancialsPeriod): number {
  const fyEnd = monthIndex(p.fiscal_year);
  const q = quarterOf(p);
  if (q === "Q1") return fyEnd - 9;
  if (q === "Q2" || q === "H1") return fyEnd - 6;
  if (q === "Q3") return fyEnd - 3;
  return fyEnd;
}

/** Per frozen answer (the client's, shared by every cell of a company): its rows sorted once. */
const sortedOnce = new WeakMap<readonly FinancialsPeriod[], readonly FinancialsPeriod[]>();

/**
 * The rows oldest first (quarters before the full year). Read-only: for a frozen answer the same
 * sorted array serves every cell (a model sorts each answer once, not once per cell).
 */
function sorted(periods: readonly FinancialsPeriod[]): readonly FinancialsPeriod[] {
  if (!Object.isFrozen(periods)) return sortRows(periods);
  let rows = sortedOnce.get(periods);
  if (rows === undefined) {
    rows = Object.freeze(sortRows(periods));
    sortedOnce.set(periods, rows);
  }
  return rows;
}

function sortRows(periods: readonly FinancialsPeriod[]): FinancialsPeriod[] {
  return [...periods].sort(
    (a, b) =>
      a.fiscal_year.localeCompare(b.fiscal_year) ||
      (QUARTER_ORDER[quarterOf(a)] ?? 9) - (QUARTER_ORDER[quarterOf(b)] ?? 9),
  );
}

/**
 * FINANCIALS' rows in the order asked. Quarterly and semiannual answers interleave quarter and
 * full_year rows (spec 4.8); they are shown as two blocks, the quarter (or H1) rows first and the
 * full-year rows after them, so a SUM over the quarter block never double-counts the year.
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
 * The row FINANCIAL reads. Without a quarter: annual rows; for relative offsets on quarterly data
 * the sequence of single quarters (semiannual: H1 and full_year rows in order); for a named year the
 * full_year row. With a quarter: that quarter's rows, offsets moving by fiscal year.
 */
export function selectPeriod(
  periods: readonly FinancialsPeriod[],
  type: Exclude<FinancialPeriodType, "LTM">,
  spec: FiscalPeriodSpec,
  quarter?: Quarter,
): FinancialsPeriod | undefined {
  let rows = sorted(periods);
  if (type !== "annual") {
    if (quarter !== undefined) rows = rows.filter((p) => quarterOf(p) === quarter);
    else if (spec.kind === "relative")
      rows = type === "quarterly" ? rows.filter((p) => SINGLE_QUARTERS.has(quarterOf(p))) : rows;
    else rows = rows.filter((p) => quarterOf(p) === "full_year");
  }
  return pick(rows, spec);
}

function pick(
  rows: readonly FinancialsPeriod[],
  spec: FiscalPeriodSpec,
): FinancialsPeriod | undefined {
  switch (spec.kind) {
    case "relative":
      return rows[rows.length - 1 + spec.offset];
    case "month":
      return rows.filter((p) => p.fiscal_year === spec.month).pop();
    case "year":
      return rows.filter((p) => p.fiscal_year.startsWith(`${spec.year}/`)).pop();
    case "onOrBefore": {
      const limit = monthIndex(spec.month);
      return rows.filter((p) => periodEndIndex(p) <= limit).pop();
    }
  }
}

/**
 * When the asked-for period is older than the fetched window, the `as_of` month of the next older
 * window; otherwise undefined. spec 4.8 rule 1: the latest `years` fiscal years are returned, and an
 * as_of earlier than the oldest returned period goes further back. So:
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
  const target =
    spec.kind === "year" ? `${spec.year}/12` : spec.kind === "relative" ? undefined : spec.month;
  if (target === undefined || monthIndex(target) >= monthIndex(oldest.fiscal_year))
    return undefined;
  const fiscalYears = fiscalYearCount(periods);
  if (fiscalYears < windowYears) return undefined;
  const before = monthIndex(oldest.fiscal_year) - 1;
  return monthText(Math.floor(before / 12), (before % 12) + 1);
}

const yearCounts = new WeakMap<readonly FinancialsPeriod[], number>();

/** Distinct fiscal years of an answer (counted once per frozen answer). */
function fiscalYearCount(periods: readonly FinancialsPeriod[]): number {
  const known = yearCounts.get(periods);
  if (known !== undefined) return known;
  const count = new Set(periods.map((p) => p.fiscal_year)).size;
  if (Object.isFrozen(periods)) yearCounts.set(periods, count);
  return count;
}

const singlesOnce = new WeakMap<
  readonly FinancialsPeriod[],
  Map<string, readonly FinancialsPeriod[]>
>();

/**
 * The single-quarter rows in order (only `quarter`'s when given): per frozen answer made once, as
 * every LTM cell of a company reads the same lists.
 */
function singleQuarters(
  periods: readonly FinancialsPeriod[],
  quarter: string | undefined,
): readonly FinancialsPeriod[] {
  const make = () =>
    sorted(periods).filter((p) =>
      quarter === undefined ? SINGLE_QUARTERS.has(quarterOf(p)) : quarterOf(p) === quarter,
    );
  if (!Object.isFrozen(periods)) return make();
  let lists = singlesOnce.get(periods);
  if (lists === undefined) {
    lists = new Map();
    singlesOnce.set(periods, lists);
  }
  const key = quarter ?? "*";
  let rows = lists.get(key);
  if (rows === undefined) {
    rows = Object.freeze(make());
    lists.set(key, rows);
  }
  return rows;
}

/** Result of an LTM computation. */
export type LtmResult =
  | { ok: true; value: number | null; through: FinancialsPeriod }
  | { ok: false; reason: "no_anchor" }
  | { ok: false; reason: "incomplete"; anchor?: FinancialsPeriod };

/**
 * LTM of `item` from quarterly rows. The window ends at the anchor quarter: the latest single
 * quarter (offset counts quarters), the named quarter of a year, Q4 of a named year, or the latest
 * quarter ending on or before a date. A named quarter (full_year meaning Q4) always picks the
 * anchor among that quarter's rows, so with an offset it moves by fiscal year as in selectPeriod.
 * Flow: the four consecutive single quarters ending there, summed (incomplete when one is missing
 * or null). Stock: the latest full_year balance at or before the anchor (spec 4.8 rule 4:
 * quarterly balance items exist only on full_year rows).
 */
export function computeLtm(
  periods: readonly FinancialsPeriod[],
  item: string,
  spec: FiscalPeriodSpec,
  quarter?: Quarter,
): LtmResult {
  const kind = ltmKind(item);
  const singles = singleQuarters(periods, undefined);
  const anchorQuarter =
    quarter === "full_year"
      ? "Q4"
      : (quarter ?? (spec.kind === "year" || spec.kind === "month" ? "Q4" : undefined));
  const candidates = anchorQuarter === undefined ? singles : singleQuarters(periods, anchorQuarter);
  const anchor = pick(candidates, spec);
  if (anchor === undefined) return { ok: false, reason: "no_anchor" };
  const end = periodEndIndex(anchor);
  const read = (p: FinancialsPeriod): number | null => {
    const v = (p as unknown as Record<string, unknown>)[item];
    return typeof v === "number" ? v : null;
  };
  if (kind === "stock") {
    // The latest full_year row ending at or before the anchor (read from the end: no copies).
    const rows = sorted(periods);
    let balance: FinancialsPeriod | undefined;
    for (let i = rows.length - 1; i >= 0 && balance === undefined; i--) {
      const p = rows[i] as FinancialsPeriod;
      if (quarterOf(p) === "full_year" && periodEndIndex(p) <= end) balance = p;
    }
    if (balance === undefined) return { ok: false, reason: "incomplete" };
    return { ok: true, value: read(balance), through: anchor };
  }
  const at = singles.indexOf(anchor);
  const window = singles.slice(Math.max(0, at - 3), at + 1);
  if (window.length < 4) return { ok: false, reason: "incomplete", anchor };
  for (let i = 1; i < window.length; i++) {
    if (
      periodEndIndex(window[i] as FinancialsPeriod) -
        periodEndIndex(window[i - 1] as FinancialsPeriod) !==
      3
    ) {
      return { ok: false, reason: "incomplete", anchor };
    }
  }
  let sum = 0;
  for (const p of window) {
    const v = read(p);
    if (v === null) return { ok: false, reason: "incomplete", anchor };
    sum += v;
  }
  return { ok: true, value: sum, through: anchor };
}

function readNumber(p: FinancialsPeriod | undefined, item: string): number | null {
  const v = p === undefined ? undefined : (p as unknown as Record<string, unknown>)[item];
  return typeof v === "number" ? v : null;
}

/**
 * LTM of a flow item from half-year figures, for companies whose quarterly rows leave it null
 * (spec 4.8 rule 3: cash flow disclosed only half-yearly is in semiannual, null in quarterly).
 * Ending at Q4: the fiscal year's full_year value. Ending at Q2: H1 + the previous full year - the
 * previous H1. Other anchors (Q1, Q3) cannot be built from halves: incomplete.
 */
export function ltmFromHalves(
  periods: readonly FinancialsPeriod[],
  item: string,
  anchor: FinancialsPeriod,
): LtmResult {
  const incomplete: LtmResult = { ok: false, reason: "incomplete", anchor };
  const row = (fiscalYear: string, quarter: string): FinancialsPeriod | undefined =>
    periods.filter((p) => p.fiscal_year === fiscalYear && quarterOf(p) === quarter).pop();
  const q = quarterOf(anchor);
  if (q === "Q4") {
    const value = readNumber(row(anchor.fiscal_year, "full_year"), item);
    return value === null ? incomplete : { ok: true, value, through: anchor };
  }
  if (q !== "Q2") return incomplete;
  const end = monthIndex(anchor.fiscal_year);
  const previous = sorted(periods)
    .filter((p) => quarterOf(p) === "full_year" && monthIndex(p.fiscal_year) === end - 12)
    .pop();
  if (previous === undefined) return incomplete;
  const parts = [
    readNumber(row(anchor.fiscal_year, "H1"), item),
    readNumber(previous, item),
    readNumber(row(previous.fiscal_year, "H1"), item),
  ];
  if (parts.some((v) => v === null)) return incomplete;
  const [h1, fullYear, previousH1] = parts as [number, number, number];
  return { ok: true, value: h1 + fullYear - previousH1, through: anchor };
}
