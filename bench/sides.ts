// The two sides the benchmark compares, behind one CellEvaluator interface: the add-in's custom
// functions (over the shared client) and the naive baseline.
import * as TYPED from "../functions/index";

/** The wrappers as Excel calls them: any value for any argument (custom-enum types are suggestions). */
const { FINANCIAL, PRICES, VALUATION } = TYPED as unknown as Record<
  "FINANCIAL" | "PRICES" | "VALUATION",
  (...args: unknown[]) => Promise<unknown>
>;
import type { NaiveClient } from "./naive-client";
import { PRICE_FIELDS, VALUATION_FIELDS, type CellEvaluator } from "./workloads";

/** What Excel passes last to a @cancelable function (it sets onCanceled on it). */
function invocation(): CustomFunctions.CancelableInvocation {
  return {} as CustomFunctions.CancelableInvocation;
}

/**
 * The Excel-facing wrappers of functions/index.ts, called as Excel does: omitted optional
 * arguments as null, a range argument as a 2-D array, the invocation last. They read the client
 * from src/session.ts, which the benchmark points at its own client with setClientForTesting.
 */
export const addInSide: CellEvaluator = {
  financial: (code, item, relative) =>
    FINANCIAL(code, item, relative, null, null, null, invocation()),
  valuation: (code) => VALUATION(code, [VALUATION_FIELDS], null, null, null, invocation()),
  prices: (code, from, to) => PRICES(code, from, to, [PRICE_FIELDS], null, null, invocation()),
};

export function naiveSide(naive: NaiveClient): CellEvaluator {
  return {
    financial: (code, item, relative) => naive.financial(code, item, relative),
    valuation: (code) => naive.valuation(code, VALUATION_FIELDS),
    prices: (code, from, to) => naive.prices(code, from, to, PRICE_FIELDS),
  };
}

/**
 * The error text of a cell, or undefined for a value: a cell error (code + message) as the
 * functions throw it, or what `recalculate` recorded for a rejection.
 */
export function cellErrorText(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const v = value as { thrown?: unknown; code?: unknown; message?: unknown };
  if (typeof v.thrown === "string") return v.thrown;
  if (typeof v.code === "string" && typeof v.message === "string" && v.code.startsWith("#")) {
    return `${v.code} ${v.message}`;
  }
  return undefined;
}
