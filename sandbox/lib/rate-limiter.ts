// Per-key request limits: a sliding one-minute window and a daily budget that resets at JST midnight.
import { ApiError } from "./api-error";

/** One JST day in milliseconds; JST is UTC+9 with no daylight saving. */
const DAY_MS = 86_400_000;
const JST_OFFSET_MS = 9 * 3_600_000;
const MINUTE_MS = 60_000;

export interface LimiterOptions {
  /** Requests per rolling minute per key; 0 turns the per-minute limit off. */
  ratePerMinute: number;
  /**
   * Requests per JST day per key (openapi.json 429: a daily limit exists; its value is not
   * published).
   */
  dailyLimit: number;
  /** Real-time clock in epoch milliseconds (injectable for tests). */
  clock: () => number;
}

/** The body of GET /usage. */
export interface UsageSnapshot {
  remaining: number;
  daily_limit: number;
  used: number;
  reset_at: string;
}

interface KeyState {
  day: number;
  used: number;
  recent: number[];
}

/**
 * Counts requests per key. `consume` throws 429 when a limit is reached; requests refused with
 * 429 are not counted. One user per key here (openapi.json bearerAuth sums keys per user on the
 * live service).
 */
export class RateLimiter {
  readonly #states = new Map<string, KeyState>();
  constructor(private readonly options: LimiterOptions) {}

  /**
   * Records one request for `key`. `countsDaily: false` is for GET /usage, which never consumes
   * the daily budget (openapi.json bearerAuth) but still counts toward the per-minute limit.
   */
  consume(key: string, countsDaily = true): void {
    const now = this.options.clock();
    const state = this.#state(key, now);
    const { ratePerMinute, dailyLimit } = this.options;
    if (countsDaily && state.used >= dailyLimit) {
      const seconds = Math.max(1, Math.ceil((nextResetMs(now) - now) / 1000));
      throw new ApiError(
        429,
        "daily_limit_exceeded",
        `Daily request limit of ${dailyLimit} reached. It resets at ${new Date(nextResetMs(now)).toISOString()}.`,
        undefined,
        { "Retry-After": String(seconds) },
      );
    }
    if (ratePerMinute > 0) {
      state.recent = state.recent.filter((t) => t > now - MINUTE_MS);
      const oldest = state.recent[0];
      if (state.recent.length >= ratePerMinute && oldest !== undefined) {
        const seconds = Math.max(1, Math.ceil((oldest + MINUTE_MS - now) / 1000));
        throw new ApiError(
          429,
          "rate_limited",
          `Too many requests: at most ${ratePerMinute} per minute. Retry after ${seconds} s.`,
          undefined,
          { "Retry-After": String(seconds) },
        );
      }
      state.recent.push(now);
    }
    if (countsDaily) state.used += 1;
  }

  /** The usage of `key` now, without consuming anything. */
  usage(key: string): UsageSnapshot {
    const now = this.options.clock();
    const state = this.#state(key, now);
    const { dailyLimit } = this.options;
    return {
      remaining: Math.max(0, dailyLimit - state.used),
      daily_limit: dailyLimit,
      used: state.used,
      reset_at: new Date(nextResetMs(now)).toISOString(),
    };
  }

  /** Forgets every counter. */
  reset(): void {
    this.#states.clear();
  }

  #state(key: string, now: number): KeyState {
    const day = jstDay(now);
    let state = this.#states.get(key);
    if (state === undefined || state.day !== day) {
      state = { day, used: 0, recent: state?.recent ?? [] };
      this.#states.set(key, state);
    }
    return state;
  }
}

function jstDay(ms: number): number {
  return Math.floor((ms + JST_OFFSET_MS) / DAY_MS);
}

/** The next JST midnight, as epoch milliseconds. */
function nextResetMs(ms: number): number {
  return (jstDay(ms) + 1) * DAY_MS - JST_OFFSET_MS;
}
