// The security code <-> EDINET code pairs an answer states (code-map.ts remembers them): read with the answer check, in its chunk.

import type { OperationId } from "../contract/rules";

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object";
}

/**
 * Pairs the API stated in an answer: the disclosures list and dividends name both codes
 * (openapi.json getDividends, listSecurityDisclosures), screening names both per security
 * (ScreeningSecurity), an organization lists its primary security (Organization).
 */
export function codePairsIn(
  opId: OperationId,
  body: unknown,
): Array<[security: string, edinet: string]> {
  const pairs: Array<[string, string]> = [];
  if (!isRecord(body)) return pairs;
  const pair = (s: unknown, e: unknown): void => {
    if (typeof s === "string" && typeof e === "string") pairs.push([s, e]);
  };
  if (opId === "listSecurityDisclosures" || opId === "getDividends") {
    pair(body.security_code, body.edinet_code);
  }
  if (opId === "getScreening" && Array.isArray(body.securities)) {
    for (const s of body.securities) if (isRecord(s)) pair(s.security_code, s.edinet_code);
  }
  const listed = body.listed_security_codes;
  if (opId === "getOrganization" && Array.isArray(listed) && listed.length === 1) {
    pair(listed[0], body.edinet_code);
  }
  return pairs;
}
