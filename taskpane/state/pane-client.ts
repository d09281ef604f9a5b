// The part of the shared client (src/client, ARCHITECTURE.md) the task pane uses, as a structural type.

// Method syntax keeps parameters bivariant so the real, more precisely typed client is assignable.

import type { RevalidationStatus } from "../../src/client/revalidator";

export type Query = Record<string, string | number | undefined>;

export interface PaneRequestOptions {
  signal?: AbortSignal;
  cache?: "default" | "no-store" | "reload";
}

export interface PaneStats {
  requestsSent: number;
  cacheHits: number;
  coalesced: number;
  lastUsageRemaining?: number | null | undefined;
}

/** The pacer's queue (src/client QueueStatus): waiting, in flight, estimated wait, 429 pause. */
export interface PaneQueueStatus {
  waiting: number;
  inFlight: number;
  estimatedWaitMs: number;
  pausedUntil?: number;
}

export interface PaneClient {
  screening(q: Query, o?: PaneRequestOptions): Promise<unknown>;
  screeningFields(o?: PaneRequestOptions): Promise<unknown>;
  usage(o?: PaneRequestOptions): Promise<unknown>;
  securities(q: Query, o?: PaneRequestOptions): Promise<unknown>;
  prices(q: Query, o?: PaneRequestOptions): Promise<unknown>;
  rankings(q: Query, o?: PaneRequestOptions): Promise<unknown>;
  valuations(q: Query, o?: PaneRequestOptions): Promise<unknown>;
  financials(q: Query, o?: PaneRequestOptions): Promise<unknown>;
  segments(q: Query, o?: PaneRequestOptions): Promise<unknown>;
  dividends(q: Query, o?: PaneRequestOptions): Promise<unknown>;
  organization(q: Query, o?: PaneRequestOptions): Promise<unknown>;
  peers(q: Query, o?: PaneRequestOptions): Promise<unknown>;
  securityDisclosures(q: Query, o?: PaneRequestOptions): Promise<unknown>;
  officers(q: Query, o?: PaneRequestOptions): Promise<unknown>;
  weeklyMargin(q: Query, o?: PaneRequestOptions): Promise<unknown>;
  jsfMarginDaily(q: Query, o?: PaneRequestOptions): Promise<unknown>;
  paginate(
    op: string,
    query: Query,
    options?: { maxPages?: number; signal?: AbortSignal },
  ): AsyncIterable<unknown>;
  resolveEdinetCode(code: string, o?: PaneRequestOptions): Promise<string>;
  invalidateAll(): unknown;
  stats(): PaneStats;
  queueStatus(): PaneQueueStatus;
  onQueueChange(listener: (s: PaneQueueStatus) => void): () => void;
  cancelQueued(): number;
  /** The background revalidation queue (src/client/revalidator.ts); absent in some test doubles. */
  revalidation?(): PaneRevalidation;
}

/** What the pane uses of the revalidation queue. */
interface PaneRevalidation {
  status(): RevalidationStatus;
  onStatus(listener: (s: RevalidationStatus) => void): () => void;
  pause(): void;
  resume(): void;
  cancel(): number;
  setDailyBudget(budget: number | undefined): void;
}

/** Reads an object property without trusting the shape (unknown fields are tolerated, spec REFERENCE). */
export function prop(obj: unknown, key: string): unknown {
  return typeof obj === "object" && obj !== null
    ? (obj as Record<string, unknown>)[key]
    : undefined;
}

export function arrayProp(obj: unknown, key: string): Record<string, unknown>[] {
  const v = prop(obj, key);
  return Array.isArray(v)
    ? (v.filter((x) => typeof x === "object" && x !== null) as Record<string, unknown>[])
    : [];
}
