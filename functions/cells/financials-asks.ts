// The /financials answers table functions read (FINANCIALS' window, the widest series an as_of or
// a 年度 is read among): one frozen query per company and window, peeked and fetched as
// company-resolver.ts companyFinancials asks it.

import type { KaishaClient, ParamsOf } from "../../src/client";
import type { FinancialsResponse } from "../../src/contract";
import type { Company } from "../../src/excel/args";
import type { PeriodArg } from "../../src/excel/fiscal-year-arg";
import { companyFinancials, knownFinancialsAsk } from "../../src/domain/company-resolver";
import { FINANCIALS_FETCH_YEARS } from "../../src/domain/financials-window";
import type { CallContext } from "../run";
import { innerMap } from "./interned-args";

/** A company as typed and the window asked of it (openapi.json getFinancials period, years, as_of). */
export interface FinancialsAsk {
  readonly who: Company;
  readonly params: Readonly<{ period: string; years: number; as_of?: string }>;
}

const asks = new WeakMap<Company, Map<string, FinancialsAsk>>();

/**
 * The one frozen query for a company and window (a company typed as a code: the same object each
 * time; a looked-up name: a new one).
 *
 * @example financialsAsk({ security_code: "7203" }, "annual", 10, undefined).params // { period: "annual", years: 10 }
 */
export function financialsAsk(
  who: Company,
  period: string,
  years: number,
  asOf: string | undefined,
): FinancialsAsk {
  const make = () =>
    Object.freeze({
      who,
      params: Object.freeze({ period, years, ...(asOf !== undefined ? { as_of: asOf } : {}) }),
    });
  if (!Object.isFrozen(who)) return make();
  const byWindow = innerMap(asks, who);
  const key = `${period}|${years}|${asOf ?? ""}`;
  const known = byWindow.get(key);
  if (known !== undefined) return known;
  const made = make();
  byWindow.set(key, made);
  return made;
}

/** The widest window of a series: what an as_of token or a 年度 is read among. */
export function widestAsk(who: Company, arg: PeriodArg): FinancialsAsk {
  return financialsAsk(who, arg.type, FINANCIALS_FETCH_YEARS, undefined);
}

/** The params sent for an ask by the code it is asked by now (frozen: the client keys on it). */
const sent = new WeakMap<FinancialsAsk, ParamsOf<"getFinancials">>();

function paramsOf(ask: FinancialsAsk, by: Company): ParamsOf<"getFinancials"> {
  const known = sent.get(ask) as Record<string, unknown> | undefined;
  if (
    known !== undefined &&
    known["security_code"] === (by as Record<string, unknown>)["security_code"] &&
    known["edinet_code"] === (by as Record<string, unknown>)["edinet_code"]
  )
    return known as ParamsOf<"getFinancials">;
  // As companyFinancials sends it: the code asked first, then the window.
  const made = Object.freeze({ ...by, ...ask.params }) as ParamsOf<"getFinancials">;
  sent.set(ask, made);
  return made;
}

/** The answer when fresh in memory, asked by the code companyFinancials would ask it by now. */
export function peekFinancials(
  client: KaishaClient,
  ask: FinancialsAsk,
): FinancialsResponse | undefined {
  const by = knownFinancialsAsk(client, ask.who);
  return by === undefined ? undefined : client.peek("getFinancials", paramsOf(ask, by));
}

/** The answer through the call (aliases of a company share one answer: companyFinancials). */
export function fetchFinancials(ctx: CallContext, ask: FinancialsAsk): Promise<FinancialsResponse> {
  return companyFinancials(ctx.client, ask.who, ask.params, ctx.options);
}
