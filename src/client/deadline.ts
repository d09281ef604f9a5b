// The per-request deadline: from its first send, a request settles within it, retries and their waits included.

import { AbortError, DeadlineError } from "./errors";

/**
 * Issue 13: every call settles within this bound once its first attempt is sent: the attempts, the
 * backoff between them and the pacer's wait before each retry all count. Time queued behind the
 * pacer before the first send does not (the pane shows that queue; Excel shows #BUSY! meanwhile).
 * @unit ms @default 120000
 */
export const DEFAULT_DEADLINE_MS = 120_000;

/**
 * One request's deadline. `start()` at the first send; `0` or `Infinity` turns it off.
 *
 * @example
 * const d = new Deadline(120_000, Date.now);
 * d.start(); const timeoutMs = d.attemptTimeout(30_000);
 * if (!d.allowsRetryAfter(delayMs)) throw lastError;
 */
export class Deadline {
  #endsAt: number | undefined;

  constructor(
    readonly ms: number,
    private readonly now: () => number,
  ) {}

  private get active(): boolean {
    return this.ms > 0 && Number.isFinite(this.ms);
  }

  /** Starts the clock; later calls keep the first start. */
  start(): void {
    if (this.active) this.#endsAt ??= this.now() + this.ms;
  }

  /** Time left; Infinity before the start or when off. @unit ms */
  remainingMs(): number {
    return this.#endsAt === undefined ? Infinity : Math.max(0, this.#endsAt - this.now());
  }

  expired(): boolean {
    return this.remainingMs() <= 0;
  }

  /** The attempt's timeout cut to the time left (0 = none stays none unless the deadline runs). */
  attemptTimeout(timeoutMs: number): number {
    const configured = timeoutMs > 0 && Number.isFinite(timeoutMs) ? timeoutMs : Infinity;
    const limit = Math.min(configured, this.remainingMs());
    return Number.isFinite(limit) ? Math.max(1, Math.ceil(limit)) : 0;
  }

  /** True when a retry after `delayMs` could still start before the deadline. */
  allowsRetryAfter(delayMs: number): boolean {
    return delayMs < this.remainingMs();
  }

  /** The error a call settles with when the deadline passes; `cause` is the last failure. */
  error(cause?: unknown): DeadlineError {
    return new DeadlineError(this.ms, cause === undefined ? {} : { cause });
  }

  /**
   * Runs `wait` (the pacer's wait before a retry) but settles with DeadlineError when the deadline
   * passes first, and with the caller's AbortError when `signal` fires. When the deadline passes
   * just after `wait` resolved, `release` gets what it resolved with (the pacer's permit goes back).
   */
  async bound<T>(
    wait: (signal: AbortSignal) => Promise<T>,
    signal?: AbortSignal,
    release?: (value: T) => void,
  ): Promise<T> {
    if (signal?.aborted) throw new AbortError({ cause: signal.reason });
    const controller = new AbortController();
    const onCaller = (): void => controller.abort(signal?.reason);
    signal?.addEventListener("abort", onCaller, { once: true });
    const remaining = this.remainingMs();
    // A platform timer, not the injected sleep: a test's instant sleep would fire it at once. A
    // test clock that jumps is caught by the check after the wait.
    const timer = Number.isFinite(remaining)
      ? setTimeout(() => controller.abort(this.error()), remaining)
      : undefined;
    let value: T;
    try {
      value = await wait(controller.signal);
    } catch (err) {
      if (this.expired()) throw this.error(err);
      throw err;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onCaller);
    }
    if (this.expired()) {
      release?.(value);
      throw this.error();
    }
    return value;
  }
}
