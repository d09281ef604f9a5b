// The part of the shared client the task pane uses: src/client's KaishaClient itself, its methods
// typed by the contract (openapi.json parameters and 200 answers), picked so test doubles need only
// what the pane calls.

import type { KaishaClient, RequestOptions } from "../../src/client";

type PaneMethods =
  | "screening"
  | "screeningFields"
  | "usage"
  | "securities"
  | "prices"
  | "rankings"
  | "valuations"
  | "financials"
  | "segments"
  | "dividends"
  | "organization"
  | "peers"
  | "securityDisclosures"
  | "officers"
  | "weeklyMargin"
  | "jsfMarginDaily"
  | "paginate"
  | "flights"
  // src/domain/edinet-resolution.ts: a security code's EDINET code.
  | "partition"
  | "knownCode"
  | "learnCode"
  | "stored"
  | "request"
  | "invalidateAll"
  | "stats"
  | "queueStatus"
  | "onQueueChange"
  | "cancelQueued";

/**
 * The typed client as the pane sees it; the revalidation queue and the key's send state are absent
 * in some test doubles.
 */
export type PaneClient = Pick<KaishaClient, PaneMethods> &
  Partial<
    Pick<KaishaClient, "revalidation" | "sendState" | "onSendStateChange" | "resumeSending">
  >;

export type PaneRequestOptions = RequestOptions;

/** The client's counters (src/client ClientStats). */
export type PaneStats = ReturnType<KaishaClient["stats"]>;

/** The pacer's queue (src/client QueueStatus): waiting, in flight, estimated wait, 429 pause. */
export type PaneQueueStatus = ReturnType<KaishaClient["queueStatus"]>;

/**
 * The rows of an answer's array as plain records, for tables built column by column from whatever
 * keys the rows carry (the API may add fields; unknown ones are tolerated).
 */
export function arrayProp(obj: unknown, key: string): Record<string, unknown>[] {
  const v = typeof obj === "object" && obj !== null ? (obj as Record<string, unknown>)[key] : [];
  return Array.isArray(v)
    ? (v.filter((x) => typeof x === "object" && x !== null) as Record<string, unknown>[])
    : [];
}
