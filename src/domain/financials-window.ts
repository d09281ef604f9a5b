// /financials economy: ask years=30 once and answer any `years` from it (openapi.json getFinancials: one
// count per request, whatever `years`): a rule over the client's public interface, which caches
// the one request it is given.

import { OPERATIONS } from "../contract/generated/param-rules";
import type { FinancialsResponse } from "../contract";
import {
  markStale,
  staleInfo,
  validateParams,
  type KaishaClient,
  type ParamsOf,
  type RequestOptions,
} from "../client";

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
interface FinancialsWidening {
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
function financialsWidest(clean: CleanParams): FinancialsWidening {
  const years = typeof clean.years === "number" ? clean.years : FINANCIALS_DEFAULT_YEARS;
  const period = typeof clean.period === "string" ? clean.period : "annual";
  return { fetched: { ...clean, period, years: FINANCIALS_FETCH_YEARS }, period, years };
}

/** What the widening reads of the client (the pane's test doubles have no clock). */
type FinancialsClient = Pick<KaishaClient, "request" | "learnCode"> &
  Partial<Pick<KaishaClient, "now">>;

/**
 * /financials for `params` as the API would answer them, from the widest request (years=30, the
 * period named or "annual"; `financialsWidest`): every window of a company's period type is one
 * request and one stored answer. Invalid arguments are refused before anything is asked
 * (validate.ts); an answer served stale stays marked after the cut. The pair of codes the answer
 * names is taught to the client (code-map.ts), from a stored answer too.
 *
 * @example (await widestFinancials(client, { security_code: "7203", years: 5 })).periods.length // 5
 */
export async function widestFinancials(
  client: FinancialsClient,
  params: ParamsOf<"getFinancials">,
  options: RequestOptions = {},
): Promise<FinancialsBody> {
  // Already the widest request (every cell's: functions/cells/interned-args.ts financialsQuery):
  // asked as given, so the client knows the very object the cells peek with.
  if (params.years === FINANCIALS_FETCH_YEARS && typeof params.period === "string")
    return learned(client, params, await client.request("getFinancials", params, options));
  const clock = client.now?.bind(client);
  const clean = validateParams(
    "getFinancials",
    params as Readonly<Record<string, unknown>>,
    clock === undefined ? {} : { now: clock },
  );
  const { fetched, period, years } = financialsWidest(clean);
  const asked = fetched as ParamsOf<"getFinancials">;
  const wide = learned(client, asked, await client.request("getFinancials", asked, options));
  const narrow = narrowFinancials(wide, period, years);
  const stale = staleInfo(wide);
  return stale !== undefined && narrow !== wide ? markStale(narrow, stale) : narrow;
}

/**
 * openapi.json getFinancials: a security code is resolved to the corporation, named in the answer;
 * the client learns the pair (code-map.ts) whether the answer was sent or stored.
 */
function learned(
  client: FinancialsClient,
  asked: ParamsOf<"getFinancials">,
  body: FinancialsBody,
): FinancialsBody {
  const security: unknown = asked.security_code;
  if (typeof security === "string" && typeof body.edinet_code === "string")
    client.learnCode(security, body.edinet_code);
  return body;
}
