// The /financials answers table functions read (FINANCIALS' window, the widest series an as_of or
// a 年度 is read among), peeked and fetched as company-resolver.ts companyFinancials asks them; the
// asks themselves are interned in interned-args.ts (financialsAsk).

import type { KaishaClient } from "../../src/client";
import type { FinancialsResponse } from "../../src/contract";
import type { Company } from "../../src/excel/args";
import type { PeriodArg } from "../../src/excel/fiscal-year-arg";
import { companyFinancials, knownFinancialsAsk } from "../../src/domain/company-resolver";
import type { CallContext } from "../run";
import {
  financialsAsk,
  financialsQuery,
  type FinancialsAsk,
  type FinancialsPeriodType,
} from "./interned-args";

export type { FinancialsAsk } from "./interned-args";

/** The widest window of a series: what an as_of token or a 年度 is read among. */
export function widestAsk(who: Company, arg: PeriodArg): FinancialsAsk {
  return financialsAsk(who, arg.type, undefined);
}

/** The answer when fresh in memory, asked by the code companyFinancials would ask it by now. */
export function peekFinancials(
  client: KaishaClient,
  ask: FinancialsAsk,
): FinancialsResponse | undefined {
  const by = knownFinancialsAsk(client, ask.who);
  if (by === undefined) return undefined;
  // As companyFinancials sends it: the code asked by now, then the window (one interned object).
  const { period, as_of: asOf } = ask.params;
  return client.peek("getFinancials", financialsQuery(by, period as FinancialsPeriodType, asOf));
}

/** The answer through the call (aliases of a company share one answer: companyFinancials). */
export function fetchFinancials(ctx: CallContext, ask: FinancialsAsk): Promise<FinancialsResponse> {
  return companyFinancials(ctx.client, ask.who, ask.params, ctx.options);
}
