// EDINET resolution: a security code -> its corporation's EDINET code, from the code registry, the cache or one request.

import {
  BadResponseError,
  normalizeCompany,
  type KaishaClient,
  type RequestOptions,
} from "../client";

/** What EDINET resolution needs of a client: its public interface (src/client/index.ts). */
export type EdinetClient = Pick<
  KaishaClient,
  "partition" | "knownCode" | "learnCode" | "stored" | "flights" | "request"
>;

/**
 * Security code or EDINET code -> EDINET code. A security code's is a pair the client learned from
 * any answer, else a stored /financials answer asked by this code (it names the corporation), else
 * one /disclosures request (openapi.json listSecurityDisclosures: the answer carries the resolved
 * edinet_code; one item is enough). Concurrent look-ups of one code share one; the pair found is
 * taught to the client, so the next asks nothing.
 *
 * @example await resolveEdinetCode(client, "7203") // "E02144"
 */
export function resolveEdinetCode(
  client: EdinetClient,
  company: unknown,
  options: RequestOptions = {},
): Promise<string> {
  const ref = normalizeCompany(company, "company");
  if ("edinet_code" in ref) return Promise.resolve(ref.edinet_code);
  const security = ref.security_code;
  const known = client.knownCode("edinet_code", security);
  if (known !== undefined) return Promise.resolve(known);
  // In the client's one map of work under way, keyed by partition too: the sandbox's sample
  // companies need not match production's.
  return client
    .flights()
    .work.begin(`${client.partition() ?? ""} edinet ${security}`, () =>
      lookUp(client, security, options),
    ).answer;
}

async function lookUp(
  client: EdinetClient,
  security: string,
  options: RequestOptions,
): Promise<string> {
  const held = await client.stored("getFinancials", (q) => q.get("security_code") === security);
  const edinet =
    typeof held?.edinet_code === "string"
      ? held.edinet_code
      : (await client.request("listSecurityDisclosures", { code: security, limit: 1 }, options))
          .edinet_code;
  if (typeof edinet !== "string") throw new BadResponseError("no edinet_code in /disclosures");
  client.learnCode(security, edinet);
  return edinet;
}
