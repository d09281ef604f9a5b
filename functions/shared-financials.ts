// The /financials answers FINANCIAL cells wait for: one fetch per company, period type and window,
// shared by every cell that needs it, and one frozen query object per such answer.

import type { FinancialsResponse } from "../src/contract";
import type { Company } from "../src/excel/args";
import { companyFinancials } from "../src/domain/company-resolver";
import { isStale, type KaishaClient } from "../src/client";
import { FINANCIALS_FETCH_YEARS } from "../src/domain/financials-window";
import type { CallContext } from "./run";
import type { ParamsOf } from "../src/client/types";
import { innerMap } from "./cells/interned-args";
import { InFlightRequests, type Flight } from "../src/client/inflight";

/** The period types FINANCIAL fetches (LTM is computed from quarterly rows). */
export type FinancialsPeriodType = "annual" | "quarterly" | "semiannual";

type FinancialsQuery = ParamsOf<"getFinancials">;

/** Query objects by code, period type and older window ("" for the latest window). */
const queries = new Map<string, Map<FinancialsPeriodType, Map<string, FinancialsQuery>>>();
/** A model names a few hundred companies; past this many the map starts over. */
const MAX_QUERY_CODES = 20_000;

/**
 * The /financials query for a company, period type and older window (`asOf`), always the widest
 * window (openapi.json getFinancials: one request answers every year). The same frozen object each
 * time, so the client recognises it without rebuilding its signature (a model asks it for 60 × 10
 * cells).
 *
 * @example financialsQuery({ security_code: "7203" }, "annual", undefined) // { security_code: "7203", period: "annual", years: 30 }
 */
export function financialsQuery(
  who: Company,
  period: FinancialsPeriodType,
  asOf: string | undefined,
): FinancialsQuery {
  const code = codeOf(who);
  // Plain gets, no closures: every warm FINANCIAL cell asks this at least once.
  let byPeriod = queries.get(code);
  if (byPeriod === undefined) {
    if (queries.size >= MAX_QUERY_CODES) queries.clear();
    byPeriod = new Map();
    queries.set(code, byPeriod);
  }
  const byWindow = innerMap(byPeriod, period);
  const window = asOf ?? "";
  const known = byWindow.get(window);
  if (known !== undefined) return known;
  const codes = "security_code" in who ? { security_code: code } : { edinet_code: code };
  const made = Object.freeze({
    ...codes,
    period,
    years: FINANCIALS_FETCH_YEARS,
    ...(asOf !== undefined ? { as_of: asOf } : {}),
  }) as FinancialsQuery;
  byWindow.set(window, made);
  return made;
}

function codeOf(who: Company): string {
  return "security_code" in who ? who.security_code : who.edinet_code;
}

/**
 * One fetch and the cells waiting for it (`settled`: the answer has come or failed, and a cell
 * finding it now reads it at once).
 */
export type SharedFetch = Flight<FinancialsResponse>;

/**
 * The fetches under way, kept findable for one turn after they settle: the cells woken by an
 * answer then find it and read its outcome (a stale copy, an error) instead of asking again.
 */
const fetches = new InFlightRequests({ keepSettledTurn: true });

/** Per cache partition (key-partition.ts): a cell never joins another key's fetch. */
function fetchKey(
  partition: string,
  who: Company,
  period: FinancialsPeriodType,
  asOf: string | undefined,
): string {
  return `${partition}\u0000${codeOf(who)}\u0000${period}\u0000${asOf ?? ""}`;
}

/** The shared fetch under way (or just settled) for this answer, if any. */
export function sharedFetchFor(
  client: KaishaClient,
  who: Company,
  period: FinancialsPeriodType,
  asOf: string | undefined,
): SharedFetch | undefined {
  return fetches.size === 0
    ? undefined
    : fetches.find(fetchKey(client.partition() ?? "", who, period, asOf));
}

/**
 * Counts one more cell waiting for `shared`; Excel's cancel of that cell calls `leaveSharedFetch`
 * (once): the fetch is abandoned when every cell waiting for it was canceled.
 */
export function joinSharedFetch(shared: SharedFetch): void {
  fetches.enter(shared);
}

/** A cell counted by `joinSharedFetch` was canceled. */
export function leaveSharedFetch(shared: SharedFetch): void {
  fetches.release(shared);
}

/**
 * A company's /financials answer for FINANCIAL, fetched once for every cell waiting for it: a
 * cold model has ~90 cells per answer, each of which would otherwise hold its own chain of client
 * calls, cancellation signal and listeners while the pacer spaces the requests (bench: most of
 * the cold run's heap). Cancellation is shared as the client's in-flight requests share it: the
 * fetch is abandoned only when every cell waiting for it was canceled. A settled fetch stays
 * findable until the cells woken by it have asked again (one more microtask turn), so they read
 * its outcome (a stale copy, an error) instead of sending the request again. A value preview reads
 * the cache alone and waits for nobody.
 */
export async function sharedFinancials(
  ctx: CallContext,
  who: Company,
  period: FinancialsPeriodType,
  asOf: string | undefined,
): Promise<FinancialsResponse> {
  const query = financialsQuery(who, period, asOf);
  if (ctx.preview) return companyFinancials(ctx.client, who, query, ctx.options);
  const key = fetchKey(ctx.client.partition() ?? "", who, period, asOf);
  // The first cell's address places the fetch in the pacer's queue (src/client/queue-order.ts).
  const cell = ctx.options.staleSink?.address;
  const shared = fetches.begin(key, (signal) =>
    companyFinancials(ctx.client, who, query, { signal, cell }),
  );
  ctx.onCanceled(fetches.hold(shared));
  const body = await shared.answer;
  // A stale copy (served while the API fails) carries the client's marker: each cell says so.
  const stale = isStale(body);
  if (stale && ctx.options.staleSink !== undefined) ctx.options.staleSink.stale = true;
  // An answer served while it is asked again: this cell is recalculated when it changes.
  ctx.client.revalidation().noteServed(body, ctx.options.staleSink?.address, stale);
  return body;
}
