// /financials economy: ask years=30 once and answer any `years` from it (openapi.json getFinancials: one
// count per request, whatever `years`).

import { OPERATIONS } from "../contract/generated/param-rules";
import type { FinancialsResponse } from "../contract";

// The client applies this rule in its cache key (src/client/client.ts rememberValid), so this module
// imports nothing of src/client/: a client importing the domain would close an import cycle.
type FinancialsBody = FinancialsResponse;
/** A request's validated parameters (src/client/params.ts CleanParams). */
type CleanParams = Record<string, string | number>;

/** openapi.json getFinancials: the widest window the API serves. */
export const FINANCIALS_FETCH_YEARS = 30;

/**
 * The answer the API would give for `years`, cut from its years=30 answer (periods oldest first).
 * annual: the last `years` periods; quarterly/semiannual: the periods of the last `years` distinct
 * fiscal_year values (openapi.json getFinancials: there `years` bounds fiscal years, not rows).
 * Same body shape.
 *
 * @example narrowFinancials(body30, "annual", 5).periods.length // 5 (when 30 were returned)
 */
export function narrowFinancials(
  body: FinancialsBody,
  period: string,
  years: number,
): FinancialsBody {
  const periods = body.periods;
  if (!Array.isArray(periods) || years >= FINANCIALS_FETCH_YEARS) return body;
  let kept: typeof periods;
  if (period === "annual") {
    kept = periods.length > years ? periods.slice(periods.length - years) : periods;
  } else {
    const distinct: string[] = [];
    for (const p of periods) if (!distinct.includes(p.fiscal_year)) distinct.push(p.fiscal_year);
    const wanted = new Set(distinct.slice(Math.max(0, distinct.length - years)));
    kept = periods.filter((p) => wanted.has(p.fiscal_year));
  }
  if (kept === periods) return body;
  return { ...body, periods: kept };
}

/** openapi.json getFinancials `years`: its default when a call names none. */
const FINANCIALS_DEFAULT_YEARS = Number(
  OPERATIONS.getFinancials.params.find((p) => p.name === "years")?.default ?? 10,
);

/** The widest /financials request answering a call, and how to cut the call's answer from it. */
export interface FinancialsWidening {
  fetched: CleanParams;
  period: string;
  years: number;
}

/**
 * openapi.json getFinancials: the widest /financials request answering `clean` (years=30, the
 * period named or "annual"), and the period and years to narrow its answer to.
 *
 * @example financialsWidest({ security_code: "7203", years: 5 }).fetched // { security_code: "7203", period: "annual", years: 30 }
 */
export function financialsWidest(clean: CleanParams): FinancialsWidening {
  const years = typeof clean.years === "number" ? clean.years : FINANCIALS_DEFAULT_YEARS;
  const period = typeof clean.period === "string" ? clean.period : "annual";
  return { fetched: { ...clean, period, years: FINANCIALS_FETCH_YEARS }, period, years };
}
