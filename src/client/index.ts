// The one door into src/client/: everything outside the folder imports the client from here (eslint.config.mjs
// kaisha/client-door). Re-exports only: webpack.config.js marks this file side-effect free, so an import through
// it pulls in just the module that defines the name, and a lazy chunk's code (send, cache-disk) stays in its chunk.

export { createClient, PRODUCTION_BASE_URL, SANDBOX_BASE_URL, type KaishaClient } from "./client";
export type {
  CallScope,
  PaginatedOperationId,
  ParamsOf,
  RequestOptions,
  ResponseOf,
} from "./types";
export {
  AbortError,
  AuthenticationError,
  BadResponseError,
  NotCachedError,
  NotFoundError,
  RateLimitError,
  ValidationError,
  isKaishaError,
  localizedMessage,
  type KaishaError,
} from "./errors";
export { localTime } from "./messages";
export { normalizeCompany } from "./normalize";
export { EARLIEST_DATE, loadIndustryNames, needsIndustryNames, validateParams } from "./validate";
export { isHeaderSafeKey } from "./http";
export { DEFAULT_DEADLINE_MS } from "./deadline-bound";
export { loadStoredCheck } from "./network-code";
export { lazyCode } from "./lazy-code";
export { leaveWaiting, type Flight } from "./inflight";
export type { SendState } from "./send-state";

// Answers, their freshness and the cache tiers.
export { isStale, markStale, staleInfo } from "./stale";
export { DEFAULT_TTL_MS } from "./ttl";
export { nextClose, pricesExpiry } from "./freshness";
export { MemoryCacheStore, cacheKey, type CacheEntry, type CacheStore } from "./cache";
export { TieredCacheStore } from "./tiered-cache";
export { LazyPersistentStore } from "./lazy-persistent-store";
export { PersistentCacheStore } from "./persistent-store";
export { openIdbBackend } from "./idb-backend";
export { hasCompression, platformIndexedDb } from "./storage-platform";
export { warmMemoryTier } from "./warm-up";

// The background revalidation queue.
export {
  DEFAULT_DAILY_BUDGET,
  REVALIDATION_SETTLE_MS,
  Revalidator,
  type BudgetLedger,
  type RevalidationStatus,
  type SpentRecord,
} from "./revalidator";

/** @internal Seams for bench/ and tests outside test/client/: the client's options and its fetch. */
export type { ClientOptions } from "./types";
/** @internal The fetch a test or the bench injects (http.ts). */
export type { FetchLike, ResponseLike } from "./http";
/** @internal The bench loads the results-day look-up's code before it measures (bench/reopen-child.ts). */
export { loadResultsDays } from "./network-code";
/** @internal The bench's own pacer and clock (bench/naive-client.ts, bench/realclock-run.ts). */
export { Pacer } from "./pacer";
/** @internal See above. */
export { defaultSleep, type Sleep } from "./sleep";
/** @internal The bench's browser run reads the cache database by its name and partition. */
export { CACHE_DB_NAME } from "./idb-backend";
/** @internal See above. */
export { fingerprint } from "./key-partition";
/** @internal The stored form, read and written by the bench's reopen and by storage tests. */
export { parseStoredForm, storedSize, toStoredForm } from "./stored-form";
/** @internal See above. */
export { gunzipBytes, useNativeCompression } from "./compress";
/** @internal See above. */
export { decodeUtf8 } from "./utf8";
/** @internal See above. */
export { STORAGE_OPEN_TIMEOUT_MS } from "./storage-platform";
/** @internal See above (the bench checks which version stored its saved storage). */
export { storedStamp } from "./stored-stamp";
/** @internal See above. */
export type { Batch, IndexRow, PersistentBackend, StoredRecord } from "./persistent-store";
/** @internal Tests assert on the texts users see and on answers as the client freezes them. */
export { MESSAGES } from "./messages";
/** @internal See above. */
export { freezeAnswer } from "./shared-parts";
/** @internal See above. */
export { CUT_MARKER, EXCEL_MAX_TEXT } from "./response-check";
/** @internal See above. */
export type { RevalidationTask } from "./revalidator";
