// The company a traced cell asked, resolved as the cell resolved it (a name through the same
// cached look-up, src/domain/company-resolver.ts), with its name and codes from answers already
// held: never a request.

import type { KaishaClient, ResponseOf } from "../../src/client";
import type { SecuritiesResponse } from "../../src/contract";
import { resolveCompany } from "../../src/domain/company-resolver";
import type { Company } from "../../src/excel/args";
import { companyRefArg } from "../../functions/company-arg";
import type { CellTrace } from "./trace-model";

/**
 * What tracing reads of the client: fresh answers only (client.peek), the code pairs learned and
 * Japan's today (its clock).
 */
export type CompanyClient = Pick<KaishaClient, "peek" | "knownCode" | "today">;

/** A company asked by a cell: the code the functions ask by, and what the view shows of it. */
export interface TracedCompany {
  ask: Company;
  shown: NonNullable<CellTrace["company"]>;
}

/**
 * The company's name from answers already held: its organization (openapi.json Organization
 * name_ja), its listing as COMPANY and the company search look it up (listSecurities q=code), or
 * `names`, the pane's scan of other held listings (a name look-up's answer).
 */
function nameOf(
  client: CompanyClient,
  code: string | undefined,
  edinet: string | undefined,
  names: ((code: string) => string | undefined) | undefined,
): string | undefined {
  if (edinet !== undefined) {
    const org = client.peek("getOrganization", { edinet_code: edinet }) as
      ResponseOf<"getOrganization"> | undefined;
    if (typeof org?.name_ja === "string" && org.name_ja !== "") return org.name_ja;
  }
  if (code === undefined) return undefined;
  const listing = client.peek("listSecurities", { q: code, limit: 20 }) as
    SecuritiesResponse | undefined;
  return listing?.securities.find((s) => s.code === code)?.name ?? names?.(code);
}

/**
 * A cell's `company` argument resolved without a request: codes as they are, a name through the
 * look-up answer the cell itself used (resolveCompany with "only-if-cached": a name not held, or
 * refused, gives undefined), then its other code and name from held answers.
 * @example (await tracedCompany(7203, client))?.shown // { code: "7203", edinet: "E02144", name: "トヨタ自動車" }
 */
export async function tracedCompany(
  value: unknown,
  client: CompanyClient,
  names?: (code: string) => string | undefined,
): Promise<TracedCompany | undefined> {
  const ref = companyRefArg(value);
  let ask: Company;
  try {
    ask = await resolveCompany(client as KaishaClient, ref, { cache: "only-if-cached" });
  } catch {
    return undefined;
  }
  const code =
    "security_code" in ask ? ask.security_code : client.knownCode("security_code", ask.edinet_code);
  const edinet =
    "edinet_code" in ask ? ask.edinet_code : client.knownCode("edinet_code", ask.security_code);
  const name = nameOf(client, code, edinet, names);
  return {
    ask,
    shown: {
      ...(code !== undefined ? { code } : {}),
      ...(edinet !== undefined ? { edinet } : {}),
      ...(name !== undefined ? { name } : {}),
    },
  };
}

/** The name the pane finds among held security listings: every /securities answer in memory. */
export function namesFromListings(
  listings: readonly SecuritiesResponse[],
): (code: string) => string | undefined {
  return (code) => {
    for (const l of listings) {
      const found = l.securities.find((s) => s.code === code);
      if (found !== undefined) return found.name;
    }
    return undefined;
  };
}
