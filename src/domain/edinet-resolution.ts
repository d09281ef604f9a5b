// EDINET resolution: a security code -> its corporation's EDINET code, from the code registry, the cache or one request.

import {
  type CacheEntry,
  type CodeRegistry,
  BadResponseError,
  type InFlightRequests,
  type RequestOptions,
  type ResponseOf,
} from "../client";
import { OPERATIONS } from "../contract/generated/param-rules";

/** What EDINET resolution needs of the client, for the key of one cache partition. */
export interface EdinetPort {
  /** The cache partition of the key asking: pairs, cache keys and look-ups are its own. */
  readonly partition: string;
  readonly codes: CodeRegistry;
  /** Look-ups under way, shared by every caller of the same code. */
  readonly resolving: InFlightRequests;
  /** The cache's keys and entries (a failing store answers none). */
  readonly keys: () => Promise<string[]>;
  readonly entry: (key: string) => Promise<CacheEntry | undefined>;
  readonly disclosures: (
    q: { code: string; limit: number },
    options: RequestOptions,
  ) => Promise<ResponseOf<"listSecurityDisclosures">>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object";
}

/**
 * The EDINET code of a security code: a pair the registry learned from any answer, else a cached
 * /financials answer asked by this code (it names the corporation), else one /disclosures request
 * (openapi.json listSecurityDisclosures: the answer carries the resolved edinet_code; one item is
 * enough). Concurrent look-ups of one code share one.
 *
 * @example await edinetCodeOf(port, "7203", {}) // "E02144"
 */
export function edinetCodeOf(
  port: EdinetPort,
  security: string,
  options: RequestOptions,
): Promise<string> {
  const known = port.codes.edinetOf(port.partition, security);
  if (known !== undefined) return Promise.resolve(known);
  // Keyed by partition too: the sandbox's sample companies need not match production's.
  return port.resolving.begin(`${port.partition} ${security}`, () =>
    lookUp(port, security, options),
  ).answer;
}

async function lookUp(port: EdinetPort, security: string, options: RequestOptions) {
  const prefix = `${port.partition}${OPERATIONS.getFinancials.path}?`;
  for (const key of await port.keys()) {
    if (!key.startsWith(prefix)) continue;
    if (new URLSearchParams(key.slice(prefix.length)).get("security_code") !== security) continue;
    const entry = await port.entry(key);
    if (isRecord(entry?.body) && typeof entry.body.edinet_code === "string") {
      port.codes.learn(port.partition, security, entry.body.edinet_code);
      return entry.body.edinet_code;
    }
  }
  const body = await port.disclosures({ code: security, limit: 1 }, options);
  if (typeof body.edinet_code !== "string")
    throw new BadResponseError("no edinet_code in /disclosures");
  port.codes.learn(port.partition, security, body.edinet_code);
  return body.edinet_code;
}
