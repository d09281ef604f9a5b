// The one door into src/client/: everything outside the folder imports the client from here (eslint.config.mjs
// kaisha/client-door). Re-exports only: webpack.config.js marks this file side-effect free, so an import through
// it pulls in just the module that defines the name, and a lazy chunk's code (send, cache-disk) stays in its chunk.

export { createClient, PRODUCTION_BASE_URL, SANDBOX_BASE_URL, type KaishaClient } from "./client";
export type {
  CallScope,
  ClientOptions,
  PaginatedOperationId,
  PaginateOptions,
  ParamsOf,
  RequestOptions,
  ResponseOf,
} from "./types";
export type { CleanParams } from "./params";
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
export { MESSAGES, localTime } from "./messages";
export { EARLIEST_DATE, loadIndustryNames, needsIndustryNames, validateParams } from "./validate";
export { normalizeDate } from "./normalize";
export { isHeaderSafeKey, type FetchLike, type ResponseLike } from "./http";
export { DEFAULT_DEADLINE_MS } from "./deadline-bound";
export { defaultSleep, type Sleep } from "./sleep";
export { Pacer } from "./pacer";
export { loadStoredCheck } from "./network-code";
export { fingerprint } from "./key-partition";
export type { CodeRegistry } from "./code-map";
export { InFlightRequests, type Flight } from "./inflight";
export type { SendState } from "./send-state";

// Answers, their freshness and the cache tiers.
export { isStale, staleInfo } from "./stale";
export { DEFAULT_TTL_MS } from "./ttl";
export { lifetimeEpoch, nextClose, type Lifetime } from "./freshness";
export { freezeAnswer } from "./shared-parts";
export { CUT_MARKER, EXCEL_MAX_TEXT } from "./response-check";
export { MemoryCacheStore, cacheKey, type CacheEntry, type CacheStore } from "./cache";
export { TieredCacheStore } from "./tiered-cache";
export { LazyPersistentStore } from "./lazy-persistent-store";
export {
  PersistentCacheStore,
  type Batch,
  type IndexRow,
  type PersistentBackend,
  type StoredRecord,
} from "./persistent-store";
export { CACHE_DB_NAME, openIdbBackend } from "./idb-backend";
export { STORAGE_OPEN_TIMEOUT_MS, hasCompression, platformIndexedDb } from "./storage-platform";
export { parseStoredForm, storedSize, toStoredForm } from "./stored-form";
export { gunzipBytes, useNativeCompression } from "./compress";
export { decodeUtf8 } from "./utf8";
export { warmMemoryTier } from "./warm-up";

// The background revalidation queue.
export {
  DEFAULT_DAILY_BUDGET,
  REVALIDATION_SETTLE_MS,
  Revalidator,
  type BudgetLedger,
  type RevalidationStatus,
  type RevalidationTask,
  type SpentRecord,
} from "./revalidator";
