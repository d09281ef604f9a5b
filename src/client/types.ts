// Public types of the client: options, per-request options, parameter and response types per operation.

import type { operations } from "../contract/generated/api-types";
import type { BudgetLedger } from "./revalidator";
import type { OperationId } from "../contract/rules";
import type { CacheStore } from "./cache";
import type { Lang } from "./messages";
import type { FetchLike } from "./http";
import type { Sleep } from "./pacer";
import type { Deadline } from "./deadline";

type OrEmpty<T> = [NonNullable<T>] extends [never] ? Record<never, never> : NonNullable<T>;

/** Parameters of an operation, path parameters included, under the API's own names. */
export type ParamsOf<O extends OperationId> = OrEmpty<operations[O]["parameters"]["query"]> &
  OrEmpty<operations[O]["parameters"]["path"]>;

/** Body of the 200 answer of an operation. */
export type ResponseOf<O extends OperationId> =
  operations[O]["responses"][200]["content"]["application/json"];

/** Operations whose answers carry `next_cursor` (openapi.json next_cursor). */
export type PaginatedOperationId = {
  [O in OperationId]: "next_cursor" extends keyof ResponseOf<O> ? O : never;
}[OperationId];

/** The API key, or a function that reads it when a request is about to be sent. */
export type ApiKeySource =
  string | undefined | (() => string | undefined | Promise<string | undefined>);

/** Observer hook: called once per HTTP request actually sent (retries included). No key in it. */
interface RequestInfo {
  operationId: OperationId;
  method: "GET";
  url: string;
  /** 0 for the first attempt, 1.. for retries. */
  attempt: number;
}

/** Options of `createClient`; all optional. */
export interface ClientOptions {
  /** @default PRODUCTION_BASE_URL ("https://api.irbank.net/v1") */
  baseUrl?: string;
  /**
   * Key or key provider (openapi.json bearerAuth); read before each request, never stored in errors
   * or URLs.
   */
  apiKey?: ApiKeySource;
  /** @default globalThis.fetch */
  fetch?: FetchLike;
  /** Per-attempt timeout. @unit ms @default 30000 */
  timeoutMs?: number;
  /** Retries after the first attempt for retryable failures. @default 3 */
  maxRetries?: number;
  /**
   * Bound on a call from its first send: attempts, backoff and the 429 pauses it drew
   * (deadline.ts); time queued behind the pacer, or behind another call's pause, is not counted.
   * 0 = none. @unit ms
   * @default 120000
   */
  deadlineMs?: number;
  /** Client-side pacing; 0 = off. @default 60 */
  ratePerMinute?: number;
  /** @default new MemoryCacheStore() */
  cacheStore?: CacheStore;
  /** Freshness overrides per operationId. @unit ms */
  ttlMs?: Partial<Record<OperationId, number>>;
  /**
   * Wall clock: cache freshness, the JST day, date checks, the pause's end shown in the pane.
   * @default Date.now
   */
  now?: () => number;
  /**
   * Monotonic clock for what measures elapsed time: pacing, 429 pauses, call deadlines (a wall
   * clock stepped back an hour must not stall requests for that hour, nor one stepped forward
   * release them at once). Retry waits are timers, monotonic already. With only `now` given (a
   * test's or the bench's virtual clock), `now`. @unit ms @default performance.now()
   */
  clock?: () => number;
  /** Language of `client.message(err)`. @default "ja" */
  lang?: Lang;
  /** Observer of every request sent. */
  onRequest?: (info: RequestInfo) => void;
  /** Sleep used for backoff and pacing (tests inject one). @default setTimeout-based */
  sleep?: Sleep;
  /**
   * Answer only from fresh cache entries and never send (a formula's value preview, spec-free
   * economy rule: a formula still being typed spends no request). @default false
   */
  cacheOnly?: boolean;
  /**
   * Refuse answers missing a field the contract requires (src/client/response-check.ts) with
   * "unexpected answer from the API (field x)". The add-in's session client turns it on; off by
   * default so code and tests that feed hand-made partial answers keep working. Non-finite
   * numbers are refused and over-long strings cut either way. @default false
   */
  checkAnswers?: boolean;
  /** Random source for backoff jitter, in [0, 1). @default Math.random */
  random?: () => number;
  /**
   * Stale-while-revalidate: a cached answer past its freshness (src/client/freshness.ts) answers
   * at once and is asked again in the background (`client.revalidation()`), instead of the call
   * waiting for the API. The add-in's session client turns it on. @default false
   */
  staleWhileRevalidate?: boolean;
  /**
   * With `staleWhileRevalidate`: how long the queue of due answers must be quiet before companies'
   * filing checks are chosen (src/client/revalidator.ts `settleMs`), so one check covers a company
   * whose cells arrive over seconds. The add-in uses `REVALIDATION_SETTLE_MS`. @default 0 @unit ms
   */
  revalidationSettleMs?: number;
  /**
   * With `staleWhileRevalidate`: background requests per JST day (revalidator.ts
   * `DEFAULT_DAILY_BUDGET`: 800); null = no limit. The session passes the user's stored choice, so
   * it holds before the first background request. @default 800
   */
  revalidationDailyBudget?: number | null | undefined;
  /** Where the background requests spent today are kept across sessions (the pane's storage). */
  revalidationLedger?: BudgetLedger | undefined;
}

/** Trailing per-call options of every method. */
export interface RequestOptions {
  signal?: AbortSignal;
  /** @unit ms */
  timeoutMs?: number;
  maxRetries?: number;
  /** @unit ms */
  deadlineMs?: number;
  /**
   * "default": fresh cache entries answer without a request; "reload": always ask the API (the
   * answer is stored); "no-store": ask the API and neither read nor write the cache;
   * "only-if-cached": answer from a fresh entry or throw NotCachedError, never send (value preview).
   */
  cache?: "default" | "no-store" | "reload" | "only-if-cached";
  /**
   * Set to stale = true when an answer was served stale (the API failed, the cache answered, or
   * its data can have changed and it is being asked again). `address`: the calling cell, recorded
   * so that it is recalculated when a background revalidation changes its answer.
   */
  staleSink?: { stale: boolean; readonly address?: string | undefined };
  /**
   * The cell that asked (an address), for the pacer's queue order alone (queue-order.ts), where no
   * `staleSink` carries it: a fetch many cells share (functions/cells/answers.ts sharedAnswer).
   */
  cell?: string | undefined;
  /**
   * Called as each request of the call leaves (every page, every retry): the background queue
   * counts its requests against the daily budget (revalidator.ts `RevalidationTask.refresh`).
   */
  onSent?: (() => void) | undefined;
  /**
   * One cell invocation's scope, shared by every request it makes (functions/run.ts): the client
   * keeps the call's deadline here, so COMPANY's later requests count against the bound its first
   * one started (README "#BUSY! that does not go away"). Without it each request has its own
   * deadline.
   */
  call?: CallScope;
}

/** See `RequestOptions.call`. The client fills it; callers pass one empty object per call. */
export interface CallScope {
  deadline?: Deadline | undefined;
}

/** Counters since the client was created (shared with copies made by `withOptions`). */
export interface ClientStats {
  /** HTTP requests actually sent, retries included. */
  requestsSent: number;
  /** Calls answered from a fresh cache entry. */
  cacheHits: number;
  /** Calls that joined an identical request already in flight. */
  coalesced: number;
  /** Retries sent after retryable failures. */
  retries: number;
  /** Answers served from an expired entry because the API failed. */
  staleServed: number;
  /** `remaining` of the last GET /usage answer; null before the first one. */
  lastUsageRemaining: number | null;
}

/** Options of `client.paginate`. */
export interface PaginateOptions extends RequestOptions {
  /** Stop after this many pages. @default 50 */
  maxPages?: number;
}
