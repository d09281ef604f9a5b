// /financials economy: answer any `years` from one years=30 answer (openapi.json getFinancials: one
// count per request).

import type { ResponseOf } from "./types";

type FinancialsBody = ResponseOf<"getFinancials">;

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
