// The Kaisha API client: one method per operation, with validation, cache, coalescing, pacing and retries.

import { OPERATIONS } from "../contract/generated/param-rules";
import type { OperationId } from "../contract/rules";
import { MemoryCacheStore, cacheKey, type CacheStore } from "./cache";
import {
  AbortError,
  AuthenticationError,
  BadResponseError,
  DeadlineError,
  KaishaError,
  NotCachedError,
  NotFoundError,
  RateLimitError,
  localizedMessage,
} from "./errors";
import { CodeRegistry } from "./code-map";
import { BoundedMemo } from "../util/bounded-memo";
import { DEFAULT_DEADLINE_MS } from "./deadline-bound";
import type { Deadline } from "./deadline";
import { InFlightRequests } from "./inflight";
import { AnswerFlights, argumentSignature } from "./answer-flights";
import type { NotFoundMemory } from "./not-found";
import { KeyPartitions } from "./key-partition";
import type { GaveUpCells } from "./gave-up";
import { defineOperationMethods, type OperationMethods } from "./operation-methods";
import { freezeAnswer } from "./shared-parts";
import { DEFAULT_TIMEOUT_MS, buildUrl, type FetchLike } from "./http";
import type { HttpResult } from "./send";

/** The send chunk's module (send.ts). */
type SendCode = typeof import("./send");
import type { Lang } from "./messages";
import { loadAnswerCheck, loadPaginate, loadResultsDays, loadSend } from "./network-code";
import type { ResultsDays } from "./results-day-history";
import { monotonicNow } from "./monotonic";
import type { Pacer, PacerOptions, PacerPermit, QueueStatus } from "./pacer";
import { defaultSleep } from "./sleep";
import type { QueuePlace } from "./queue-order";
import { rememberSecret } from "../util/redact";
import { DEFAULT_MAX_RETRIES, canServeStale, shouldRetry } from "./retry";
import { isStale, markStale, staleInfo } from "./stale";
import { isFresh, ttlFor } from "./ttl";
import {
  basisOf,
  entryLifetime,
  isFilingOperation,
  lifetimesMoved,
  type CompanyKnowledge,
  type Lifetime,
} from "./freshness";
import { Revalidator } from "./revalidator";
import type { SendHolds, SendState } from "./send-state";
import { revalidationRank, revalidatingNotice } from "./revalidation";
import type { CacheEntry } from "./cache";
import type {
  ApiKeySource,
  ClientOptions,
  ClientStats,
  PaginateOptions,
  PaginatedOperationId,
  ParamsOf,
  RequestOptions,
  ResponseOf,
} from "./types";
import { loadIndustryNames, needsIndustryNames, validateParams } from "./validate";
import type { CleanParams } from "./params";
import { todayJst, todayLocal } from "../util/normalize";

/** The live API's origin (openapi.json servers). */
export const PRODUCTION_BASE_URL = "https://api.irbank.net/v1";
/** The local sandbox (sandbox/server.ts). */
export const SANDBOX_BASE_URL = "http://127.0.0.1:8787/v1";

/**
 * A configured client; see ARCHITECTURE.md "The client". One method per operation of openapi.json
 * (`OperationMethods`: `financials(q)` is `request("getFinancials", q)`), and these.
 */
export interface KaishaClient extends ClientCore, OperationMethods {}

/** Everything a client has besides its per-operation methods. */
interface ClientCore {
  /**
   * The answer when these exact arguments were asked before and it is still fresh in memory;
   * undefined otherwise. Synchronous: never sends, waits, validates anew or throws (the
   * per-cell fast path of a recalculation; pass the same frozen params object to skip rebuilding
   * their signature).
   */
  peek<O extends OperationId>(operationId: O, params: ParamsOf<O>): ResponseOf<O> | undefined;
  /**
   * The cache partition of the key now readable (a fingerprint of key and server, never the key);
   * undefined without one. Work shared across cells is keyed by it, as the cache is.
   */
  partition(): string | undefined;
  /**
   * The sharing layer (answer-flights.ts over inflight.ts): work on one answer, found, begun, held
   * and waited for by every cell that lacks it, in the same map as the client's own requests.
   */
  flights(): AnswerFlights;
  /** Any operation by id (what the named methods call). */
  request<O extends OperationId>(
    operationId: O,
    params: ParamsOf<O>,
    options?: RequestOptions,
  ): Promise<ResponseOf<O>>;
  /** Pages of a cursor endpoint, same conditions each time (openapi.json next_cursor). */
  paginate<O extends PaginatedOperationId>(
    operationId: O,
    query: ParamsOf<O>,
    options?: PaginateOptions,
  ): AsyncGenerator<ResponseOf<O>, void, undefined>;
  /**
   * An answer a domain rule builds from requests and keeps under a cache key of its own (`tag`:
   * parameters no request has, openapi.json, so no request's answer is read as it): read from the
   * cache, fresh as `opId`'s answer to `params` is, served while due with `build` run again behind
   * it (stale-while-revalidate), one `build` per key at a time, what it gives stored, and the stored
   * one standing in when it fails (src/domain/price-latest.ts: PRICES up to the latest day).
   * `build` gets the stored answer (any age; undefined: none) and gives it back itself when
   * nothing changed.
   */
  composed<O extends OperationId>(
    opId: O,
    params: ParamsOf<O>,
    tag: Readonly<Record<string, string>>,
    build: (stored: ResponseOf<O> | undefined, options: RequestOptions) => Promise<ResponseOf<O>>,
    options?: RequestOptions,
  ): Promise<ResponseOf<O>>;
  /**
   * The answer `composed` gives when it is stored and fresh in the memory tier, read synchronously
   * (the very same body); undefined otherwise. Never sends, waits or throws (as `peek`).
   */
  peekComposed<O extends OperationId>(
    opId: O,
    params: ParamsOf<O>,
    tag: Readonly<Record<string, string>>,
  ): ResponseOf<O> | undefined;
  /**
   * The current key's stored answer of `opId` (a path without parameters: /financials) whose
   * request passes `test` (its query), any age; undefined when none. Reads the cache only: never
   * sends, validates or counts a hit, and a failing store answers none (src/domain/
   * edinet-resolution.ts: an EDINET code named by an answer already held).
   */
  stored<O extends OperationId>(
    opId: O,
    test: (query: URLSearchParams) => boolean,
  ): Promise<ResponseOf<O> | undefined>;
  /**
   * Teaches the current key's code registry a pair an answer stated (code-map.ts), for `knownCode`
   * and freshness; without a key read now, nothing.
   */
  learnCode(security: string, edinet: string): void;
  /**
   * The code registry's pair for the current key, learned from answers (code-map.ts): the EDINET
   * code of a security code, or the security code of an EDINET code. Synchronous, never sends.
   */
  knownCode(kind: "edinet_code" | "security_code", of: string): string | undefined;

  /** Drops every cached answer and remembered code mapping. */
  invalidateAll(): Promise<void>;
  /**
   * Forget key (README "Using a real key"): clears the memory tier and deletes the current key's
   * cached answers (every server it was used with in this session) from every tier. The key
   * itself is the caller's to remove; call this before removing it.
   */
  forgetKey(): Promise<void>;
  stats(): ClientStats;
  setApiKey(apiKey: ApiKeySource): void;
  setBaseUrl(baseUrl: string): void;
  /** A configured copy sharing cache, pacer, in-flight requests and stats. */
  withOptions(partial: ClientOptions): KaishaClient;
  /** Requests waiting for the pacer, in flight, the estimated wait and any 429 pause. */
  queueStatus(): QueueStatus;
  /** Calls `listener` when the queue changes (coalesced per microtask turn); returns unsubscribe. */
  onQueueChange(listener: (s: QueueStatus) => void): () => void;
  /** Rejects every request still waiting for the pacer with AbortError; returns how many. */
  cancelQueued(): number;
  /** The error's message in the client's language. */
  message(err: unknown): string;
  /**
   * Today (YYYY-MM-DD, JST) by the client's clock (`now`): the day after which a date argument is
   * in the future, so tests and the sandbox's data clock agree.
   */
  today(): string;
  /** The client's clock (`ClientOptions.now`), ms: what freshness is judged by. */
  now(): number;
  /**
   * State the domain derives from this client's answers (src/domain/price-windows.ts: the price
   * ranges received), one per `slot`, made by `make` on first use: shared by `withOptions` copies
   * and cleared with the answers it came from (`invalidateAll`, `forgetKey`).
   */
  derived<T extends { clear(): void }>(slot: symbol, make: () => T): T;
  /**
   * Today where the user is (YYYY-MM-DD, the runtime's time zone) by the client's clock: what
   * Excel's TODAY() gives, up to a day ahead of `today()` east of Japan.
   */
  userToday(): string;
  /**
   * The background revalidation queue (shared by `withOptions` copies): due answers served at once
   * with `staleWhileRevalidate` are asked again here; the pane shows, pauses and budgets it.
   */
  revalidation(): Revalidator;
  /**
   * The sheet on screen (a test of cell addresses): its companies go first in the cold queue
   * (pacer.ts `prioritize`) and in the background queue (revalidator.ts `prioritize`).
   */
  prioritize(test: ((address: string) => boolean) | undefined): void;
  /**
   * Whether the current key sends (send-state.ts): undefined, or why it does not and, for the
   * daily limit, when it resumes. Requests of a held key settle at once without being sent.
   */
  sendState(): SendState | undefined;
  /** Calls `listener` when a key is held or lifted; returns unsubscribe. */
  onSendStateChange(listener: () => void): () => void;
  /** The current key was entered again: a refused key's hold is lifted and it may send. */
  resumeSending(): void;
  readonly baseUrl: string;
  readonly lang: Lang;
}

interface Settings {
  baseUrl: string;
  apiKey: ApiKeySource;
  fetch: FetchLike;
  timeoutMs: number;
  maxRetries: number;
  deadlineMs: number;
  ttlMs: Partial<Record<OperationId, number>>;
  now: () => number;
  /** ClientOptions.clock: pacing and deadlines. */
  clock: () => number;
  lang: Lang;
  onRequest: ClientOptions["onRequest"];
  sleep: NonNullable<ClientOptions["sleep"]>;
  random: () => number;
  cacheOnly: boolean;
  checkAnswers: boolean;
  staleWhileRevalidate: boolean;
  revalidationSettleMs: number;
}

/** State shared between a client and its `withOptions` copies. */
interface Core {
  store: CacheStore;
  /**
   * The pacer (pacer.ts with its waiting line queue-order.ts), made with the send chunk's class by
   * the first request (`pacerWith`): a warm cell never waits for a turn, so the runtime page
   * registers the functions without its code. Until then nothing waits: the queue is empty, and
   * the sheet on screen and the queue's listeners are kept for it.
   */
  pacer: PacerBox;
  /**
   * The one map of work under way (inflight.ts): requests by cache key, EDINET look-ups by
   * partition and code, the answers cells share (`flights`) and the store's persistent reads
   * (tiered-cache.ts, `workOver`).
   */
  inflight: InFlightRequests;
  stats: ClientStats;
  /** Security code <-> EDINET code pairs learned from answers, per partition. */
  codes: CodeRegistry;
  /** State derived from answers, by slot (`derived`): cleared with the cache. */
  derived: Map<symbol, { clear(): void }>;
  /** Argument signatures already validated, per cache partition (see `fromMemory`). */
  validated: Map<string, BoundedMemo<string, KnownArguments>>;
  /** Whose answers requests may read: the key's and server's fingerprint (key-partition.ts). */
  partitions: KeyPartitions;
  revalidator: Revalidator;
  /**
   * 404s given, so the same request is not sent again while they stand (not-found.ts, made with
   * the send chunk's class by the first 404; a box the client's copies share).
   */
  notFound: { now: NotFoundMemory | undefined };
  /**
   * Cells that gave up waiting, by request: recalculated when its answer arrives (gave-up.ts).
   * Made with the send chunk's class (a cell gives up only on a request that went out), in a box
   * the client's copies share.
   */
  gaveUp: { now: GaveUpCells | undefined };
  /**
   * Keys that send nothing now: the daily limit or a refused key (send-state.ts). Made with the
   * exchange's code (the send chunk, off the runtime page): no key is held before an answer.
   */
  holds: { now: SendHolds | undefined; listeners: Set<() => void> };
  /** Companies' expected results days (src/client/results-day-history.ts, the send chunk). */
  resultsDays: { now: Pick<ResultsDays, "dailyChecksFrom"> | undefined };
}

/** See `Core.pacer`. */
interface PacerBox {
  now: Pacer | undefined;
  options: PacerOptions;
  /** Requests a minute (as Pacer counts them: a whole number, 0 turns pacing off). */
  ratePerMinute: number;
  focus: ((address: string) => boolean) | undefined;
  /** Listeners that came before the pacer: each subscribes to it when it is made. */
  early: Set<(pacer: Pacer) => void>;
}

function pacerBox(options: PacerOptions & { ratePerMinute: number }): PacerBox {
  return {
    now: undefined,
    options,
    ratePerMinute: Math.max(0, Math.floor(options.ratePerMinute)),
    focus: undefined,
    early: new Set(),
  };
}

/** The key a call sends and the partition of the cache it reads and writes. */
interface Caller {
  apiKey: string;
  /** Prefix of its cache keys, in-flight requests and remembered code mappings. */
  id: string;
}

const defaultFetch: FetchLike = (url, init) => {
  if (typeof globalThis.fetch !== "function")
    return Promise.reject(new TypeError("fetch is not available"));
  return globalThis.fetch(url, init);
};

/** peek's options: one object, not one per warm cell. */
const NO_OPTIONS: RequestOptions = Object.freeze({});

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object";
}

class Client implements ClientCore {
  /** See `flights` (made on first use: a warm cell never asks for it). */
  private answerFlights: AnswerFlights | undefined;

  constructor(
    private readonly settings: Settings,
    private readonly core: Core,
  ) {}

  get baseUrl(): string {
    return this.settings.baseUrl;
  }

  get lang(): Lang {
    return this.settings.lang;
  }

  today(): string {
    return todayJst(this.settings.now());
  }

  now(): number {
    return this.settings.now();
  }

  derived<T extends { clear(): void }>(slot: symbol, make: () => T): T {
    const held = this.core.derived.get(slot);
    if (held !== undefined) return held as T;
    const made = make();
    this.core.derived.set(slot, made);
    return made;
  }

  userToday(): string {
    return todayLocal(this.settings.now());
  }

  peek<O extends OperationId>(opId: O, params: ParamsOf<O>): ResponseOf<O> | undefined {
    return this.fromMemory(opId, params as Record<string, unknown>, NO_OPTIONS) as
      ResponseOf<O> | undefined;
  }

  partition(): string | undefined {
    return this.partitionNow();
  }

  flights(): AnswerFlights {
    return (this.answerFlights ??= new AnswerFlights(this.core.inflight, () =>
      this.partitionNow(),
    ));
  }

  async request<O extends OperationId>(
    opId: O,
    params: ParamsOf<O>,
    options: RequestOptions = {},
  ): Promise<ResponseOf<O>> {
    // Fast path: these exact arguments were validated before and their answer is fresh in the
    // memory tier (a recalculation asks the same company/period/as_of thousands of times).
    const hot = this.fromMemory(opId, params as Record<string, unknown>, options);
    if (hot !== undefined) return hot as ResponseOf<O>;
    // Validation first: invalid input never reaches the network (house style; openapi.json
    // ErrorDetail reasons).
    const raw = (params ?? {}) as Record<string, unknown>;
    // Sector / industry names: their tables are a lazy chunk, fetched by the first such request.
    if (needsIndustryNames(opId, raw)) await loadIndustryNames();
    const clean = validateParams(opId, raw, {
      now: this.settings.now,
    });
    const pending = this.caller();
    const who = pending instanceof Promise ? await pending : pending;
    this.rememberValid(opId, params as Record<string, unknown>, clean, who.id);
    if (options.signal?.aborted) throw new AbortError({ cause: options.signal.reason });
    const body = await this.cached(opId, clean, options, who);
    if (options.staleSink !== undefined && isStale(body)) options.staleSink.stale = true;
    return body as ResponseOf<O>;
  }

  /**
   * The answer for arguments validated before, when their entry is fresh in the memory tier; else
   * undefined (the full path then validates, builds the URL and reads every tier). No allocation
   * beyond the arguments' signature string.
   */
  private fromMemory(
    opId: OperationId,
    params: Record<string, unknown> | undefined,
    options: RequestOptions,
  ): unknown {
    const peek = this.core.store.peek;
    if (peek === undefined || params === undefined || params === null) return undefined;
    const mode = this.settings.cacheOnly ? "only-if-cached" : (options.cache ?? "default");
    if (mode !== "default" && mode !== "only-if-cached") return undefined;
    // Only the current key's answers (key-partition.ts), nothing until its fingerprint is known.
    const id = this.partitionNow();
    if (id === undefined) return undefined;
    const known = this.knownArguments(opId, params, id);
    if (known === undefined) return undefined;
    const entry = peek.call(this.core.store, known.key);
    if (entry === undefined || !this.fresh(opId, known.fetched, entry)) return undefined;
    this.core.stats.cacheHits += 1;
    return entry.body;
  }

  /**
   * What was learned when these arguments were first validated, if they were. For a frozen params
   * object (the same one for thousands of cells) it is kept on the object's behalf, so a lookup is
   * one WeakMap read instead of building and hashing its signature.
   */
  private knownArguments(
    opId: OperationId,
    params: Record<string, unknown>,
    partition: string,
  ): KnownArguments | undefined {
    const frozen = Object.isFrozen(params);
    const held = frozen ? knownByParams.get(params) : undefined;
    if (held !== undefined && held.opId === opId && held.partition === partition) return held.known;
    const signature = argumentSignature(opId, params);
    if (signature === undefined) return undefined;
    const known = this.core.validated.get(partition)?.get(signature);
    if (known !== undefined && frozen) knownByParams.set(params, { opId, partition, known });
    return known;
  }

  /**
   * The partition of the key read synchronously; undefined when there is no key or it can only be
   * read asynchronously (the fast path then answers nothing). Never throws. Reading the key per
   * cell is what makes a changed key miss at once, without waiting for a notification.
   */
  private partitionNow(): string | undefined {
    try {
      const source = this.settings.apiKey;
      const raw = typeof source === "function" ? source() : source;
      if (typeof raw !== "string") return undefined;
      // The key read last time (every warm cell): its id without trimming or hashing again.
      const known = this.core.partitions.current;
      if (known !== undefined && known.raw === raw && known.upstream === this.settings.baseUrl)
        return known.id;
      if (raw.trim() === "") return undefined;
      return this.core.partitions.of(raw, this.settings.baseUrl);
    } catch {
      return undefined;
    }
  }

  /**
   * The key this call sends and its partition (computed once per key and server). No key: the
   * "set a key" error, and nothing is read from the cache (openapi.json bearerAuth: no
   * key is 401).
   */
  private caller(): Caller | Promise<Caller> {
    const source = this.settings.apiKey;
    const read = typeof source === "function" ? source() : source;
    // A key read synchronously is used at once: no extra turn before the cache read.
    return read instanceof Promise ? read.then((raw) => this.callerOf(raw)) : this.callerOf(read);
  }

  private callerOf(raw: string | undefined): Caller {
    const apiKey = raw?.trim();
    if (raw === undefined || apiKey === undefined || apiKey === "")
      throw new AuthenticationError("missing_key");
    rememberSecret(apiKey);
    return { apiKey, id: this.core.partitions.of(raw, this.settings.baseUrl) };
  }

  /** Remembers that these arguments are valid and where their answer is cached. */
  private rememberValid(
    opId: OperationId,
    params: Record<string, unknown> | undefined,
    clean: CleanParams,
    partition: string,
  ): void {
    if (opId === "getUsage" || params === undefined || params === null) return;
    const signature = argumentSignature(opId, params);
    if (signature === undefined) return;
    let byBase = this.core.validated.get(partition);
    if (byBase === undefined) {
      // Bounded: a long session with many distinct arguments starts over rather than grow.
      byBase = new BoundedMemo(MAX_REMEMBERED_ARGUMENTS);
      this.core.validated.set(partition, byBase);
    }
    if (byBase.has(signature)) return;
    byBase.set(signature, { key: `${partition}${cacheKey(opId, clean)}`, fetched: clean });
  }

  /** Cursor paging (paginate.ts, a lazy chunk: pages are network reads, never the warm path). */
  async *paginate<O extends PaginatedOperationId>(
    opId: O,
    query: ParamsOf<O>,
    options: PaginateOptions = {},
  ): AsyncGenerator<ResponseOf<O>, void, undefined> {
    const { paginate } = await loadPaginate();
    yield* paginate<ResponseOf<O>>(
      (q, o) => this.request(opId, q as ParamsOf<O>, o),
      query as Record<string, unknown>,
      options,
    );
  }

  async composed<O extends OperationId>(
    opId: O,
    params: ParamsOf<O>,
    tag: Readonly<Record<string, string>>,
    build: (stored: ResponseOf<O> | undefined, options: RequestOptions) => Promise<ResponseOf<O>>,
    options: RequestOptions = {},
  ): Promise<ResponseOf<O>> {
    const pending = this.caller();
    const who = pending instanceof Promise ? await pending : pending;
    const clean = params as CleanParams;
    const key = composedKey(who.id, opId, clean, tag);
    // As `cached`: "reload" and "no-store" build anew; only "default" serves while due.
    const mode = this.settings.cacheOnly ? "only-if-cached" : (options.cache ?? "default");
    const entry =
      mode === "reload" || mode === "no-store"
        ? undefined
        : await this.storeCall(() => this.core.store.get(key), undefined);
    const stored = entry?.body as ResponseOf<O> | undefined;
    const now = this.settings.now();
    let body: unknown;
    if (entry !== undefined && this.fresh(opId, clean, entry, now)) body = stored;
    else {
      const run = (signal: AbortSignal | undefined, o: RequestOptions) =>
        this.core.inflight.join(`composed ${key}`, signal, async (shared) => {
          const built = await build(stored, { ...o, signal: shared });
          const frozen = freezeAnswer(built);
          await this.storeCall(
            () =>
              this.core.store.set(key, {
                body: frozen,
                storedAt: this.settings.now(),
                bytes: JSON.stringify(built).length,
              }),
            undefined,
          );
          return built;
        });
      body =
        entry !== undefined &&
        mode === "default" &&
        this.settings.staleWhileRevalidate &&
        now - entry.storedAt < MAX_SERVED_WHILE_DUE_MS &&
        now >= entry.storedAt &&
        isRecord(entry.body)
          ? this.serveWhileRevalidating(opId, clean, key, entry, options, who, (sent) =>
              // Only for the key that read it (as refreshDue).
              this.partitionNow() === who.id
                ? run(undefined, { onSent: sent }).then((built) => built !== stored)
                : Promise.reject(new AbortError()),
            )
          : await run(options.signal, options).catch((err: unknown) =>
              this.staleOr(err, key, true),
            );
    }
    if (options.staleSink !== undefined && isStale(body)) options.staleSink.stale = true;
    return body as ResponseOf<O>;
  }

  peekComposed<O extends OperationId>(
    opId: O,
    params: ParamsOf<O>,
    tag: Readonly<Record<string, string>>,
  ): ResponseOf<O> | undefined {
    // As fromMemory: the memory tier, the current key's partition, and `composed`'s own test of a
    // fresh entry. A cache-only copy reads it too: it is an answer from the cache, asking nothing.
    const peek = this.core.store.peek;
    if (peek === undefined) return undefined;
    const id = this.partitionNow();
    if (id === undefined) return undefined;
    const clean = params as CleanParams;
    const entry = peek.call(this.core.store, composedKey(id, opId, clean, tag));
    if (entry === undefined || !this.fresh(opId, clean, entry)) return undefined;
    return entry.body as ResponseOf<O>;
  }

  /**
   * Whether a cached entry is fresh: by the filing calendar and the close (freshness.ts), or by
   * the plain TTL for an operation given an explicit `ttlMs` override.
   */
  private fresh(
    opId: OperationId,
    clean: CleanParams,
    entry: CacheEntry,
    now: number = this.settings.now(),
  ): boolean {
    const override = this.settings.ttlMs[opId];
    if (now < entry.storedAt) return this.freshAfterStepBack(opId, clean, entry, now);
    if (override !== undefined) return isFresh(entry.storedAt, override, now);
    // Decided once per entry object and kept on it: a warm cell compares one number to now.
    const until =
      entry.freshBasis?.moved === false && entry.freshUntil !== undefined
        ? entry.freshUntil
        : this.freshUntil(opId, clean, entry);
    return now < until;
  }

  /**
   * An answer stored "after" now: the computer's clock was set back since. Up to
   * MAX_CLOCK_STEP_BACK_MS back (a wrong zone or daylight saving, a day set by hand and put
   * right) it counts as received now, so a clock fault sends nothing again; further back its age
   * is unknown (a clock that ran a year ahead would keep it fresh for a year) and it is asked.
   */
  private freshAfterStepBack(
    opId: OperationId,
    clean: CleanParams,
    entry: CacheEntry,
    now: number,
  ): boolean {
    if (entry.storedAt - now > MAX_CLOCK_STEP_BACK_MS) return false;
    const override = this.settings.ttlMs[opId];
    if (override !== undefined) return isFresh(now, override, now);
    return (
      now < this.freshUntil(opId, clean, { body: entry.body, storedAt: now, bytes: entry.bytes })
    );
  }

  /**
   * An entry's expiry, decided and kept on it. Apart from `fresh`: the closure here captures
   * `this`, and V8 makes that context when the declaring function is entered, which cost every
   * warm cell's `fresh` an allocation.
   */
  private freshUntil(opId: OperationId, clean: CleanParams, entry: CacheEntry): number {
    // Its company's expected results day is being looked up: not fresh until it is known, and
    // nothing decided or started again (a reopen's cells read the entry thousands of times).
    if (entry.dayLookUp !== undefined) return 0;
    const id = this.partitionNow() ?? "";
    const life = entryLifetime(entry, opId, clean, ttlFor(opId), () => this.knowledge(id));
    // Not looked up yet: not fresh here, so the cell takes the full path, which waits for the
    // look-up (`cached`).
    if (life.provisional === true) {
      void this.dayLookUp(life, clean, entry, id);
      return 0;
    }
    entry.freshBasis = basisOf(life.company);
    return (entry.freshUntil = life.freshUntil);
  }

  /**
   * The look-up `life` awaits for `entry`, one per entry: started by its first read, joined by the
   * reads after it (`cached` waits for it) and by `idle` (revalidator.ts `expect`), forgotten when
   * it settles; the entry's lifetime is then decided at its next read. Undefined when the lifetime
   * awaits nothing.
   */
  private dayLookUp(
    life: Lifetime,
    clean: CleanParams,
    entry: CacheEntry,
    id: string,
  ): Promise<void> | undefined {
    const pending = entry.dayLookUp;
    if (pending !== undefined || life.awaits === undefined) return pending;
    const looking = this.resultsDayFor(life, clean, entry, id).finally(() => {
      entry.dayLookUp = undefined;
    });
    entry.dayLookUp = looking;
    this.core.revalidator.expect(looking);
    return looking;
  }

  /**
   * What freshness.ts reads of the partition's companies: code pairs, year ends and, for a client
   * that revalidates in the background (the add-in's session), expected results days; without it
   * due answers are asked by the cells themselves and keep the window's cadence.
   */
  private knowledge(id: string): CompanyKnowledge {
    const known = this.core.codes.knowledge(id);
    const days = this.core.resultsDays;
    if (this.settings.staleWhileRevalidate)
      known.dailyChecksFrom = (company, period) => days.now?.dailyChecksFrom(id, company, period);
    return known;
  }

  /**
   * A filing answer's company's expected results day, looked up before the answer's lifetime is
   * decided (src/client/results-day-history.ts: the stored history, else the cadence while one
   * background request asks it). The code failing to load leaves the cadence.
   */
  private async resultsDayFor(
    life: Lifetime,
    clean: CleanParams,
    entry: CacheEntry,
    id: string,
  ): Promise<void> {
    if (life.awaits === undefined) return;
    const days = this.core.resultsDays;
    try {
      await (await loadResultsDays()).lookUpFor(days, this, id, life, clean, entry.body);
    } catch {
      // The code could not load: every company keeps the window's cadence this session.
      days.now = { dailyChecksFrom: () => null };
      lifetimesMoved();
    }
  }

  async stored<O extends OperationId>(
    opId: O,
    test: (query: URLSearchParams) => boolean,
  ): Promise<ResponseOf<O> | undefined> {
    const pending = this.caller();
    const { id } = pending instanceof Promise ? await pending : pending;
    const { store } = this.core;
    const prefix = `${id}${OPERATIONS[opId].path}?`;
    for (const key of await this.storeCall(() => store.keys(), [] as string[])) {
      if (!key.startsWith(prefix) || !test(new URLSearchParams(key.slice(prefix.length)))) continue;
      const entry = await this.storeCall(() => store.get(key), undefined);
      if (isRecord(entry?.body)) return entry.body as ResponseOf<O>;
    }
    return undefined;
  }

  learnCode(security: string, edinet: string): void {
    const id = this.partitionNow();
    if (id !== undefined) this.remember(security, edinet, id);
  }

  knownCode(kind: "edinet_code" | "security_code", of: string): string | undefined {
    const id = this.partitionNow();
    if (id === undefined) return undefined;
    return kind === "edinet_code"
      ? this.core.codes.edinetOf(id, of)
      : this.core.codes.securityOf(id, of);
  }

  async invalidateAll(): Promise<void> {
    // The cells ask everything anew: queued background requests would send it all a second time.
    this.core.revalidator.clear();
    this.core.codes.clear();
    this.core.notFound.now?.clear();
    for (const state of this.core.derived.values()) state.clear();
    await this.core.store.clear();
  }

  async forgetKey(): Promise<void> {
    const { core } = this;
    const source = this.settings.apiKey;
    const raw = typeof source === "function" ? await source() : source;
    await this.storeCall(async () => core.store.clearMemory?.(), undefined);
    for (const state of core.derived.values()) state.clear();
    core.notFound.now?.clear();
    if (raw === undefined || raw.trim() === "") return;
    // The partition of the server in use even when this session has not asked it yet.
    const ids = core.partitions.idsOf(raw, this.settings.baseUrl);
    core.partitions.forget(raw);
    for (const id of ids) core.holds.now?.lift(id);
    const owned = (key: string) => ids.some((id) => key.startsWith(id));
    for (const id of ids) core.validated.delete(id);
    core.codes.forget(ids);
    const keys = await this.storeCall(() => core.store.keys(), [] as string[]);
    for (const key of keys) {
      if (owned(key)) await this.storeCall(() => core.store.delete(key), undefined);
    }
  }

  stats(): ClientStats {
    return { ...this.core.stats };
  }

  setApiKey(apiKey: ApiKeySource): void {
    this.settings.apiKey = apiKey;
    if (typeof apiKey === "string") rememberSecret(apiKey);
  }

  setBaseUrl(baseUrl: string): void {
    this.settings.baseUrl = normalizeBaseUrl(baseUrl);
  }

  withOptions(partial: ClientOptions): KaishaClient {
    const settings = mergeSettings(this.settings, partial);
    const core: Core = {
      ...this.core,
      ...(partial.cacheStore !== undefined
        ? {
            store: partial.cacheStore,
            inflight: workOver(partial.cacheStore, this.core.stats),
            partitions: partitionsOf(partial.cacheStore),
            notFound: { now: undefined },
          }
        : {}),
      ...(partial.ratePerMinute !== undefined &&
      partial.ratePerMinute !== this.core.pacer.ratePerMinute
        ? {
            pacer: pacerBox({
              ratePerMinute: partial.ratePerMinute,
              now: settings.clock,
              wallNow: settings.now,
              sleep: settings.sleep,
            }),
          }
        : {}),
    };
    return clientOf(settings, core);
  }

  message(err: unknown): string {
    return localizedMessage(err, this.settings.lang);
  }

  queueStatus(): QueueStatus {
    // No pacer yet: no request has asked for a turn, so none waits (Pacer.status of an empty queue).
    return this.core.pacer.now?.status() ?? { waiting: 0, inFlight: 0, estimatedWaitMs: 0 };
  }

  onQueueChange(listener: (s: QueueStatus) => void): () => void {
    const box = this.core.pacer;
    if (box.now !== undefined) return box.now.onChange(listener);
    let off: (() => void) | undefined;
    const subscribe = (pacer: Pacer): void => {
      off = pacer.onChange(listener);
    };
    box.early.add(subscribe);
    return () => {
      box.early.delete(subscribe);
      off?.();
    };
  }

  cancelQueued(): number {
    return this.core.pacer.now?.cancelQueued() ?? 0;
  }

  revalidation(): Revalidator {
    return this.core.revalidator;
  }

  prioritize(test: ((address: string) => boolean) | undefined): void {
    const box = this.core.pacer;
    box.focus = test;
    box.now?.prioritize(test);
    this.core.revalidator.prioritize(test);
  }

  sendState(): SendState | undefined {
    return this.core.holds.now?.stateOf(this.partitionNow());
  }

  onSendStateChange(listener: () => void): () => void {
    const { listeners } = this.core.holds;
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }

  resumeSending(): void {
    const id = this.partitionNow();
    // The daily limit does not lift by entering the key again (/usage or the JST day lift it).
    const holds = this.core.holds.now;
    if (id !== undefined && holds?.stateOf(id)?.reason === "key_refused") holds.lift(id);
  }

  private remember(security: string, edinet: string, partition: string): void {
    this.core.codes.learn(partition, security, edinet);
  }

  /** A failing cache store must never fail a request: it only costs the cache. */
  private async storeCall<T>(fn: () => Promise<T>, fallback: T): Promise<T> {
    try {
      return await fn();
    } catch {
      return fallback;
    }
  }

  /** Cache read, in-flight sharing, then the network; stale fallback on transient failures. */
  private async cached(
    opId: OperationId,
    clean: CleanParams,
    options: RequestOptions,
    who: Caller,
  ): Promise<unknown> {
    // A cache-only copy never sends, whatever the call asks ("no-store" included).
    const mode = this.settings.cacheOnly ? "only-if-cached" : (options.cache ?? "default");
    // openapi.json getUsage: usage is the live remaining count; a cached one would mislead.
    const cacheable = opId !== "getUsage";
    // The partition first, so neither the cache nor a request in flight crosses keys.
    const key = `${who.id}${cacheKey(opId, clean)}`;
    const now = this.settings.now();
    if (cacheable && (mode === "default" || mode === "only-if-cached")) {
      const entry = await this.storeCall(() => this.core.store.get(key), undefined);
      // Its lifetime waits for its company's expected results day: the entry's one look-up.
      const looking =
        entry !== undefined && isFilingOperation(opId)
          ? this.dayLookUp(
              entryLifetime(entry, opId, clean, ttlFor(opId), () => this.knowledge(who.id)),
              clean,
              entry,
              who.id,
            )
          : undefined;
      if (looking !== undefined) await looking;
      if (entry !== undefined && this.fresh(opId, clean, entry, now)) {
        this.core.stats.cacheHits += 1;
        return entry.body;
      }
      if (
        entry !== undefined &&
        mode === "default" &&
        this.settings.staleWhileRevalidate &&
        now >= entry.storedAt &&
        now - entry.storedAt < MAX_SERVED_WHILE_DUE_MS &&
        isRecord(entry.body)
      )
        return this.serveWhileRevalidating(opId, clean, key, entry, options, who);
    }
    // A 404 given for this request still stands: the same answer without spending a request.
    const gone = mode === "no-store" ? undefined : this.core.notFound.now?.recall(key, now);
    if (gone !== undefined) throw gone;
    if (mode === "only-if-cached") throw new NotCachedError();
    const flightKey = `${mode === "no-store" ? "no-store " : ""}${key}`;
    // What may be stored may stand in later (usage and "no-store" calls neither).
    const mayServeStale = cacheable && mode !== "no-store";
    const join = (signal: AbortSignal | undefined) =>
      this.core.inflight.join(flightKey, signal, (shared) =>
        this.fetchAndStore(opId, clean, { ...options, signal: shared }, who, key, mayServeStale),
      );
    // A request another cell started settles within that cell's bound (pauses give up at once
    // for all who wait on it, with the last good answer).
    const address = options.staleSink?.address;
    if (address === undefined || !mayServeStale) return join(options.signal);
    // A cell that gave up (its bound passed: a 429 pause longer than it, the API's slowness)
    // shows its last good answer or "still waiting", and is recalculated when the answer arrives.
    return join(options.signal).then(
      (body) => {
        if (staleInfo(body)?.error instanceof DeadlineError)
          this.askForGaveUp(opId, clean, key, who, address);
        return body;
      },
      (err: unknown) => {
        if (err instanceof DeadlineError) this.askForGaveUp(opId, clean, key, who, address);
        throw err;
      },
    );
  }

  /**
   * Asks once more, for the cells that gave up on `key`, the request they waited for: with no
   * bound of its own (it waits out the queue and any pause; each attempt keeps its timeout and
   * the retry policy), and, when a good answer is stored, has those cells recalculated. A
   * failure leaves them as they are: recalculating them would only send the failing request
   * again.
   */
  private askForGaveUp(
    opId: OperationId,
    clean: CleanParams,
    key: string,
    who: Caller,
    address: string,
  ): void {
    // Only for the key that asked: after Forget or a key change nothing is sent for the old one.
    if (this.partitionNow() !== who.id) return;
    // The send chunk is loaded already: the call gave up on a request it sent.
    void loadSend().then(
      (code) => {
        const gaveUp = (this.core.gaveUp.now ??= new code.GaveUpCells());
        if (!gaveUp.add(key, address)) return;
        void this.cached(opId, clean, { deadlineMs: 0 }, who).then(
          (body) => {
            const cells = gaveUp.take(key);
            if (!isStale(body)) this.core.revalidator.recalculate(cells);
          },
          () => gaveUp.take(key),
        );
      },
      () => undefined,
    );
  }

  /** One request for everyone waiting on `key`: sent, checked, stored; stale when it fails. */
  private async fetchAndStore(
    opId: OperationId,
    clean: CleanParams,
    options: RequestOptions,
    who: Caller,
    key: string,
    mayServeStale: boolean,
  ): Promise<unknown> {
    try {
      // The check is a lazy chunk, fetched while the request is under way (sending never waits).
      const check = loadAnswerCheck();
      check.catch(() => undefined);
      const result = await this.send(opId, clean, options, who);
      const { checkAnswer, codePairsIn } = await check;
      // Checked before anyone reads it: missing fields, non-finite numbers, over-long strings.
      const body = freezeAnswer(checkAnswer(opId, result.body, this.settings.checkAnswers));
      for (const [security, edinet] of codePairsIn(opId, body))
        this.remember(security, edinet, who.id);
      const remaining = (body as { remaining?: unknown }).remaining;
      if (opId === "getUsage" && typeof remaining === "number") {
        this.core.stats.lastUsageRemaining = remaining;
        // openapi.json getUsage: requests remain today, or none do (send-state.ts).
        this.core.holds.now?.noteUsage(who.id, remaining);
      }
      if (mayServeStale) {
        const entry = { body, storedAt: this.settings.now(), bytes: result.bytes };
        await this.storeCall(() => this.core.store.set(key, entry), undefined);
        // Its lifetime decided now: a company's results day is looked up at once (`freshUntil`),
        // so it is known before the answer comes due and the next open reads it from the store.
        if (isFilingOperation(opId)) this.fresh(opId, clean, entry);
      }
      return body;
    } catch (caught) {
      if (!(caught instanceof NotFoundError)) return this.staleOr(caught, key, mayServeStale);
      // A 404 came from the exchange, whose chunk brings not-found.ts (loaded: it was sent).
      const { NotFoundMemory, namedNotFound } = await loadSend();
      // A 404 says which code or id it is about (the API's text is English only).
      const err = namedNotFound(caught, clean);
      if (err.code === "not_found" && opId !== "getUsage")
        (this.core.notFound.now ??= new NotFoundMemory()).remember(
          key,
          opId,
          err,
          this.settings.now(),
        );
      return this.staleOr(err, key, mayServeStale);
    }
  }

  /** The last good answer under `key`, marked stale, when `err` allows one; else `err` thrown. */
  private async staleOr(err: unknown, key: string, mayServeStale: boolean): Promise<unknown> {
    const standsIn = canServeStale(err) || this.core.holds.now?.standsIn(err) === true;
    if (mayServeStale && standsIn && err instanceof KaishaError) {
      const entry = await this.storeCall(() => this.core.store.get(key), undefined);
      if (entry !== undefined && isRecord(entry.body)) {
        this.core.stats.staleServed += 1;
        return markStale(entry.body, { error: err, storedAt: entry.storedAt });
      }
    }
    throw err;
  }

  /**
   * The call's deadline, shared by every request of one cell's invocation (`RequestOptions.call`),
   * else this request's own.
   */
  private deadlineOf(options: RequestOptions, Made: typeof Deadline): Deadline {
    const ms = options.deadlineMs ?? this.settings.deadlineMs;
    const scope = options.call;
    if (scope === undefined) return new Made(ms, this.settings.clock);
    scope.deadline ??= new Made(ms, this.settings.clock);
    return scope.deadline;
  }

  /**
   * The pacer's grant within the deadline (deadline.ts). The wait in the add-in's own queue is not
   * counted, a 429 pause another call drew included (a cold model queues for minutes without any
   * fault, and the pane shows the queue); only the pauses this call's own 429s drew count
   * (`Deadline.countUntil`). A pause that alone outlasts the call's bound gives up at once, so a
   * cell with a last good answer shows it instead of #BUSY! (Retry-After 9999). A retry goes to
   * the head of the queue: behind hundreds of queued requests its counted wait would never end.
   */
  private turn(
    pacer: Pacer,
    deadline: Deadline,
    signal: AbortSignal | undefined,
    firstAttempt: boolean,
    place?: QueuePlace,
  ): Promise<PacerPermit> {
    const resume = deadline.hold();
    const granted = deadline.bound(
      (waitSignal, arm) =>
        pacer.acquire(
          waitSignal,
          (pausedUntil) => {
            if (deadline.outlastedBy(pausedUntil)) arm(true);
          },
          !firstAttempt,
          place,
        ),
      signal,
      (unsent) => unsent.done(),
    );
    // No extra turn for a call's first request (nothing held): most requests are that one.
    return resume === undefined ? granted : granted.finally(resume);
  }

  /** The pacer, made on first use with the send chunk's class (see `Core.pacer`). */
  private pacerWith(Made: typeof Pacer): Pacer {
    const box = this.core.pacer;
    if (box.now === undefined) {
      const pacer = (box.now = new Made(box.options));
      if (box.focus !== undefined) pacer.prioritize(box.focus);
      for (const subscribe of box.early) subscribe(pacer);
      box.early.clear();
    }
    return box.now;
  }

  /** The keys' send state, made on first use with the send chunk's class (see `Core.holds`). */
  private holdsWith(Made: typeof SendHolds): SendHolds {
    const box = this.core.holds;
    if (box.now === undefined) {
      box.now = new Made(this.settings.now, this.settings.clock);
      box.now.onChange(() => {
        for (const listener of [...box.listeners]) listener();
      });
    }
    return box.now;
  }

  /**
   * `turn` for a key that may be held (send-state.ts): refused before the wait, released from the
   * wait when the key is held meanwhile, and refused at the grant (the permit goes back unsent).
   * /usage waits with the caller's signal alone: a daily hold does not stop it.
   */
  private async heldTurn(
    code: SendCode,
    pacer: Pacer,
    holds: SendHolds,
    deadline: Deadline,
    signal: AbortSignal | undefined,
    firstAttempt: boolean,
    opId: OperationId,
    who: Caller,
    place?: QueuePlace,
  ): Promise<PacerPermit> {
    const before = holds.refusal(who.id, opId);
    if (before !== undefined) throw before;
    const stop = opId === "getUsage" ? undefined : holds.signalOf(who.id);
    const linked = stop === undefined ? undefined : code.linkSignals(signal, stop);
    let permit: PacerPermit;
    try {
      permit = await this.turn(pacer, deadline, linked?.signal ?? signal, firstAttempt, place);
    } catch (err) {
      throw holds.refusal(who.id, opId) ?? err;
    } finally {
      linked?.release();
    }
    const after = holds.refusal(who.id, opId);
    if (after === undefined) return permit;
    permit.done();
    throw after;
  }

  /**
   * A due answer answers at once (stale-while-revalidate) and is queued to be asked again in the
   * background. It is marked stale only where its data can have changed (freshness.ts
   * `changeExpected`: a filing window open, a close since); the cell is recalculated when the
   * answer comes back changed, or to drop the mark.
   */
  private serveWhileRevalidating(
    opId: OperationId,
    clean: CleanParams,
    key: string,
    entry: CacheEntry,
    options: RequestOptions,
    who: Caller,
    refresh: (sent?: () => void) => Promise<boolean> = (sent) =>
      this.refreshDue(opId, clean, entry, who, sent),
  ): unknown {
    const life = entryLifetime(entry, opId, clean, ttlFor(opId), () => this.knowledge(who.id));
    const revalidator = this.core.revalidator;
    revalidator.schedule(
      {
        key,
        company: life.company,
        filing: isFilingOperation(opId),
        rank: revalidationRank(opId, clean),
        storedAt: entry.storedAt,
        refresh,
        touch: () =>
          this.storeCall(
            // A new entry object: its expiry is decided anew from the new storedAt.
            () =>
              this.core.store.set(key, {
                body: entry.body,
                storedAt: this.settings.now(),
                bytes: entry.bytes,
              }),
            undefined,
          ),
      },
      options.staleSink?.address,
      life.changeExpected,
    );
    this.core.stats.cacheHits += 1;
    // Its last refresh was refused (an answer of another shape): marked with that reason.
    const failed = revalidator.failure(key);
    const body =
      failed instanceof BadResponseError
        ? markStale(entry.body as object, { error: failed, storedAt: entry.storedAt })
        : life.changeExpected
          ? markStale(entry.body as object, {
              error: revalidatingNotice(),
              storedAt: entry.storedAt,
            })
          : entry.body;
    revalidator.rememberServed(body, key);
    return body;
  }

  /**
   * Asks a due answer again (stored as any answer is); true when it differs from `old`. Only for
   * the key that read it: after Forget or a key change the old key's answers are not refreshed.
   */
  private async refreshDue(
    opId: OperationId,
    clean: CleanParams,
    old: CacheEntry,
    who: Caller,
    sent?: () => void,
  ) {
    if (this.partitionNow() !== who.id) throw new AbortError();
    const body = await this.cached(opId, clean, { cache: "reload", onSent: sent }, who);
    // The stale fallback answered: the request failed, nothing was learned.
    if (isStale(body)) throw staleInfo(body)?.error ?? new BadResponseError("revalidation failed");
    // The request left, so the send chunk (which carries the comparison) is loaded.
    return !(await loadSend()).sameAnswer(body, old.body);
  }

  /**
   * A cell's request's place in the pacer's queue (queue-order.ts): its company and the calling
   * cell. The company by security code, as company-resolver.ts asks (an EDINET code when no
   * security code is known for it), so one company's requests count once in the queue view. None
   * for a request of no cell or of no company: it keeps its arrival order.
   */
  private placeOf(
    clean: CleanParams,
    options: RequestOptions,
    who: Caller,
  ): QueuePlace | undefined {
    const address = options.staleSink?.address ?? options.cell;
    if (address === undefined) return undefined;
    const named = (v: unknown): v is string => typeof v === "string" && v !== "";
    const security = [clean.security_code, clean.code].find(named);
    if (security !== undefined) return { group: security, address };
    const edinet = clean.edinet_code;
    if (!named(edinet)) return undefined;
    return { group: this.core.codes.securityOf(who.id, edinet) ?? edinet, address };
  }

  /**
   * Pacing, the HTTP exchange and bounded retries (retry.ts owns the policy). Nothing is sent for a
   * held key (send-state.ts): checked before each turn and again at the grant, and a hold placed
   * while the request waits for its turn releases it at once.
   */
  private async send(
    opId: OperationId,
    clean: CleanParams,
    options: RequestOptions,
    who: Caller,
  ): Promise<HttpResult> {
    const { apiKey } = who;
    const { settings, core } = this;
    const maxRetries = Math.max(0, options.maxRetries ?? settings.maxRetries);
    const url = buildUrl(settings.baseUrl, OPERATIONS[opId].path, clean);
    // The exchange's code, before any turn is taken: a failed load spends nothing.
    const code = await loadSend();
    const { sendRequest, retryDelayMs } = code;
    const holds = this.holdsWith(code.SendHolds);
    const pacer = this.pacerWith(code.Pacer);
    const deadline = this.deadlineOf(options, code.Deadline);
    const place = this.placeOf(clean, options, who);
    // Every attempt sends the key the call's partition belongs to (its answer is stored there).
    for (let attempt = 0; ; attempt += 1) {
      const permit = await this.heldTurn(
        code,
        pacer,
        holds,
        deadline,
        options.signal,
        attempt === 0,
        opId,
        who,
        place,
      );
      deadline.start();
      // The token is spent now, when the request leaves, not when it was granted (pacer.ts).
      permit.sent();
      core.stats.requestsSent += 1;
      try {
        options.onSent?.();
        settings.onRequest?.({ operationId: opId, method: "GET", url, attempt });
      } catch {
        // An observer must not break requests.
      }
      try {
        return await sendRequest({
          url,
          apiKey,
          fetch: settings.fetch,
          timeoutMs: deadline.attemptTimeout(options.timeoutMs ?? settings.timeoutMs),
          nowMs: settings.now(),
          ...(options.signal !== undefined ? { signal: options.signal } : {}),
        });
      } catch (err) {
        // The daily limit or a refused key holds the key: this request says so (when sending
        // resumes), and nothing more is sent with it.
        holds.note(who.id, err);
        const held = holds.refusal(who.id, opId);
        if (held !== undefined) throw held;
        const retryAfterMs = err instanceof KaishaError ? err.retryAfterMs : undefined;
        // A per-minute 429 pauses the shared pacer, so every waiting request holds back, not
        // only this one (the daily limit does not clear by waiting).
        const perMinute429 = err instanceof RateLimitError && !err.daily;
        if (perMinute429) deadline.countUntil(pacer.pause(retryAfterMs));
        if (deadline.expired() && !(err instanceof AbortError)) throw deadline.error(err);
        if (attempt >= maxRetries || !shouldRetry(err)) throw err;
        const delayMs = retryDelayMs(attempt, retryAfterMs, settings.random);
        // A retry that could not start before the deadline is not waited for: the failure stands.
        if (!deadline.allowsRetryAfter(delayMs)) throw err;
        core.stats.retries += 1;
        // After a 429 the pacer's pause is the wait; other failures back off alone.
        if (!perMinute429) await settings.sleep(delayMs, options.signal);
      } finally {
        permit.done();
      }
    }
  }
}

defineOperationMethods(Client.prototype);

/** A Client with its per-operation methods (defined on its prototype from OPERATIONS). */
function clientOf(settings: Settings, core: Core): KaishaClient {
  return new Client(settings, core) as unknown as KaishaClient;
}

/** Where a validated argument list's answer lives. */
interface KnownArguments {
  key: string;
  /** The validated parameters of the request cached (freshness reads them). */
  fetched: CleanParams;
}

const MAX_REMEMBERED_ARGUMENTS = 200_000;

/**
 * A due answer older than this is not shown while it is asked again: the cell waits for the API
 * (a workbook reopened after a month should not show month-old figures first). @unit ms
 */
const MAX_SERVED_WHILE_DUE_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * How far the clock may have been set back with stored answers still counted fresh
 * (`freshAfterStepBack`): daylight saving, a wrong zone, a day set by hand. @unit ms
 */
const MAX_CLOCK_STEP_BACK_MS = 36 * 60 * 60 * 1000;

/** KnownArguments of frozen params objects, by the object (see `knownArguments`). */
const knownByParams = new WeakMap<
  object,
  { opId: OperationId; partition: string; known: KnownArguments }
>();

/**
 * A client's one map of work under way over `store`, which the store's own work (the tiered
 * store's persistent reads) joins; a caller finding a request under way counts as coalesced.
 */
function workOver(store: CacheStore, stats: ClientStats): InFlightRequests {
  const work = new InFlightRequests({ onCoalesced: () => (stats.coalesced += 1) });
  store.shareWork?.(work);
  return work;
}

/** Partitions over `store`: a change of key empties its memory tier (key-partition.ts). */
function partitionsOf(store: CacheStore): KeyPartitions {
  return new KeyPartitions(() => {
    const cleared = store.clearMemory?.();
    cleared?.catch(() => undefined);
  });
}

/**
 * The raw arguments as one string ("name=value" in the caller's order), or undefined when one is
 * not a primitive. Two calls with equal signatures validate to the same request.
 */
function normalizeBaseUrl(baseUrl: string): string {
  return baseUrl.trim().replace(/\/+$/, "");
}

function mergeSettings(base: Settings | undefined, options: ClientOptions): Settings {
  const pick = <K extends keyof Settings>(key: K, fallback: Settings[K]): Settings[K] =>
    (options as Partial<Settings>)[key] ?? base?.[key] ?? fallback;
  const apiKey = "apiKey" in options ? options.apiKey : base?.apiKey;
  if (typeof apiKey === "string") rememberSecret(apiKey);
  return {
    baseUrl: normalizeBaseUrl(options.baseUrl ?? base?.baseUrl ?? PRODUCTION_BASE_URL),
    apiKey,
    fetch: pick("fetch", defaultFetch),
    timeoutMs: pick("timeoutMs", DEFAULT_TIMEOUT_MS),
    maxRetries: pick("maxRetries", DEFAULT_MAX_RETRIES),
    deadlineMs: pick("deadlineMs", DEFAULT_DEADLINE_MS),
    ttlMs: { ...base?.ttlMs, ...options.ttlMs },
    now: pick("now", Date.now),
    // A harness that moves `now` alone (a virtual clock, bench/virtual-clock.ts) drives both.
    clock: options.clock ?? (options.now !== undefined ? options.now : base?.clock) ?? monotonicNow,
    lang: pick("lang", "ja"),
    onRequest: options.onRequest ?? base?.onRequest,
    sleep: pick("sleep", defaultSleep),
    random: pick("random", Math.random),
    cacheOnly: pick("cacheOnly", false),
    checkAnswers: pick("checkAnswers", false),
    staleWhileRevalidate: pick("staleWhileRevalidate", false),
    revalidationSettleMs: pick("revalidationSettleMs", 0),
  };
}

/**
 * The cache key of a `composed` answer for partition `id`: its parameters and its `tag`, which no
 * request has (openapi.json), so no request's answer is ever read as it.
 */
function composedKey(
  id: string,
  opId: OperationId,
  clean: CleanParams,
  tag: Readonly<Record<string, string>>,
): string {
  return `${id}${cacheKey(opId, { ...clean, ...tag })}`;
}

/**
 * Creates a client. Every option is optional; see `ClientOptions` for defaults.
 *
 * @example
 * const client = createClient({ baseUrl: SANDBOX_BASE_URL, apiKey: () => key });
 * const body = await client.financials({ security_code: "7203", period: "annual", years: 10 });
 */
export function createClient(options: ClientOptions = {}): KaishaClient {
  const settings = mergeSettings(undefined, options);
  const stats: ClientStats = {
    requestsSent: 0,
    cacheHits: 0,
    coalesced: 0,
    retries: 0,
    staleServed: 0,
    lastUsageRemaining: null,
  };
  const store = options.cacheStore ?? new MemoryCacheStore();
  const core: Core = {
    store,
    partitions: partitionsOf(store),
    pacer: pacerBox({
      ratePerMinute: options.ratePerMinute ?? 60,
      now: settings.clock,
      wallNow: settings.now,
      sleep: settings.sleep,
    }),
    inflight: workOver(store, stats),
    stats,
    codes: new CodeRegistry(),
    validated: new Map(),
    derived: new Map(),
    gaveUp: { now: undefined },
    revalidator: undefined as unknown as Revalidator,
    notFound: { now: undefined },
    holds: { now: undefined, listeners: new Set() },
    resultsDays: { now: undefined },
  };
  const client = clientOf(settings, core);
  core.revalidator = new Revalidator({
    now: settings.now,
    intervalMs: () => (core.pacer.ratePerMinute > 0 ? 60_000 / core.pacer.ratePerMinute : 0),
    settleMs: settings.revalidationSettleMs,
    dailyBudget: options.revalidationDailyBudget,
    ledger: options.revalidationLedger,
    sleep: (ms, signal) => settings.sleep(ms, signal),
    // The background pauses while the key is held, counting nothing (send-state.ts).
    held: () => client.sendState()?.reason,
    // openapi.json: an answer of another shape is no figure; the stored one is shown marked.
    shown: (err) => err instanceof BadResponseError,
  });
  core.holds.listeners.add(() => core.revalidator.sendingChanged());
  return client;
}
