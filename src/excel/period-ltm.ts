// LTM (last twelve months) and H2 (second half) figures built from a /financials answer's quarters and halves.

import type { FinancialsPeriod } from "../contract";
import { ltmKind } from "./ltm-kind";
import { monthIndex, rowSpan, type RowSpan } from "./period-dates";
import { pickDated } from "./period-choice";
import type { FiscalPeriodSpec } from "./period-spec";
import type { Quarter } from "./period-token";
import { datedList, quarterOf, sortedRows, type ListName, type SecondHalf } from "./period-rows";

function read(p: FinancialsPeriod | undefined, item: string): number | null {
  const v = p === undefined ? undefined : (p as unknown as Record<string, unknown>)[item];
  return typeof v === "number" ? v : null;
}

/** An H2 figure: a value (null when an input is undisclosed) or why there is none. */
export type HalfResult =
  { ok: true; value: number | null } | { ok: false; reason: "no_h1" | "not_additive" };

/**
 * `item` for the second half: flows are full_year − H1 of the same fiscal year (both disclosed, or
 * null); stocks are the balance at the half's end, the full_year row's; ratios and other items
 * have no half figure of their own.
 */
export function secondHalfValue(half: SecondHalf, item: string): HalfResult {
  const kind = ltmKind(item);
  if (kind === "stock") return { ok: true, value: read(half.fullYear, item) };
  if (kind === undefined) return { ok: false, reason: "not_additive" };
  if (half.h1 === undefined) return { ok: false, reason: "no_h1" };
  const full = read(half.fullYear, item);
  const first = read(half.h1, item);
  return { ok: true, value: full === null || first === null ? null : full - first };
}

/** Result of an LTM computation; `span` dates the anchor quarter in its own answer. */
export type LtmResult =
  | { ok: true; value: number | null; through: FinancialsPeriod }
  | { ok: false; reason: "no_anchor" }
  | { ok: false; reason: "incomplete"; anchor?: FinancialsPeriod; span?: RowSpan };

/** The quarter list LTM's anchor is picked from. */
function anchorList(spec: FiscalPeriodSpec, quarter: Quarter | undefined): ListName {
  // A fiscal year named (a year, label or 年度, or full_year): its last quarter, whatever its
  // number (a 3-month transitional year ends with its Q1).
  if (quarter === "full_year") return "yearEnds";
  if (quarter !== undefined) return quarter;
  return spec.kind === "relative" || spec.kind === "onOrBefore" ? "singles" : "yearEnds";
}

/**
 * Where an LTM window ends in one answer, whatever the item: the anchor quarter and its span, the
 * latest full_year row at or before it (a stock's balance), and the four single quarters ending
 * there when they are consecutive (a flow's sum), or undefined. Found once per answer and period
 * choice (functions/cells/answer-index.ts): a model reads many items of the same window.
 */
export type LtmAnchor =
  | { ok: false; reason: "no_anchor" }
  | {
      ok: true;
      anchor: FinancialsPeriod;
      span: RowSpan;
      /** The latest full_year row ending at or before the anchor; undefined when none. */
      balance: FinancialsPeriod | undefined;
      /** The four single quarters ending at the anchor, oldest first; undefined when not four in a row. */
      quarters: readonly FinancialsPeriod[] | undefined;
    };

/**
 * The window an LTM ends at (see computeLtm): the latest single quarter (offset counts quarters),
 * the named quarter of a year, a named fiscal year's last quarter, or the latest quarter ending on
 * or before a date. A named quarter picks the anchor among that quarter's rows, so with an offset
 * it moves by fiscal year.
 */
export function ltmAnchor(
  periods: readonly FinancialsPeriod[],
  spec: FiscalPeriodSpec,
  quarter?: Quarter,
): LtmAnchor {
  const anchorDated = pickDated(datedList(periods, anchorList(spec, quarter)), spec);
  if (anchorDated === undefined) return { ok: false, reason: "no_anchor" };
  const anchor = anchorDated.entry as FinancialsPeriod;
  const span = rowSpan(periods, anchor);
  const end = span.last;
  // The latest full_year row ending at or before the anchor (read from the end: no copies).
  let balance: FinancialsPeriod | undefined;
  const rows = sortedRows(periods);
  for (let i = rows.length - 1; i >= 0 && balance === undefined; i--) {
    const p = rows[i] as FinancialsPeriod;
    if (quarterOf(p) === "full_year" && rowSpan(periods, p).last <= end) balance = p;
  }
  // The four single quarters ending at the anchor, consecutive by their own dates (across a
  // fiscal-year-end change too).
  const singles = datedList(periods, "singles");
  let at = -1;
  for (let i = singles.length - 1; i >= 0 && at < 0; i--) if (singles[i]?.entry === anchor) at = i;
  let quarters: FinancialsPeriod[] | undefined;
  if (at >= 3) {
    quarters = [];
    for (let i = at - 3; i <= at; i++) {
      const d = singles[i];
      if (d === undefined || (i > at - 3 && d.end - (singles[i - 1]?.end ?? 0) !== 3)) {
        quarters = undefined;
        break;
      }
      quarters.push(d.entry as FinancialsPeriod);
    }
  }
  return { ok: true, anchor, span, balance, quarters };
}

/**
 * LTM of `item` at a window found by ltmAnchor. Flow: the four single quarters summed, oldest
 * first (incomplete when they are not four in a row, or one is null). Stock: the balance of the
 * latest full_year row at or before the anchor (openapi.json getFinancials: quarterly balance
 * items are on full_year rows).
 */
export function ltmAt(window: LtmAnchor, item: string): LtmResult {
  if (!window.ok) return window;
  const { anchor, span } = window;
  if (ltmKind(item) === "stock") {
    if (window.balance === undefined) return { ok: false, reason: "incomplete" };
    return { ok: true, value: read(window.balance, item), through: anchor };
  }
  if (window.quarters === undefined) return { ok: false, reason: "incomplete", anchor, span };
  let sum = 0;
  for (const q of window.quarters) {
    const v = read(q, item);
    if (v === null) return { ok: false, reason: "incomplete", anchor, span };
    sum += v;
  }
  return { ok: true, value: sum, through: anchor };
}

/**
 * LTM of `item` from quarterly rows: ltmAt of ltmAnchor. The window ends at the anchor quarter
 * (ltmAnchor); a flow sums the four single quarters ending there, a stock reads the latest
 * full_year balance at or before it (ltmAt).
 *
 * @internal the rule in one call, as the period tests and the oracle check it; the add-in keeps the
 * window per answer and choice (functions/cells/answer-index.ts ltmOf)
 */
export function computeLtm(
  periods: readonly FinancialsPeriod[],
  item: string,
  spec: FiscalPeriodSpec,
  quarter?: Quarter,
): LtmResult {
  return ltmAt(ltmAnchor(periods, spec, quarter), item);
}

/**
 * LTM of a flow item from half-year figures, for companies whose quarterly rows leave it null
 * (openapi.json getFinancials rule 3: cash flow disclosed only half-yearly is in semiannual, null in
 * quarterly). `span` dates the anchor quarter (from the quarterly answer). Ending at a 12-month
 * year's end: that year's full_year value. Ending at its sixth month: H1 + the previous 12-month
 * full year − the previous H1. Other anchors cannot be built from halves: incomplete.
 */
export function ltmFromHalves(
  periods: readonly FinancialsPeriod[],
  item: string,
  anchor: FinancialsPeriod,
  span: RowSpan,
): LtmResult {
  const incomplete: LtmResult = { ok: false, reason: "incomplete", anchor, span };
  if (span.yearMonths !== 12) return incomplete;
  const row = (fiscalYear: string, quarter: string): FinancialsPeriod | undefined =>
    periods.find((p) => p.fiscal_year === fiscalYear && quarterOf(p) === quarter);
  const yearEnd = monthIndex(anchor.fiscal_year);
  if (span.last === yearEnd) {
    const value = read(row(anchor.fiscal_year, "full_year"), item);
    return value === null ? incomplete : { ok: true, value, through: anchor };
  }
  if (span.last !== yearEnd - 6) return incomplete;
  const previous = periods.find(
    (p) => quarterOf(p) === "full_year" && monthIndex(p.fiscal_year) === yearEnd - 12,
  );
  // Its second half must be the six months before the anchor's year: a transitional year (after
  // a year-end change) is shorter, and full year − H1 would be fewer months.
  if (previous === undefined || rowSpan(periods, previous).yearMonths !== 12) return incomplete;
  const parts = [
    read(row(anchor.fiscal_year, "H1"), item),
    read(previous, item),
    read(row(previous.fiscal_year, "H1"), item),
  ];
  if (parts.some((v) => v === null)) return incomplete;
  const [h1, fullYear, previousH1] = parts as [number, number, number];
  return { ok: true, value: h1 + fullYear - previousH1, through: anchor };
}
