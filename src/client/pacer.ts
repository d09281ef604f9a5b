// Client-side rate pacing: at most N requests in any rolling minute, granted first come, first served.

import { AbortError } from "./errors";

/** Sleeps `ms`; rejects with AbortError when `signal` fires. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** setTimeout-based sleep (works with jest fake timers); always settles. */
export const defaultSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new AbortError({ cause: signal.reason }));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AbortError({ cause: signal?.reason }));
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener("abort", onAbort, { once: true });
  });

export interface PacerOptions {
  /** Requests allowed per rolling window; 0 turns pacing off. @default 60 */
  ratePerMinute?: number;
  /**
   * How long a spent token stays spent: one minute plus a safety margin, because the server counts
   * a request when it arrives, a little after we spend the token, and arrival delays vary; an exact
   * 60 s window let the sandbox see 61 requests in its minute (bench, 429s at the same rate).
   * @unit ms @default 61000
   */
  windowMs?: number;
  /** Clock. @default Date.now */
  now?: () => number;
  /** Sleep used while waiting for a token. @default defaultSleep */
  sleep?: Sleep;
}

/** One minute plus a one-second margin for arrival delays (see PacerOptions.windowMs). */
export const DEFAULT_PACER_WINDOW_MS = 61_000;

interface Waiter {
  resolve: () => void;
  reject: (err: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

/**
 * Token bucket of `ratePerMinute` tokens where each spent token returns one window after it was
 * spent. REFERENCE: the live API allows about 60 requests a minute; a plain refilling bucket could
 * let 2N through in one minute, this one never lets more than N through in any 60 s.
 *
 * @example
 * const pacer = new Pacer({ ratePerMinute: 60 });
 * await pacer.acquire(signal); // resolves when a request may be sent
 */
export class Pacer {
  readonly ratePerMinute: number;
  private readonly windowMs: number;
  private readonly now: () => number;
  private readonly sleep: Sleep;
  /** Times at which tokens were spent, oldest first. */
  private readonly spent: number[] = [];
  private readonly queue: Waiter[] = [];
  private pumping = false;

  constructor(options: PacerOptions = {}) {
    this.ratePerMinute = Math.max(0, Math.floor(options.ratePerMinute ?? 60));
    this.windowMs = options.windowMs ?? DEFAULT_PACER_WINDOW_MS;
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? defaultSleep;
  }

  /** Number of callers waiting for a token. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Resolves when a request may be sent; rejects with AbortError when `signal` fires first. */
  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(new AbortError({ cause: signal.reason }));
    if (this.ratePerMinute === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          const at = this.queue.indexOf(waiter);
          if (at >= 0) this.queue.splice(at, 1);
          reject(new AbortError({ cause: signal?.reason }));
        },
      };
      signal?.addEventListener("abort", waiter.onAbort, { once: true });
      this.queue.push(waiter);
      void this.pump();
    });
  }

  private prune(now: number): void {
    while (this.spent.length > 0 && (this.spent[0] ?? 0) + this.windowMs <= now) this.spent.shift();
  }

  /** Grants tokens in queue order; one pump at a time keeps the order FIFO. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length > 0) {
        const now = this.now();
        this.prune(now);
        if (this.spent.length < this.ratePerMinute) {
          const waiter = this.queue.shift() as Waiter;
          waiter.signal?.removeEventListener("abort", waiter.onAbort);
          this.spent.push(now);
          waiter.resolve();
          continue;
        }
        const waitMs = (this.spent[0] ?? now) + this.windowMs - now;
        let slept = false;
        try {
          await this.sleep(Math.max(1, waitMs));
          slept = this.now() > now;
        } catch {
          slept = false;
        }
        // An injected sleep that fails, or returns without the injected clock moving, must neither
        // strand the queue nor spin: wait on a real timer instead.
        if (!slept) await defaultSleep(Math.max(1, waitMs));
      }
    } finally {
      this.pumping = false;
    }
  }
}
