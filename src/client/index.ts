// Public entry of the shared API client (no Office globals: Node, browsers, Excel shared runtime).

export { createClient, PRODUCTION_BASE_URL, SANDBOX_BASE_URL, type KaishaClient } from "./client";
export type { ClientOptions, RequestOptions, CallScope } from "./types";
export {
  KaishaError,
  ValidationError,
  AuthenticationError,
  ForbiddenError,
  NotFoundError,
  RateLimitError,
  DataUnavailableError,
  ServerError,
  ConnectionError,
  TimeoutError,
  AbortError,
  BadResponseError,
  NotCachedError,
  errorFromResponse,
  parseRetryAfter,
  isKaishaError,
  localizedMessage,
} from "./errors";
export { type ErrorDetail } from "./messages";
export {
  normalizeCode,
  normalizeSecurityCode,
  normalizeCompany,
  normalizeDate,
  normalizeFiscalMonth,
  normalizeYear,
  normalizeInteger,
  dayToSerial,
  todayJst,
} from "./normalize";
export { validateParams } from "./validate";
export { Pacer, type QueueStatus } from "./pacer";
export { shouldRetry, canServeStale, retryDelayMs } from "./retry";
export {
  buildUrl,
  sendRequest,
  MAX_RESPONSE_BYTES,
  type FetchLike,
  type ResponseLike,
} from "./http";
export { MemoryCacheStore, cacheKey, type CacheStore, type CacheEntry } from "./cache";
export { DEFAULT_TTL_MS, ttlFor, isFresh } from "./ttl";
export { isStale, staleInfo } from "./stale";
export { FINANCIALS_FETCH_YEARS } from "./financials";
export { TieredCacheStore } from "./tiered-cache";
