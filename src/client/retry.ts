// The one retry policy of the client: which failures are retried (how long to wait before each: retry-delay.ts).

import {
  BadResponseError,
  ConnectionError,
  DataUnavailableError,
  DeadlineError,
  RateLimitError,
  ServerError,
  TimeoutError,
} from "./errors";

/** Default number of retries after the first attempt. */
export const DEFAULT_MAX_RETRIES = 3;
/** A Retry-After longer than this is not waited for inside a request: the error is returned. @unit ms */
const MAX_RETRY_AFTER_MS = 60_000;

/**
 * True when a failed request is worth sending again: 429 (per-minute limit), 503, other 5xx and
 * connection failures. Never 400/401/404, aborts, timeouts (the user already waited the full
 * timeout), the daily limit (it will not clear within a request), or a Retry-After above a minute.
 */
export function shouldRetry(error: unknown): boolean {
  if (error instanceof RateLimitError && error.daily) return false;
  const transient =
    error instanceof RateLimitError ||
    error instanceof DataUnavailableError ||
    error instanceof ServerError ||
    error instanceof ConnectionError;
  if (!transient) return false;
  return error.retryAfterMs === undefined || error.retryAfterMs <= MAX_RETRY_AFTER_MS;
}

/**
 * True when an earlier (even expired) cached answer may stand in for a failed request: the same
 * transient failures as `shouldRetry`, plus timeouts, the request deadline, every 429 (including
 * the daily limit) and every content error of a 2xx (nothing lost on bad answers): not
 * JSON (a captive portal page answers in the API's place), too large, a required field missing or
 * mistyped, a non-finite number, nesting too deep. Not a 400/404 without the API's error object
 * (`kind: "other"`): that is the wrong server, not a bad answer.
 */
export function canServeStale(error: unknown): boolean {
  return (
    shouldRetry(error) ||
    error instanceof TimeoutError ||
    error instanceof DeadlineError ||
    error instanceof RateLimitError ||
    (error instanceof BadResponseError && CONTENT_ERRORS.has(error.kind))
  );
}

/** BadResponseError kinds that describe the content of a 2xx answer (http.ts, response-check.ts). */
const CONTENT_ERRORS: ReadonlySet<BadResponseError["kind"]> = new Set([
  "not_json",
  "too_large",
  "field",
]);
