// The one retry policy of the client: which failures are retried, and how long to wait before each retry.

import {
  ConnectionError,
  DataUnavailableError,
  RateLimitError,
  ServerError,
  TimeoutError,
} from "./errors";

/** Default number of retries after the first attempt. */
export const DEFAULT_MAX_RETRIES = 3;
/** First backoff step. @unit ms */
export const BACKOFF_BASE_MS = 500;
/** Backoff ceiling. @unit ms */
export const BACKOFF_CAP_MS = 20_000;
/** A Retry-After longer than this is not waited for inside a request: the error is returned. @unit ms */
export const MAX_RETRY_AFTER_MS = 60_000;

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
 * transient failures as `shouldRetry`, plus timeouts and every 429 (including the daily limit).
 */
export function canServeStale(error: unknown): boolean {
  return shouldRetry(error) || error instanceof TimeoutError || error instanceof RateLimitError;
}

/**
 * Delay before retry number `attempt` (0 = first retry): the server's Retry-After when given,
 * otherwise full-jitter exponential backoff `random() * min(cap, base * 2^attempt)`.
 *
 * @example retryDelayMs(0, 2000) // 2000
 * @example retryDelayMs(2, undefined, () => 0.5) // 1000
 */
export function retryDelayMs(
  attempt: number,
  retryAfterMs?: number,
  random: () => number = Math.random,
  baseMs: number = BACKOFF_BASE_MS,
  capMs: number = BACKOFF_CAP_MS,
): number {
  if (retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs >= 0)
    return retryAfterMs;
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt));
  return Math.floor(Math.min(1, Math.max(0, random())) * ceiling);
}
