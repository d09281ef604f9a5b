// How long the client waits before a retry (retry.ts decides whether to retry): in the send chunk, with the exchange.

/** First backoff step. @unit ms */
const BACKOFF_BASE_MS = 500;
/** Backoff ceiling. @unit ms */
const BACKOFF_CAP_MS = 20_000;
/**
 * No retry is sent sooner than this after a failure, whatever Retry-After says (0, negative, a past
 * date) or the jitter draws: an immediate re-send would hit the same overloaded server. @unit ms
 */
const MIN_RETRY_DELAY_MS = 1_000;

/**
 * Delay before retry number `attempt` (0 = first retry): the server's Retry-After when given,
 * otherwise full-jitter exponential backoff `random() * min(cap, base * 2^attempt)`; never less
 * than MIN_RETRY_DELAY_MS.
 *
 * @example retryDelayMs(0, 2000) // 2000
 * @example retryDelayMs(0, 0) // 1000 (the floor)
 * @example retryDelayMs(3, undefined, () => 0.5) // 2000
 */
export function retryDelayMs(
  attempt: number,
  retryAfterMs?: number,
  random: () => number = Math.random,
  baseMs: number = BACKOFF_BASE_MS,
  capMs: number = BACKOFF_CAP_MS,
): number {
  if (retryAfterMs !== undefined && Number.isFinite(retryAfterMs))
    return Math.max(MIN_RETRY_DELAY_MS, retryAfterMs);
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt));
  return Math.max(MIN_RETRY_DELAY_MS, Math.floor(Math.min(1, Math.max(0, random())) * ceiling));
}
