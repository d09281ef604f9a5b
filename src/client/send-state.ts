// Whether a key may send: after the daily limit or a refused key (401) nothing more goes out with it until that lifts (send chunk).

import { monotonicNow } from "./monotonic";
import { AuthenticationError, KaishaError, RateLimitError } from "./errors";
import { nextJstMidnight } from "./freshness";
import { MESSAGES } from "./messages";

/**
 * Why a key sends nothing now. `daily_limit`: the API answered its daily limit (openapi.json
 * RateLimited: a daily limit exists, summed per user); lifted at `resumesAt` (the next JST midnight,
 * when the count resets) or as soon as /usage says requests remain. `key_refused`: the API answered
 * 401 (openapi.json bearerAuth: a revoked key); lifted only by entering a key again.
 */
export type SendState =
  | { reason: "daily_limit"; /** @unit ms since the epoch */ resumesAt: number }
  | { reason: "key_refused" };

interface Hold {
  state: SendState;
  /** When it was held, on the monotonic clock (`clock`). @unit ms */
  heldAt: number;
  /** A daily hold's wait from `heldAt` to `resumesAt` as the wall clock then said. @unit ms */
  waitMs: number;
  /** What the refused request was answered (kept as the cause of every refusal). */
  cause: KaishaError;
}

/**
 * The send state of every key this session used, by cache partition (key-partition.ts: answers and
 * states belong to the key and server). One owner of the rule; the client consults it before every
 * attempt, the revalidator pauses on it and the pane shows it.
 *
 * @example
 * holds.note(id, err); // err: the daily-limit 429
 * holds.refusal(id, "getFinancials"); // a RateLimitError saying when sending resumes; nothing is sent
 */
export class SendHolds {
  readonly #holds = new Map<string, Hold>();
  /** Aborted when the partition is held: requests waiting for their turn settle at once. */
  readonly #stops = new Map<string, AbortController>();
  readonly #listeners = new Set<() => void>();
  #notifying = false;

  constructor(
    private readonly now: () => number,
    /** Elapsed time (monotonic.ts): a wall clock set back does not prolong a daily hold. */
    private readonly clock: () => number = monotonicNow,
  ) {}

  /** The state of partition `id` now; undefined when it may send (a passed JST midnight lifts). */
  stateOf(id: string | undefined): SendState | undefined {
    if (id === undefined) return undefined;
    const hold = this.#holds.get(id);
    if (hold === undefined) return undefined;
    // The next JST midnight by the wall clock, or as long as it was then by the monotonic one: a
    // clock set back a day after the limit does not hold the key a day longer (set forward, the
    // API's own answer holds it again).
    if (
      hold.state.reason === "daily_limit" &&
      (this.now() >= hold.state.resumesAt || this.clock() - hold.heldAt >= hold.waitMs)
    ) {
      this.lift(id);
      return undefined;
    }
    return hold.state;
  }

  /**
   * The error a request of `id` settles with instead of being sent, or undefined when it may go.
   * openapi.json getUsage does not consume the daily limit: /usage still goes during a daily hold
   * (its answer is what lifts it early), never with a refused key.
   */
  refusal(id: string, operationId: string): KaishaError | undefined {
    const state = this.stateOf(id);
    if (state === undefined) return undefined;
    if (state.reason === "daily_limit" && operationId === "getUsage") return undefined;
    return refusalError(state, this.#holds.get(id)?.cause);
  }

  /** A failure answered for `id`: holds the key when it is the daily limit or a refused key (401). */
  note(id: string, err: unknown): void {
    if (err instanceof RateLimitError && err.daily) {
      const resumesAt = nextJstMidnight(this.now());
      this.hold(id, { reason: "daily_limit", resumesAt }, err);
    } else if (err instanceof AuthenticationError && err.code === "unauthorized") {
      this.hold(id, { reason: "key_refused" }, err);
    }
  }

  /**
   * /usage answered `remaining` for `id` (openapi.json UsageResponse: today's remaining count): a
   * daily hold lifts when requests remain; none left holds the key as the daily limit would, without
   * spending a request to learn it.
   */
  noteUsage(id: string, remaining: number): void {
    const state = this.stateOf(id);
    if (remaining > 0) {
      if (state?.reason === "daily_limit") this.lift(id);
    } else if (state === undefined) {
      const resumesAt = nextJstMidnight(this.now());
      this.hold(id, { reason: "daily_limit", resumesAt }, new RateLimitError({ daily: true }));
    }
  }

  /** `id` may send again (a key entered anew, Forget, /usage, the JST day over). */
  lift(id: string): void {
    if (!this.#holds.delete(id)) return;
    this.#stops.delete(id);
    this.changed();
  }

  /** Aborts when `id` is held (now or later): pass it to every wait before a send. */
  signalOf(id: string): AbortSignal {
    let stop = this.#stops.get(id);
    if (stop === undefined) {
      stop = new AbortController();
      if (this.#holds.has(id)) stop.abort();
      this.#stops.set(id, stop);
    }
    return stop.signal;
  }

  /**
   * True when a stored answer may stand in for `err` because it held the key: a refused key's cells
   * keep their figures, marked stale, until a key is entered again (the daily limit already may,
   * retry.ts canServeStale).
   */
  standsIn(err: unknown): boolean {
    return err instanceof AuthenticationError && err.code === "unauthorized";
  }

  /** Calls `listener` when a key is held or lifted; returns unsubscribe. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  private hold(id: string, state: SendState, cause: KaishaError): void {
    const before = this.#holds.get(id)?.state;
    const waitMs = state.reason === "daily_limit" ? state.resumesAt - this.now() : Infinity;
    this.#holds.set(id, { state, cause, heldAt: this.clock(), waitMs });
    this.#stops.get(id)?.abort();
    if (before?.reason !== state.reason) this.changed();
  }

  /**
   * Tells the listeners in a microtask of its own: a hold lifted while the revalidator reads it
   * must not restart the revalidator from inside that read.
   */
  private changed(): void {
    if (this.#notifying) return;
    this.#notifying = true;
    queueMicrotask(() => {
      this.#notifying = false;
      for (const listener of [...this.#listeners]) {
        try {
          listener();
        } catch {
          // A listener's failure (a closed pane) must not stop the client.
        }
      }
    });
  }
}

/**
 * The error of a request refused by `state`: the daily limit saying when sending resumes, or the
 * refused key. The API's own code and details of the answer that held the key are kept (redacted
 * by their first error already).
 */
function refusalError(state: SendState, cause: KaishaError | undefined): KaishaError {
  const init = {
    ...(cause !== undefined ? { cause } : {}),
    ...(cause?.apiCode !== undefined ? { apiCode: cause.apiCode } : {}),
    ...(cause?.details !== undefined ? { details: cause.details } : {}),
  };
  return state.reason === "daily_limit"
    ? new RateLimitError({
        ...init,
        status: 429,
        daily: true,
        message: MESSAGES.dailyLimit(state.resumesAt),
      })
    : new AuthenticationError("unauthorized", {
        ...init,
        status: 401,
        message: MESSAGES.keyRefused(),
      });
}
