// The subjects table functions ask their answers for: a security code, or a company with its
// EDINET code; at hand without a request for a code, looked up through the call for a name.

import type { KaishaClient } from "../../src/client";
import { resolveEdinetCode } from "../../src/domain/network-rules";
import type { Company } from "../../src/excel/args";
import type { CompanyRef } from "../../src/excel/company-ref";
import { companyOf, securityCodeOf } from "../company-arg";
import type { CallContext } from "../run";

/**
 * The security code of a company typed as a code: itself, or an EDINET code's learned pair
 * (client.knownCode); undefined for a name or a pair not learned yet (the full path asks).
 */
function securityCodeAtHand(ref: CompanyRef, client: KaishaClient): string | undefined {
  if ("security_code" in ref) return ref.security_code;
  if ("edinet_code" in ref) return client.knownCode("security_code", ref.edinet_code);
  return undefined;
}

/** The security code through the call (company-resolver.ts resolveSecurityCode; a code as it is). */
function securityCodeSubject(ctx: CallContext, ref: CompanyRef): string | Promise<string> {
  return "security_code" in ref ? ref.security_code : securityCodeOf(ctx, ref);
}

/** A company as typed (or looked up) and the EDINET code the corporation's endpoints take. */
export interface EdinetSubject {
  readonly who: Company;
  /** The code shown in title rows: the one typed (a name: its security code). */
  readonly label: string;
  readonly edinet: string;
}

const subjects = new WeakMap<Company, EdinetSubject>();

/** One frozen subject per company typed (a company's EDINET code does not change). */
function subjectOf(who: Company, edinet: string): EdinetSubject {
  const known = subjects.get(who);
  if (known !== undefined && known.edinet === edinet) return known;
  const label = "security_code" in who ? who.security_code : who.edinet_code;
  const made = Object.freeze({ who, label, edinet });
  if (Object.isFrozen(who)) subjects.set(who, made);
  return made;
}

/** The subject of a company typed as a code whose EDINET code is known now (no request). */
function edinetSubjectAtHand(ref: CompanyRef, client: KaishaClient): EdinetSubject | undefined {
  if ("name" in ref) return undefined;
  const edinet =
    "edinet_code" in ref ? ref.edinet_code : client.knownCode("edinet_code", ref.security_code);
  return edinet === undefined ? undefined : subjectOf(ref, edinet);
}

/** The subject through the call: a name looked up, the EDINET code resolved (cached requests). */
async function edinetSubject(ctx: CallContext, ref: CompanyRef): Promise<EdinetSubject> {
  const who = await companyOf(ctx, ref);
  const label = "security_code" in who ? who.security_code : who.edinet_code;
  return subjectOf(who, await resolveEdinetCode(ctx.client, label, ctx.options));
}

/** A table's arguments naming a company. */
interface TypedCompany {
  readonly ref: CompanyRef;
}

/** A company name is read anew for each cell (whether it is refused depends on the key set). */
function typedCode(args: TypedCompany): boolean {
  return !("name" in args.ref);
}

/** defineTable's subject steps for a table asked by security code (VALUATION, PRICES, PEERS...). */
export function bySecurityCode<A extends TypedCompany>() {
  return {
    remembered: typedCode,
    subjectAtHand: (args: A, client: KaishaClient) => securityCodeAtHand(args.ref, client),
    subject: (ctx: CallContext, args: A) => securityCodeSubject(ctx, args.ref),
  };
}

/** defineTable's subject steps for a corporation's table, asked by EDINET code (SEGMENTS...). */
export function byEdinetCode<A extends TypedCompany>() {
  return {
    remembered: typedCode,
    subjectAtHand: (args: A, client: KaishaClient) => edinetSubjectAtHand(args.ref, client),
    subject: (ctx: CallContext, args: A) => edinetSubject(ctx, args.ref),
  };
}
