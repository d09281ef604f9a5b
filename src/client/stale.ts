// Marker for answers served from an expired cache entry because the API failed (non-enumerable).

import type { KaishaError } from "./errors";

const STALE = Symbol.for("kaisha.client.stale");

/** Why and since when an answer is stale. */
export interface StaleInfo {
  /** The failure that made the client fall back (its `stale` flag is true). */
  error: KaishaError;
  /** When the answer was received from the API. @unit ms since epoch */
  storedAt: number;
}

/**
 * A shallow copy of `body` carrying a non-enumerable stale marker (JSON.stringify and Object.keys
 * do not see it; the cached original stays unmarked).
 */
export function markStale<T extends object>(body: T, info: StaleInfo): T {
  const copy = (Array.isArray(body) ? [...body] : { ...body }) as T;
  info.error.stale = true;
  Object.defineProperty(copy, STALE, { value: info, enumerable: false });
  return copy;
}

/**
 * True when `body` was served from an expired cache entry because the API failed.
 *
 * @example if (isStale(body)) showBadge("stale");
 */
export function isStale(body: unknown): boolean {
  return staleInfo(body) !== undefined;
}

/** The failure and receive time behind a stale answer, or undefined for a fresh one. */
export function staleInfo(body: unknown): StaleInfo | undefined {
  if (body === null || typeof body !== "object") return undefined;
  return (body as { [STALE]?: StaleInfo })[STALE];
}
