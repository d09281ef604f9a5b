// The money units a `unit` argument may choose (args.ts MoneyUnit), as a list; a table import offers
// those a number format can show (number-formats.ts FormatMoneyUnit).

import type { MoneyUnit } from "./args";

/** One entry per MoneyUnit (the Record type makes a missing or extra unit a type error). */
const ORDER: Readonly<Record<MoneyUnit, number>> = {
  jpy: 0,
  thousand_jpy: 1,
  million_jpy: 2,
  hundred_million_jpy: 3,
};

/** Every money unit, smallest first (the task pane's unit choice). */
export const MONEY_UNITS = (Object.keys(ORDER) as MoneyUnit[]).sort((a, b) => ORDER[a] - ORDER[b]);

/** Whether `value` is a money unit id. */
export function isMoneyUnit(value: string | undefined): value is MoneyUnit {
  return value !== undefined && Object.hasOwn(ORDER, value);
}
