// The stored answer behind a cell, fresh or due, with when it was received: read from the session's
// cache store under the key the client stores it by (key partition + request), never sent.

import type { OperationId } from "../../src/contract";
import { cacheKey } from "../../src/client/cache";
import { validateParams } from "../../src/client/validate";
import { getCacheStore, getClient } from "../../src/session";
import type { StoredAnswer } from "./resolve-trace";

/**
 * The memory tier's entry for a request as the client keys it (src/client/client.ts: the key's
 * partition, then cache.ts cacheKey of the checked parameters); undefined when none is held.
 * @example storedAnswer("getPrices", { code: "7203", limit: 1 })?.storedAt
 */
export function storedAnswer(
  operationId: string,
  params: Record<string, unknown>,
): StoredAnswer | undefined {
  try {
    const partition = getClient().partition();
    if (partition === undefined) return undefined;
    const id = operationId as OperationId;
    const entry = getCacheStore()?.peek?.(
      `${partition}${cacheKey(id, validateParams(id, params))}`,
    );
    return entry === undefined ? undefined : { body: entry.body, storedAt: entry.storedAt };
  } catch {
    // Parameters the contract refuses have no stored answer.
    return undefined;
  }
}
