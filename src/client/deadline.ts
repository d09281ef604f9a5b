// The call's deadline: from its first send, a call settles within it; the API's slowness counts, the add-in's own queue does not.

import { AbortError, DeadlineError } from "./errors";

// The bound itself is in deadline-bound.ts: the client's settings read it on the runtime page,
// and this class travels in the send chunk (used only once a request goes to the network).

/**
 * One request's deadline. `start()` at the first send; `0` or `Infinity` turns it off. `now` is a
 * monotonic clock (monotonic.ts): a wall clock set back would stretch the bound, set forward
 * would end it at once.
 *
 * @example
 * const d = new Deadline(120_000, monotonicNow);
 * d.start(); const timeoutMs = d.attemptTimeout(30_000);
 * if (!d.allowsRetryAfter(delayMs)) throw lastError;
 */
export class Deadline {
  #endsAt: number | undefined;
  /** Since when the clock is stopped (a later request queued behind the add-in's own pacing). */
  #heldSince: number | undefined;
  /** Until when a hold still counts: the end of the last pause this call's own 429 drew. */
  #countedUntil = 0;

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

  /**
   * A 429 answered one of this call's requests and paused the pacer until `until` (the pacer's
   * clock): waiting out that pause is the API's slowness, and counts even while held.
   */
  countUntil(until: number): void {
    this.#countedUntil = Math.max(this.#countedUntil, until);
  }

  /**
   * Stops a running clock while a request of the call waits its turn behind the add-in's own
   * pacing (not a fault: a cold model of 500 companies queues for minutes, and the pane shows that
   * queue). The returned function restarts it, moving the end by the time stopped, less the part
   * of it before the end of a pause this call's own 429 drew (`countUntil`); call it when the wait
   * ends. Idempotent. Undefined when there is nothing to stop (not started, or already held).
   */
  hold(): (() => void) | undefined {
    if (this.#endsAt === undefined || this.#heldSince !== undefined) return undefined;
    const since = this.now();
    this.#heldSince = since;
    return () => {
      if (this.#heldSince !== since) return;
      this.#heldSince = undefined;
      const from = Math.max(since, this.#countedUntil);
      if (this.#endsAt !== undefined) this.#endsAt += Math.max(0, this.now() - from);
    };
  }

  /**
   * True when a pause until `pausedUntil` (the pacer's clock) leaves this call no time: it ends
   * after the deadline, or (before the start) lasts the whole bound.
   */
  outlastedBy(pausedUntil: number): boolean {
    if (!this.active) return false;
    const counted = this.#endsAt === undefined ? undefined : this.remainingCounted();
    return pausedUntil - this.now() >= (counted ?? this.ms);
  }

  /** Time left counting a hold under way as if it were released now. @unit ms */
  private remainingCounted(): number {
    if (this.#endsAt === undefined) return Infinity;
    const held = this.#heldSince;
    const moved =
      held === undefined ? 0 : Math.max(0, this.now() - Math.max(held, this.#countedUntil));
    return Math.max(0, this.#endsAt + moved - this.now());
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
