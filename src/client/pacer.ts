// Client-side rate pacing: at most N requests in any rolling minute, granted in the order of queue-order.ts.

import { AbortError } from "./errors";
import { monotonicNow } from "./monotonic";
import { defaultSleep, type Sleep } from "./sleep";
import { OrderedQueue, type QueuePlace, type SheetProgress } from "./queue-order";

export type { Sleep };

export interface PacerOptions {
  /** Requests allowed per rolling window; 0 turns pacing off. @default 60 */
  ratePerMinute?: number;
  /**
   * How long a spent token stays spent, counted from its send: one minute plus a safety margin,
   * because the server counts a request when it arrives, a little after we spend the token, and
   * arrival delays vary; an exact 60 s window let the sandbox see 61 requests in its minute (bench,
   * 429s at the same rate). A token also stays spent until `windowMs` minus that margin after the
   * request was answered (see `Pacer`), which holds however late the request arrived.
   * @unit ms @default 61000
   */
  windowMs?: number;
  /** Monotonic clock the tokens and pauses are timed on. @unit ms @default monotonicNow */
  now?: () => number;
  /** Wall clock, only to state a pause's end as epoch ms in `status()`. @default Date.now */
  wallNow?: () => number;
  /** Sleep used while waiting for a token. @default defaultSleep */
  sleep?: Sleep;
  /** Shortest shared pause after a 429 (see `pause`). @unit ms @default 2000 */
  pauseFloorMs?: number;
}

/** One minute plus a one-second margin for arrival delays (see PacerOptions.windowMs). */
const DEFAULT_PACER_WINDOW_MS = 61_000;
/** The margin of DEFAULT_PACER_WINDOW_MS over the server's minute. @unit ms */
const ARRIVAL_MARGIN_MS = 1_000;
/**
 * After a 429 the pacer sends at a lower rate for this long: the server saw more than its limit
 * in some minute (arrival delays beyond any margin, another client on the same key), and sending
 * at the full rate again would draw the next 429. @unit ms
 */
const SLOWDOWN_MS = 10 * 60_000;
/** Each 429 takes this share of the rate away for SLOWDOWN_MS, down to half of it. */
const SLOWDOWN_STEP = 0.1;
/**
 * Shortest shared pause after a 429. A Retry-After of 0, a negative one or an HTTP-date already in
 * the past would otherwise let every waiting request go out at once into the same limit.
 * @internal Tests check the floor after a 429.
 */
export const DEFAULT_PAUSE_FLOOR_MS = 2_000;
/**
 * Cells' requests granted at once before the rest are spaced evenly (`Pacer.cellSpacing`): a
 * small recalculation goes out at once, while in a cold model each later grant goes to the
 * best-placed cell waiting.
 */
const CELL_BURST = 10;
/** Longest shared pause: a broken Retry-After must not stall the add-in for hours. @unit ms */
const MAX_PAUSE_MS = 5 * 60_000;

/** What the request queue is doing; see `Pacer.status()` and `KaishaClient.queueStatus()`. */
export interface QueueStatus {
  /** Requests waiting for the pacer (not sent yet). */
  waiting: number;
  /** Requests sent and not answered yet. */
  inFlight: number;
  /** Estimated time until the last waiting request is sent (0 when none wait). @unit ms */
  estimatedWaitMs: number;
  /** Epoch ms until which the pacer sends nothing after a 429; absent when not paused. */
  pausedUntil?: number;
  /** Requests a minute while slowed down after a 429 (below `ratePerMinute`); absent otherwise. */
  slowedTo?: number;
  /**
   * The companies of the sheet on screen (`Pacer.prioritize`) the queue has asked for since it was
   * last empty, and how many of them have nothing left waiting or in flight; absent without a
   * sheet on screen or when none of its companies was queued.
   */
  sheet?: SheetProgress;
}

/**
 * The right to send one request, granted by `Pacer.acquire`. Call `sent()` immediately before the
 * request leaves (that is when its token is spent) and `done()` when it is answered or given up.
 * `done()` without `sent()` hands the token back unspent.
 */
export interface PacerPermit {
  sent(): void;
  done(): void;
}

/** A spent token: it comes back at `returnsAt` (Infinity while its request is unanswered). */
interface Token {
  sentAt: number;
  returnsAt: number;
}

interface Waiter {
  resolve: (permit: PacerPermit) => void;
  reject: (err: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
  onPause: ((pausedUntil: number) => void) | undefined;
}

/**
 * Token bucket of `ratePerMinute` tokens where each spent token returns one window after it was
 * spent. The live API allows about 60 requests a minute; a plain refilling bucket could
 * let 2N through in one minute, this one never lets more than N through in any 60 s.
 *
 * The server counts a request in the minute after it arrives (sandbox/lib/rate-limiter.ts: every
 * arrival later than now - 60 s), and a request arrives somewhere between its send and its answer:
 * a token comes back `windowMs` after its send and never before one minute after its answer, so
 * however the delay between send and arrival varies (a busy machine, a slow network), no rolling
 * minute of arrivals holds more than N. A 429 that still comes lowers the rate for a while
 * (SLOWDOWN_MS) besides pausing.
 *
 * A token is stamped when the request is sent, not when it is granted: with 100k cells the
 * continuation that sends can run seconds after the grant (microtask backlog), and a token
 * stamped at grant time returned to the bucket before the server's minute had passed (bench: up to
 * 447 × 429). Granted-but-unsent permits hold their token until they are sent or handed back.
 *
 * @example
 * const pacer = new Pacer({ ratePerMinute: 60 });
 * const permit = await pacer.acquire(signal); // resolves when a request may be sent
 * permit.sent(); try { await fetch(url) } finally { permit.done() }
 */
export class Pacer {
  readonly ratePerMinute: number;
  private readonly windowMs: number;
  /** How long a token stays spent after its request was answered. @unit ms */
  private readonly afterAnswerMs: number;
  private readonly now: () => number;
  private readonly wallNow: () => number;
  private readonly sleep: Sleep;
  private readonly pauseFloorMs: number;
  /** Tokens spent (requests sent) and not back yet, in the order they were spent. */
  private readonly spent: Token[] = [];
  /** The rate while slowed down after 429s, and until when (monotonic ms). */
  private slowedRate = 0;
  private slowedUntil = 0;
  /** When cells' grants are back to no burst at all (`cellSpacing`; monotonic ms). */
  private cellsDueAt = -Infinity;
  /** Permits granted and not yet sent or handed back: they hold a token with no time yet. */
  private reserved = 0;
  private inFlight = 0;
  private pausedUntil = 0;
  private readonly queue = new OrderedQueue<Waiter>();
  private pumping = false;
  /** Wakes a pump that waits for a reservation to be sent or handed back, or for a pause. */
  private wake: (() => void) | undefined;
  private readonly listeners = new Set<(s: QueueStatus) => void>();
  private notifyScheduled = false;

  constructor(options: PacerOptions = {}) {
    this.ratePerMinute = Math.max(0, Math.floor(options.ratePerMinute ?? 60));
    this.windowMs = options.windowMs ?? DEFAULT_PACER_WINDOW_MS;
    this.afterAnswerMs = Math.max(0, this.windowMs - ARRIVAL_MARGIN_MS);
    this.now = options.now ?? monotonicNow;
    this.wallNow = options.wallNow ?? Date.now;
    this.sleep = options.sleep ?? defaultSleep;
    this.pauseFloorMs = options.pauseFloorMs ?? DEFAULT_PAUSE_FLOOR_MS;
  }

  /** Number of callers waiting for a token. */
  get waiting(): number {
    return this.queue.length;
  }

  /**
   * The sheet on screen (a test of cell addresses such as "'Sheet 1'!B2"): its companies' requests
   * are granted before other cells' (queue-order.ts), those waiting and those queued later;
   * undefined: sheets in the order first seen.
   */
  prioritize(test: ((address: string) => boolean) | undefined): void {
    this.queue.prioritize(test);
    this.changed();
  }

  /**
   * Resolves when a request may be sent; rejects with AbortError when `signal` fires first.
   * `onPause` hears of every 429 pause (when it ends, on the pacer's clock) while the caller waits,
   * one under way included. `first`: a retry goes to the head of the queue, as the request that
   * has waited longest (behind a queue of hundreds its deadline would otherwise pass). `place`:
   * the company and cell a request is for, which orders it among the cells' requests
   * (queue-order.ts); without one it keeps its arrival order.
   */
  acquire(
    signal?: AbortSignal,
    onPause?: (pausedUntil: number) => void,
    first = false,
    place?: QueuePlace,
  ): Promise<PacerPermit> {
    if (signal?.aborted) return Promise.reject(new AbortError({ cause: signal.reason }));
    if (this.ratePerMinute === 0 && this.pausedUntil <= this.now()) {
      return Promise.resolve(this.permit());
    }
    return new Promise<PacerPermit>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        onPause,
        onAbort: () => {
          this.queue.remove(waiter);
          reject(new AbortError({ cause: signal?.reason }));
          this.changed();
        },
      };
      signal?.addEventListener("abort", waiter.onAbort, { once: true });
      this.queue.push(waiter, place, first);
      this.changed();
      if (this.pausedUntil > this.now()) onPause?.(this.pausedUntil);
      void this.pump();
    });
  }

  /**
   * A 429 arrived: nobody sends for `retryAfterMs` (at least the floor, at most MAX_PAUSE_MS), so
   * the waiting requests do not each run into the same limit and retry alone. A missing, zero,
   * negative or past Retry-After pauses for the floor. Returns when the pause ends (the pacer's
   * clock).
   */
  pause(retryAfterMs: number | undefined): number {
    const ms = Math.min(
      MAX_PAUSE_MS,
      Math.max(
        this.pauseFloorMs,
        retryAfterMs !== undefined && Number.isFinite(retryAfterMs) ? retryAfterMs : 0,
      ),
    );
    const now = this.now();
    // Slower for a while: each 429 takes a step off the rate, down to half of it.
    const rate = this.rateAt(now);
    const step = Math.max(1, Math.round(this.ratePerMinute * SLOWDOWN_STEP));
    this.slowedRate = Math.max(Math.ceil(this.ratePerMinute / 2), rate - step);
    this.slowedUntil = now + SLOWDOWN_MS;
    const until = now + ms;
    if (until <= this.pausedUntil) return this.pausedUntil;
    this.pausedUntil = until;
    this.changed();
    this.wake?.();
    // A copy: a listener may give up its place (abort), which splices the queue.
    for (const waiter of this.queue.values()) waiter.onPause?.(until);
    return until;
  }

  /** Rejects every request still waiting for a token with AbortError; returns how many. */
  cancelQueued(): number {
    const waiters = this.queue.drain();
    for (const w of waiters) {
      w.signal?.removeEventListener("abort", w.onAbort);
      w.reject(new AbortError());
    }
    if (waiters.length > 0) this.changed();
    return waiters.length;
  }

  /** The queue now; see QueueStatus. */
  status(): QueueStatus {
    const now = this.now();
    this.prune(now);
    const paused = this.pausedUntil > now ? this.pausedUntil : undefined;
    const waiting = this.queue.length;
    const sheet = this.queue.sheetProgress();
    const rate = this.rateAt(now);
    let readyAt = paused ?? now;
    if (waiting > 0 && rate > 0) {
      const free = rate - this.spent.length - this.reserved;
      const needed = waiting - Math.max(0, free);
      if (needed > 0) {
        // Tokens come back in the order they return; an unanswered one and unsent reservations
        // count as back one window from now.
        const back = this.spent
          .map((t) => (Number.isFinite(t.returnsAt) ? t.returnsAt : now + this.windowMs))
          .sort((a, b) => a - b);
        const j = needed - 1;
        const slot = j % rate;
        const returnsAt = back[slot] ?? now + this.windowMs;
        const at = returnsAt + this.windowMs * Math.floor(j / rate);
        readyAt = Math.max(readyAt, at);
      }
    }
    return {
      waiting,
      inFlight: this.inFlight,
      estimatedWaitMs: waiting > 0 ? Math.max(0, readyAt - now) : 0,
      // The pane shows the pause's end as a time of day: stated on the wall clock.
      ...(paused !== undefined ? { pausedUntil: this.wallNow() + (paused - now) } : {}),
      ...(rate < this.ratePerMinute ? { slowedTo: rate } : {}),
      ...(sheet !== undefined ? { sheet } : {}),
    };
  }

  /** Tokens a minute now: the rate, or less while slowed down after a 429. */
  private rateAt(now: number): number {
    return this.slowedUntil > now ? this.slowedRate : this.ratePerMinute;
  }

  /** Calls `listener` after changes (at most once per microtask turn); returns the unsubscribe. */
  onChange(listener: (s: QueueStatus) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  private changed(): void {
    if (this.listeners.size === 0 || this.notifyScheduled) return;
    this.notifyScheduled = true;
    // Coalesced: a recalculation queues thousands of requests in one turn.
    void Promise.resolve().then(() => {
      this.notifyScheduled = false;
      const s = this.status();
      for (const listener of [...this.listeners]) {
        try {
          listener(s);
        } catch {
          // A listener must not break the pacer.
        }
      }
    });
  }

  /** `waiter`: the queued caller it was granted to (its company's count, queue-order.ts). */
  private permit(reservedToken = false, waiter?: Waiter): PacerPermit {
    let state: "granted" | "sent" | "done" = "granted";
    const paced = this.ratePerMinute > 0 && reservedToken;
    let token: Token | undefined;
    return {
      sent: () => {
        if (state !== "granted") return;
        state = "sent";
        if (paced) {
          this.reserved -= 1;
          token = { sentAt: this.now(), returnsAt: Infinity };
          this.spent.push(token);
        }
        this.inFlight += 1;
        this.changed();
      },
      done: () => {
        if (state === "done") return;
        if (state === "sent") {
          this.inFlight -= 1;
          if (token !== undefined) {
            // It arrived by now at the latest: a minute from now it has left the server's minute.
            token.returnsAt = Math.max(
              token.sentAt + this.windowMs,
              this.now() + this.afterAnswerMs,
            );
            // A pump waiting on unanswered requests can now time this token's return.
            this.wake?.();
          }
        } else if (paced) {
          this.reserved -= 1;
          this.wake?.();
        }
        state = "done";
        if (waiter !== undefined) this.queue.release(waiter);
        this.changed();
      },
    };
  }

  private prune(now: number): void {
    for (let i = this.spent.length - 1; i >= 0; i -= 1)
      if ((this.spent[i]?.returnsAt ?? Infinity) <= now) this.spent.splice(i, 1);
  }

  /** Grants tokens in queue order (queue-order.ts); one pump at a time keeps that order. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    let gathered = false;
    try {
      while (this.queue.length > 0) {
        const now = this.now();
        if (this.pausedUntil > now) {
          // The injected sleep decides when the pause is over (tests stub it to return at once),
          // unless a later 429 extended the pause meanwhile.
          const until = this.pausedUntil;
          await this.sleep(until - now).catch(() => undefined);
          if (this.pausedUntil === until) this.pausedUntil = 0;
          this.changed();
          continue;
        }
        if (this.ratePerMinute === 0) {
          this.grant(false);
          continue;
        }
        const cells = this.queue.nextIsOrdered();
        if (cells && !gathered) {
          // One turn for the rest of Excel's batch to queue before the first grant, so it goes
          // to the best-placed cell of the batch rather than to whichever cell asked first.
          gathered = true;
          await this.sleep(0).catch(() => undefined);
          continue;
        }
        const spacing = cells ? this.cellSpacing(now) : 0;
        if (spacing > 0) {
          await this.waitFor(spacing);
          continue;
        }
        this.prune(now);
        if (this.spent.length + this.reserved < this.rateAt(now)) {
          this.reserved += 1;
          if (cells) this.cellsDueAt = Math.max(this.cellsDueAt, now) + this.cellInterval(now);
          this.grant(true);
          continue;
        }
        // Every token is spent or held by a permit not sent yet: wait for the first to return,
        // or (when none has a return time yet) for a request to be answered or a permit handed
        // back; a slow-down's end frees tokens too.
        let first = Infinity;
        for (const t of this.spent) first = Math.min(first, t.returnsAt);
        if (this.slowedUntil > now) first = Math.min(first, this.slowedUntil);
        await this.waitFor(Number.isFinite(first) ? first - now : undefined);
      }
    } finally {
      this.pumping = false;
    }
  }

  /** Evenly spaced cells' grants: one a `windowMs / rate`, the minute's share of each token. @unit ms */
  private cellInterval(now: number): number {
    return this.windowMs / Math.max(1, this.rateAt(now));
  }

  /**
   * How long the next cell's grant must wait: cells' requests go out in a burst of at most
   * CELL_BURST, then evenly spaced (the same rate a minute as the whole bucket: nothing is lost
   * over a build). A burst of the minute's 60 tokens went to the first 60 cells to ask, mostly the
   * first item of 60 companies; spaced grants go, one by one, to the best-placed cell waiting
   * (queue-order.ts), so the first row is complete in seconds, not after the first minute.
   */
  private cellSpacing(now: number): number {
    return Math.max(0, this.cellsDueAt - (CELL_BURST - 1) * this.cellInterval(now) - now);
  }

  private grant(reservedToken: boolean): void {
    const waiter = this.queue.shift() as Waiter;
    waiter.signal?.removeEventListener("abort", waiter.onAbort);
    waiter.resolve(this.permit(reservedToken, waiter));
    this.changed();
  }

  /** Waits `ms` (or until woken; undefined = only until woken). */
  private async waitFor(ms: number | undefined): Promise<void> {
    const woken = new Promise<void>((resolve) => {
      this.wake = resolve;
    });
    if (ms === undefined) {
      await woken;
      this.wake = undefined;
      return;
    }
    const controller = new AbortController();
    const timed = (async (): Promise<void> => {
      const before = this.now();
      try {
        await this.sleep(Math.max(1, ms), controller.signal);
        if (this.now() > before || controller.signal.aborted) return;
      } catch {
        if (controller.signal.aborted) return;
      }
      // An injected sleep that fails, or returns without the injected clock moving, must neither
      // strand the queue nor spin: wait on a real timer instead.
      await defaultSleep(Math.max(1, ms), controller.signal).catch(() => undefined);
    })();
    await Promise.race([timed, woken]);
    controller.abort();
    this.wake = undefined;
  }
}
