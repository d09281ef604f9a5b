// Whether an answer read back from storage passes the contract check answers from the network pass.

import { OPERATIONS } from "../contract/generated/param-rules";
import type { OperationId } from "../contract/rules";
import { checkAnswer } from "./response-check";
import { wasStamped } from "./stored-stamp";

/** Each operation's path as a pattern (`/securities/{code}/prices` -> one segment per parameter). */
let paths: Array<[RegExp, OperationId]> | undefined;

/**
 * The operation a cache key asks: the client's keys are the partition id (hex) then the request's
 * path and sorted query (client.ts, cache.ts cacheKey); undefined for any other key.
 *
 * @example operationOfKey("3f9c…/securities/7203/prices?from=2026-01-01") // "getPrices"
 */
function operationOfKey(key: string): OperationId | undefined {
  const slash = key.indexOf("/");
  if (slash < 0) return undefined;
  const query = key.indexOf("?", slash);
  const path = key.slice(slash, query < 0 ? key.length : query);
  paths ??= (Object.keys(OPERATIONS) as OperationId[]).map((id) => [
    new RegExp(`^${OPERATIONS[id].path.replace(/\{[^}]+\}/g, "[^/]+")}$`),
    id,
  ]);
  for (const [pattern, id] of paths) if (pattern.test(path)) return id;
  return undefined;
}

/**
 * Whether `body`, stored under `key`, is still an answer of its operation as the contract says
 * (response-check.ts, the same check answers from the network pass, unchanged by it): a record of
 * an older layout, valid JSON of another shape (`[1,2,3]`) or under a key naming no operation is
 * not; a record this version stored passes unwalked (stored-stamp.ts). This module shares the answer check's chunk (functions/addin-cache.ts loads it on the
 * first read from storage), so the runtime page carries neither.
 *
 * @example storedAnswerPasses(key, [1, 2, 3]) // false
 */
export function storedAnswerPasses(key: string, body: unknown): boolean {
  const opId = operationOfKey(key);
  if (opId === undefined) return false;
  // Stored by this version after passing the check (stored-stamp.ts): it passes again.
  if (wasStamped(body)) return true;
  try {
    // A copy means something was changed (cut text, a repeated row): not this client's record.
    return checkAnswer(opId, body) === body;
  } catch {
    return false;
  }
}
