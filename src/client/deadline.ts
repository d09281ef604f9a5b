// The call's deadline: from its first send or first 429 pause, a call settles within it, every request, retry and wait included.

import { AbortError, DeadlineError } from "./errors";

/**
 * Issues 13 and 18: every call (a cell's invocation, with every request it makes: COMPANY makes
 * several in a row) settles within this bound once its first request is sent or it first waits
 * behind a 429 pause, whichever comes first: attempts, backoff, Retry-After pauses and the queue
 * before each later request all count. Time queued behind the add-in's own pacing (60 a minute)
 * before the call's first send does not (the pane shows that queue; Excel shows #BUSY!).
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
  /** Since when the clock is stopped (a later request queued behind the add-in's own pacing). */
  #heldSince: number | undefined;

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

  /** When it passes (epoch ms of the clock); undefined before the start or when off. */
  endsAt(): number | undefined {
    return this.#endsAt;
  }

  /**
   * Stops a running clock while a later request of the call waits its turn behind the add-in's own
   * pacing (not a fault: a cold model of 500 companies queues for minutes, and the pane shows that
   * queue). The returned function restarts it, moving the end by the time stopped; call it at the
   * latest when the wait ends, or as soon as a 429 pause begins (pauses count). Idempotent.
   * Undefined when there is nothing to stop (not started, or already held).
   */
  hold(): (() => void) | undefined {
    if (this.#endsAt === undefined || this.#heldSince !== undefined) return undefined;
    const since = this.now();
    this.#heldSince = since;
    return () => {
      if (this.#heldSince !== since) return;
      this.#heldSince = undefined;
      if (this.#endsAt !== undefined) this.#endsAt += Math.max(0, this.now() - since);
    };
  }

  /** Time left; Infinity before the start, while held, or when off. @unit ms */
  remainingMs(): number {
    if (this.#endsAt === undefined || this.#heldSince !== undefined) return Infinity;
    return Math.max(0, this.#endsAt - this.now());
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
   * Runs `wait` (the pacer's wait, a request shared with other cells) but settles with
   * DeadlineError when the deadline passes first, and with the caller's AbortError when `signal`
   * fires. A wait that begins before the start calls `arm()` when something it meets starts the
   * clock (a 429 pause), or `arm(true)` to give up at once (the pause outlasts the deadline). When
   * the deadline passes just after `wait` resolved, `release` gets what it resolved with (the
   * pacer's permit goes back).
   */
  async bound<T>(
    wait: (signal: AbortSignal, arm: (giveUpNow?: boolean) => void) => Promise<T>,
    signal?: AbortSignal,
    release?: (value: T) => void,
  ): Promise<T> {
    if (signal?.aborted) throw new AbortError({ cause: signal.reason });
    const controller = new AbortController();
    const onCaller = (): void => controller.abort(signal?.reason);
    signal?.addEventListener("abort", onCaller, { once: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    let gaveUp: DeadlineError | undefined;
    const arm = (giveUpNow = false): void => {
      if (controller.signal.aborted) return;
      if (giveUpNow) {
        gaveUp = this.error();
        controller.abort(gaveUp);
        return;
      }
      const remaining = this.remainingMs();
      // A platform timer, not the injected sleep: a test's instant sleep would fire it at once. A
      // test clock that jumps is caught by the check after the wait.
      if (timer === undefined && Number.isFinite(remaining))
        timer = setTimeout(() => controller.abort(this.error()), remaining);
    };
    arm();
    let value: T;
    try {
      value = await wait(controller.signal, arm);
    } catch (err) {
      if (gaveUp !== undefined) throw gaveUp;
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
