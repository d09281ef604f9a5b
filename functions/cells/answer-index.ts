// What FINANCIAL learned of each frozen /financials answer (keyed by its periods array): the row
// each period choice reads, the older window each period steps back to, each item's decimals and
// LTM sums.

import type { FinancialsPeriod } from "../../src/contract";
import {
  ltmAnchor,
  ltmAt,
  ltmFromHalves,
  type LtmAnchor,
  olderWindowAsOf,
  selectPeriod,
  type FinancialPeriodArgs,
  type FiscalPeriodSpec,
  type PeriodEntry,
  type RowPeriodType,
} from "../../src/excel/financial-period";
import { roundToDecimals, sourceDecimals } from "../../src/excel/number-formats";
import { innerMap } from "./interned-args";

/** What one answer has been asked so far (a model reads 60 items of the same few rows). */
interface AnswerIndex {
  /** Per item: the decimals its figures carry. */
  readonly decimals: Map<string, number>;
  /** Per anchor span (LTM from halves), and item. */
  readonly ltm: WeakMap<object, Map<string, LtmResult>>;
  /** Per period choice: where its LTM window ends (any item). */
  readonly windows: WeakMap<FinancialPeriodArgs, LtmAnchor>;
  /** Per cell question that had no value in this answer: its #N/A (a few cells of a model). */
  readonly failures: WeakMap<object, Failure>;
}

/** The error a question gave from one answer, and the company its message names. */
interface Failure {
  readonly subject: string;
  readonly error: Error;
}

/** Each frozen answer's index, by its periods array. */
const indexes = new WeakMap<readonly FinancialsPeriod[], AnswerIndex>();

/**
 * The answer's index, made empty on first use; undefined for an answer that is not frozen (it
 * could change under the key). Its own map, not src/excel/answer-memo.ts's record: a warm cell
 * then reads its row without entering that module (test/functions/warm-path.test.ts).
 */
function indexOf(periods: readonly FinancialsPeriod[]): AnswerIndex | undefined {
  let index = indexes.get(periods);
  if (index !== undefined) return index;
  if (!Object.isFrozen(periods)) return undefined;
  index = {
    decimals: new Map(),
    ltm: new WeakMap(),
    windows: new WeakMap(),
    failures: new WeakMap(),
  };
  indexes.set(periods, index);
  return index;
}

/** A frozen answer's periods. */
type Periods = readonly FinancialsPeriod[];

/**
 * What one question (an interned, frozen period choice or spec) gave in each frozen answer: kept
 * by the question first, then by the answer. A recalculation asks one question of every company
 * in turn (a comparables sheet: item-major), so the question's one table stays in the processor's
 * cache; one table per answer was a chain of cold reads per cell (answer -> its index -> its
 * table), bench profile-warm Model 500.
 */
type ByAnswer<V> = WeakMap<Periods, V>;

/** Per period choice (periodArgsOf: one frozen object per argument triple): its row, null for none. */
const rowsByChoice = new WeakMap<FinancialPeriodArgs, ByAnswer<PeriodEntry | null>>();
/** Per period spec: the `as_of` of the next older window, null when the period is in this one. */
const olderBySpec = new WeakMap<FiscalPeriodSpec, ByAnswer<string | null>>();

/**
 * `question`'s table of `tables`, made on first use, where `periods` may be kept; undefined for a
 * question or an answer that is not frozen (an answer could change under the key; a question not
 * interned is not asked again).
 */
function answersOf<K extends object, V>(
  tables: WeakMap<K, ByAnswer<V>>,
  question: K,
  periods: Periods,
): ByAnswer<V> | undefined {
  if (!Object.isFrozen(periods)) return undefined;
  const known = tables.get(question);
  if (known !== undefined) return known;
  if (!Object.isFrozen(question)) return undefined;
  const made: ByAnswer<V> = new WeakMap();
  tables.set(question, made);
  return made;
}

/**
 * The row a period choice reads (src/excel/period-choice.ts selectPeriod), sorted and chosen once
 * per answer and choice instead of once per cell (bench: the sort was the largest share of warm CPU).
 *
 * @example rowOf(body.periods, periodArgsOf(-1, null, null))
 */
export function rowOf(
  periods: readonly FinancialsPeriod[],
  choice: FinancialPeriodArgs,
): PeriodEntry | undefined {
  const type = choice.type as RowPeriodType;
  const rows = answersOf(rowsByChoice, choice, periods);
  const known = rows?.get(periods);
  if (known !== undefined) return known ?? undefined;
  const row = selectPeriod(periods, type, choice.spec, choice.quarter);
  rows?.set(periods, row ?? null);
  return row;
}

/** olderWindowAsOf (src/excel/financial-period.ts), once per answer and period spec. */
export function olderWindowOf(
  periods: readonly FinancialsPeriod[],
  spec: FiscalPeriodSpec,
  windowYears: number,
): string | undefined {
  // A relative period counts back from the latest row, never into an older window
  // (olderWindowAsOf has no month to step back to): such a cell reads no map for it.
  if (spec.kind === "relative") return undefined;
  const older = answersOf(olderBySpec, spec, periods);
  const known = older?.get(periods);
  if (known !== undefined) return known ?? undefined;
  const asOf = olderWindowAsOf(periods, spec, windowYears);
  older?.set(periods, asOf ?? null);
  return asOf;
}

/**
 * `value` (an LTM sum or an H2 difference of the item's figures) rounded to the decimals the
 * item's figures carry in this answer: a sum of four quarters carries float noise (0.1 + 0.2), the
 * API's figures do not. A whole number is given as it is, without reading the decimals: a sum or
 * difference of whole figures has no noise to round, and rounding a whole number to d >= 0
 * decimals gives it back (up to 2^53 / 10^d; beyond, the rounding itself would add noise). Most
 * such cells are yen, whose figures are whole: reading every figure of the item for its decimals
 * was a reopened model's largest first-time cost per answer.
 *
 * @example roundedToItem(body.periods, "eps", 41.150000000000006) // 41.15
 */
export function roundedToItem(
  periods: readonly FinancialsPeriod[],
  item: string,
  value: number,
): number {
  // No -0 either way (roundToDecimals gives 0 for it).
  if (Number.isInteger(value)) return value === 0 ? 0 : value;
  return roundToDecimals(value, decimalsOf(periods, item));
}

/** The decimals an item's figures carry in this answer, read once per answer and item. */
function decimalsOf(periods: readonly FinancialsPeriod[], item: string): number {
  const index = indexOf(periods);
  const known = index?.decimals.get(item);
  if (known !== undefined) return known;
  const read = sourceDecimals(periods, (p) => (p as unknown as Record<string, unknown>)[item]);
  index?.decimals.set(item, read);
  return read;
}

/** The results ltmAt and ltmFromHalves give (src/excel/period-ltm.ts). */
type LtmResult = ReturnType<typeof ltmAt>;
type RowSpan = NonNullable<Extract<LtmResult, { reason: "incomplete" }>["span"]>;

/**
 * `compute(periods, item, a, b)` once per item of `byItem` (what one answer gave one key object:
 * what makes a and b the same; none, computed every time).
 */
function rememberedLtm<A, B>(
  periods: readonly FinancialsPeriod[],
  byItem: Map<string, LtmResult> | undefined,
  item: string,
  a: A,
  b: B,
  compute: (periods: readonly FinancialsPeriod[], item: string, a: A, b: B) => LtmResult,
): LtmResult {
  if (byItem === undefined) return compute(periods, item, a, b);
  let ltm = byItem.get(item);
  if (ltm === undefined) {
    ltm = compute(periods, item, a, b);
    byItem.set(item, ltm);
  }
  return ltm;
}

/**
 * Per period choice (LTM of quarters): each frozen answer's LTM results by item, kept as
 * rowsByChoice is (one cold read less per LTM cell; alone not measurable beside the bench's noise).
 */
const ltmByChoice = new WeakMap<FinancialPeriodArgs, ByAnswer<Map<string, LtmResult>>>();

/**
 * computeLtm (src/excel/financial-period.ts) once per answer, period choice and item: an LTM cell
 * recalculated reads its four quarters' sum instead of dating and summing them again.
 */
export function ltmOf(
  periods: readonly FinancialsPeriod[],
  choice: FinancialPeriodArgs,
  item: string,
): LtmResult {
  const answers = answersOf(ltmByChoice, choice, periods);
  let byItem = answers?.get(periods);
  if (answers !== undefined && byItem === undefined) {
    byItem = new Map();
    answers.set(periods, byItem);
  }
  return rememberedLtm(periods, byItem, item, choice, undefined, ltmOfItem);
}

/**
 * computeLtm for one item, its window (ltmAnchor: the anchor, the balance row, the four quarters)
 * found once per answer and period choice: a reopened model's first LTM cell of each item dated
 * the same window again (bench: most of computeLtm's time in a Model 500 reopen).
 */
function ltmOfItem(
  periods: readonly FinancialsPeriod[],
  item: string,
  choice: FinancialPeriodArgs,
): LtmResult {
  const index = Object.isFrozen(choice) ? indexOf(periods) : undefined;
  let window = index?.windows.get(choice);
  if (window === undefined) {
    window = ltmAnchor(periods, choice.spec, choice.quarter);
    index?.windows.set(choice, window);
  }
  return ltmAt(window, item);
}

/**
 * ltmFromHalves (src/excel/financial-period.ts) once per answer, anchor span (an LTM result's: the
 * same object each time) and item.
 */
export function ltmFromHalvesOf(
  periods: readonly FinancialsPeriod[],
  item: string,
  anchor: FinancialsPeriod,
  span: RowSpan,
): LtmResult {
  const index = indexOf(periods);
  const byItem = index === undefined ? undefined : innerMap(index.ltm, span);
  return rememberedLtm(periods, byItem, item, anchor, span, ltmFromHalves);
}

/**
 * The error `make` gives for `question` (a frozen, interned argument object) from this answer for
 * `subject` (the company its message names), made once: a cell with no such period is #N/A on
 * every recalculation, and building the error (its stack above all) was most of its cost. Only
 * failures are kept: a value is shaped again each time (one per model cell would stay alive).
 */
export function rememberedFailure(
  periods: readonly FinancialsPeriod[],
  question: object,
  subject: string,
  make: () => Error,
): Error {
  const index = Object.isFrozen(question) ? indexOf(periods) : undefined;
  if (index === undefined) return make();
  const known = index.failures.get(question);
  if (known !== undefined && known.subject === subject) return known.error;
  const error = make();
  index.failures.set(question, { subject, error });
  return error;
}
