// FINANCIAL's period choice remembered per answer: the 60 items of one period read one row (or H2), chosen once.

import type { FinancialsPeriod } from "../src/contract";
import {
  selectPeriod,
  type FinancialPeriodArgs,
  type PeriodEntry,
  type RowPeriodType,
} from "../src/excel/financial-period";
import { entryOf } from "../src/client/bounded-memo";

/** A choice that found no row (WeakMap values cannot be undefined and still be told from "not yet"). */
const NO_ROW = null;

/**
 * Per answer (its frozen periods array, shared by every cell of the company), per period choice
 * (financialPeriodArgs returns one frozen object per argument triple): the row. Keyed by those
 * objects themselves, so a cell builds no key string.
 */
const chosen = new WeakMap<
  readonly FinancialsPeriod[],
  WeakMap<FinancialPeriodArgs, PeriodEntry | typeof NO_ROW>
>();

/**
 * `selectPeriod`, sorted and filtered once per answer and period choice instead of once per cell:
 * a model reads 60 items of the same row (bench: the sort was the largest share of warm CPU).
 *
 * @example selectPeriodOnce(body.periods, financialPeriodArgs(-1, null, null))
 */
export function selectPeriodOnce(
  periods: readonly FinancialsPeriod[],
  choice: FinancialPeriodArgs,
): PeriodEntry | undefined {
  const type = choice.type as RowPeriodType;
  // Only frozen answers (the client's) and choices (the memo's) cannot change under the key.
  if (!Object.isFrozen(periods) || !Object.isFrozen(choice))
    return selectPeriod(periods, type, choice.spec, choice.quarter);
  const choices = entryOf(chosen, periods, () => new WeakMap());
  const known = choices.get(choice);
  if (known !== undefined) return known ?? undefined;
  const row = selectPeriod(periods, type, choice.spec, choice.quarter);
  choices.set(choice, row ?? NO_ROW);
  return row;
}
