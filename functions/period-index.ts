// FINANCIAL's row choice remembered per answer: the 60 items of one period read one row, chosen once.

import type { FinancialsPeriod } from "../src/contract";
import {
  selectPeriod,
  type FinancialPeriodType,
  type FiscalPeriodSpec,
  type Quarter,
} from "../src/excel/financial-period";

type Choices = Map<string, FinancialsPeriod | undefined>;

/** Per answer (its frozen periods array, shared by every cell of the company): spec -> row. */
const chosen = new WeakMap<readonly FinancialsPeriod[], Choices>();

function specKey(type: string, spec: FiscalPeriodSpec, quarter: Quarter | undefined): string {
  const which =
    spec.kind === "relative" ? spec.offset : spec.kind === "year" ? spec.year : spec.month;
  return `${type}|${quarter ?? ""}|${spec.kind}|${which}`;
}

/**
 * `selectPeriod`, sorted and filtered once per answer and period spec instead of once per cell: a
 * model reads 60 items of the same row (bench: the sort was the largest share of warm CPU).
 *
 * @example selectPeriodOnce(body.periods, "annual", { kind: "relative", offset: -1 }, undefined)
 */
export function selectPeriodOnce(
  periods: readonly FinancialsPeriod[],
  type: Exclude<FinancialPeriodType, "LTM">,
  spec: FiscalPeriodSpec,
  quarter: Quarter | undefined,
): FinancialsPeriod | undefined {
  // Only frozen answers (the client's) are safe to remember: they cannot change under the key.
  if (!Object.isFrozen(periods)) return selectPeriod(periods, type, spec, quarter);
  let choices = chosen.get(periods);
  if (choices === undefined) {
    choices = new Map();
    chosen.set(periods, choices);
  }
  const key = specKey(type, spec, quarter);
  if (choices.has(key)) return choices.get(key);
  const row = selectPeriod(periods, type, spec, quarter);
  choices.set(key, row);
  return row;
}
