// Public entry of the shared API client (no Office globals: Node, browsers, Excel shared runtime).

export { createClient, PRODUCTION_BASE_URL, SANDBOX_BASE_URL, type KaishaClient } from "./client";
export type {
  ApiKeySource,
  ClientOptions,
  ClientStats,
  PaginateOptions,
  PaginatedOperationId,
  ParamsOf,
  RequestInfo,
  RequestOptions,
  CallScope,
  ResponseOf,
} from "./types";
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
  DeadlineError,
  AbortError,
  BadResponseError,
  NotCachedError,
  errorFromResponse,
  parseErrorBody,
  parseRetryAfter,
  isDailyLimit,
  isKaishaError,
  localizedMessage,
  type KaishaErrorCode,
  type ApiErrorBody,
} from "./errors";
export {
  MESSAGES,
  detailMessage,
  validationMessage,
  type Lang,
  type MessagePair,
  type ErrorDetail,
  type ValidationReason,
} from "./messages";
export {
  normalizeText,
  isBlank,
  normalizeCode,
  normalizeSecurityCode,
  normalizeEdinetCode,
  normalizeCompany,
  normalizeDate,
  normalizeFiscalMonth,
  normalizeYear,
  normalizeInteger,
  serialToDay,
  dayToSerial,
  jstDay,
  formatDay,
  todayJst,
  SECURITY_CODE_PATTERN,
  EDINET_CODE_PATTERN,
  type CalendarDay,
  type CompanyRef,
} from "./normalize";
export {
  validateParams,
  checkParams,
  checkFilters,
  FILTER_OPS,
  SCREENING_UNITS,
  MAX_SCREENING_CONDITIONS,
  EARLIEST_DATE,
  type CleanParams,
  type ParamValue,
} from "./validate";
export {
  Pacer,
  defaultSleep,
  DEFAULT_PAUSE_FLOOR_MS,
  type PacerOptions,
  type PacerPermit,
  type QueueStatus,
  type Sleep,
} from "./pacer";
export {
  shouldRetry,
  canServeStale,
  retryDelayMs,
  DEFAULT_MAX_RETRIES,
  MAX_RETRY_AFTER_MS,
  MIN_RETRY_DELAY_MS,
} from "./retry";
export { Deadline, DEFAULT_DEADLINE_MS } from "./deadline";
export { checkAnswer, CUT_MARKER, EXCEL_MAX_TEXT } from "./response-check";
export {
  buildUrl,
  sendRequest,
  DEFAULT_TIMEOUT_MS,
  MAX_RESPONSE_BYTES,
  isHeaderSafeKey,
  type FetchLike,
  type ResponseLike,
} from "./http";
export {
  MemoryCacheStore,
  cacheKey,
  type CacheStore,
  type CacheEntry,
  type MemoryCacheStoreOptions,
} from "./cache";
export { DEFAULT_TTL_MS, ttlFor, isFresh } from "./ttl";
export { isStale, staleInfo, type StaleInfo } from "./stale";
export { narrowFinancials, FINANCIALS_FETCH_YEARS } from "./financials";
export { paginate, DEFAULT_MAX_PAGES } from "./paginate";
export { rememberSecret, redactText } from "./redact";
export { TieredCacheStore } from "./tiered-cache";
export { packText, unpackText } from "./compress";
export {
  PersistentCacheStore,
  DEFAULT_PERSISTENT_MAX_BYTES,
  type PersistentBackend,
  type PersistentCacheStoreOptions,
} from "./persistent-store";
export { openIdbBackend, platformIndexedDb } from "./idb-backend";
