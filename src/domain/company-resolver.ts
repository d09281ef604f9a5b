// Company arguments resolved to API identifiers: names through /securities?q= (cached), EDINET and security codes joined.

import type { KaishaClient, ParamsOf, RequestOptions } from "../client";
import type { FinancialsResponse } from "../contract";
import { ArgumentError, type Company } from "../excel/args";
import { widestFinancials } from "./financials-window";
import type { CompanyRef } from "../excel/company-ref";

/** A parsed company argument -> a code the API takes (a name costs one cached look-up). */
export async function resolveCompany(
  client: KaishaClient,
  ref: CompanyRef,
  options: RequestOptions,
  argument = "company",
): Promise<Company> {
  if (!("name" in ref)) return ref;
  // The look-up's code comes with the send chunk (a name always costs a request or a cache read):
  // it stays off the runtime page (test/e2e/build.test.ts).
  const { securityByName } = await import(/* webpackChunkName: "send" */ "./company-names");
  const item = await securityByName(client, ref.name, options, argument);
  return { security_code: item.code };
}

/**
 * A company -> its security code, for endpoints keyed by security code (PRICES, VALUATION, ...):
 * an EDINET code through a learned pair, else the organization's single listed code (one cached
 * request, openapi.json Organization listed_security_codes).
 */
export async function resolveSecurityCode(
  client: KaishaClient,
  ref: CompanyRef,
  options: RequestOptions,
  argument = "company",
): Promise<string> {
  const who = await resolveCompany(client, ref, options, argument);
  if ("security_code" in who) return who.security_code;
  const known = client.knownCode("security_code", who.edinet_code);
  if (known !== undefined) return known;
  const org = await client.organization({ edinet_code: who.edinet_code }, options);
  const codes = org.listed_security_codes;
  if (codes.length !== 1 || codes[0] === undefined) {
    throw new ArgumentError(
      argument,
      {
        en:
          codes.length === 0
            ? "a listed company (this EDINET code has no listed security)"
            : `one security code: this company lists ${codes.join(", ")}`,
        ja:
          codes.length === 0
            ? "上場会社（この EDINET コードには上場証券がありません）"
            : `証券コード（この会社の上場コード: ${codes.join("、")}）`,
      },
      who.edinet_code,
    );
  }
  // The client's code registry learned the pair from this answer (code-map.ts codePairsIn).
  return codes[0];
}

/** The params already name exactly `ask` (FINANCIAL's usual call): usable as they are, no copies. */
function asksOnly(params: Record<string, unknown>, ask: Company): boolean {
  return "security_code" in ask
    ? params["security_code"] === ask.security_code && params["edinet_code"] === undefined
    : params["edinet_code"] === ask.edinet_code && params["security_code"] === undefined;
}

function withoutCodes(params: Record<string, unknown>): Record<string, unknown> {
  const { edinet_code: _e, security_code: _s, ...rest } = params;
  return rest;
}

/**
 * The code `companyFinancials` asks /financials by, when it is known now without waiting: the
 * company itself, or an EDINET code's learned security code; undefined while answers that may
 * teach the pair are still in flight.
 */
export function knownFinancialsAsk(client: KaishaClient, who: Company): Company | undefined {
  if (!("edinet_code" in who)) return who;
  const security = client.knownCode("security_code", who.edinet_code);
  if (security !== undefined) return { security_code: security };
  // /financials calls asked by security code and not yet answered each will teach the client's
  // code registry a pair (openapi.json getFinancials: the answer names the edinet_code): a cell
  // asking by EDINET code waits for them (the client's sharing layer watches them).
  return client.flights().watching() ? undefined : who;
}

/**
 * /financials for a company, asked so that aliases share one answer: an EDINET code whose security
 * code is known (or becomes known when the /financials calls now in flight answer, openapi.json
 * getFinancials: the answer names the edinet_code) is asked by that security code, so 7203, "7203",
 * 72030 and E02144 in four cells cost one request.
 */
export async function companyFinancials(
  client: KaishaClient,
  who: Company,
  params: Record<string, unknown>,
  options: RequestOptions,
): Promise<FinancialsResponse> {
  const flights = client.flights();
  let ask: Company = who;
  if ("edinet_code" in who) {
    let security = client.knownCode("security_code", who.edinet_code);
    if (security === undefined && flights.watching()) {
      await flights.settled();
      security = client.knownCode("security_code", who.edinet_code);
    }
    if (security !== undefined) ask = { security_code: security };
  }
  // The caller's params may carry the code it was given: the code asked is `ask` alone, first (as
  // functions/cells/interned-args.ts financialsQuery orders its queries, so both are the same arguments to the client).
  const query = (
    asksOnly(params, ask) ? params : { ...ask, ...withoutCodes(params) }
  ) as ParamsOf<"getFinancials">;
  const work = widestFinancials(client, query, options);
  // A security code belongs to one company (one EDINET code): once its pair is learned, the
  // model's other cells of that company add no watcher (a promise pair per cell, warm CPU).
  // The pair is learned from the answer itself (widestFinancials); only its arrival is watched here.
  if ("security_code" in ask && client.knownCode("edinet_code", ask.security_code) === undefined)
    flights.watch(ask.security_code, work);
  return work;
}
