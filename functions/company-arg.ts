// The `company` argument of every function: read without a request, resolved after the other arguments are checked.

import type { Company } from "../src/excel/args";
import type { CompanyRef } from "../src/excel/company-ref";
import { resolveCompany, resolveSecurityCode } from "../src/domain/company-resolver";
import type { CallContext } from "./run";
import { internedCompanyRef } from "./cells/interned-args";

/**
 * `company` read without a request (src/excel/company-ref.ts companyRefArg: codes in every common
 * spelling, entities, or a name to look up), a code's reading shared by every cell typing it.
 */
export function companyRefArg(value: unknown, argument = "company"): CompanyRef {
  return internedCompanyRef(value, argument);
}

/**
 * A parsed `company` as a security or EDINET code: codes and entities as they are, a name through
 * one cached /securities look-up (none in a value preview: the client answers from cache only).
 */
export function companyOf(ctx: CallContext, ref: CompanyRef): Promise<Company> {
  return resolveCompany(ctx.client, ref, ctx.options);
}

/** A parsed `company` for endpoints keyed by security code: an EDINET code or name resolved to one. */
export function securityCodeOf(ctx: CallContext, ref: CompanyRef): Promise<string> {
  return resolveSecurityCode(ctx.client, ref, ctx.options);
}
