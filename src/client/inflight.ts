// Work in flight shared by key: identical requests, reads and look-ups under way run once for every caller.

import { AbortError } from "./errors";

/** One piece of work under way (or just settled), as callers that find it see it. */
export interface Flight<T> {
  readonly key: string;
  /** The work's outcome, shared by everyone who found it. */
  readonly answer: Promise<T>;
  /**
   * The answer has come (or failed). A settled flight is still findable for one turn when the map
   * keeps it (`keepSettledTurn`): a caller finding it then reads it at once, without waiting.
   */
  readonly settled: boolean;
}

interface Held<T> extends Flight<T> {
  answer: Promise<T>;
  settled: boolean;
  controller: AbortController;
  /** The map it is in: a waiter leaves through the flight alone (`leaveWaiting`). */
  owner: InFlightRequests;
  /** Callers holding it that have not left: the work is abandoned when none is left. */
  waiters: number;
  /** Those waiting as records (`wait`), woken together by one reaction to the answer. */
  waiting: Waiter[] | undefined;
}

/** A caller waiting for a flight as one record (a cell: no promise or closure of its own). */
export interface Waiter {
  /** The flight settled (it is still findable this turn when the map keeps settled flights). */
  wake(): void;
}

/** How one flight is kept: see InFlightOptions.keepSettledTurn; `counted` false: no onCoalesced. */
export interface BeginOptions {
  keepSettledTurn?: boolean;
  counted?: boolean;
}

/**
 * Work that is no request (a persistent read, a results-day look-up): a caller joining it is not a
 * coalesced request (the client's `coalesced` count).
 */
export const UNCOUNTED: BeginOptions = Object.freeze({ counted: false });

export interface InFlightOptions {
  /** Called when a caller finds work already under way (the client's `coalesced` count). */
  onCoalesced?: () => void;
  /**
   * Keep a settled flight findable until the callers woken by its answer have run (one more
   * microtask turn), so a cell that reads it then finds the outcome (a stale copy, an error)
   * instead of starting the same work again. Off: a flight is forgotten as it settles.
   */
  keepSettledTurn?: boolean;
}

/**
 * Work in flight by key: the one mechanism the add-in shares work with (the client's requests and
 * EDINET look-ups, the tiered cache's persistent reads, FINANCIAL's /financials fetches, company
 * resolution). Work is started once per key; callers that hold it may each leave on their own,
 * and the work is aborted only when every holder has left; a new caller never finds work that is
 * being abandoned.
 *
 * @example
 * const body = await inflight.join(key, signal, (shared) => send(url, shared));
 */
export class InFlightRequests {
  private readonly flights = new Map<string, Held<unknown>>();
  private readonly onCoalesced: () => void;
  private readonly keepSettledTurn: boolean;

  constructor(options: InFlightOptions = {}) {
    this.onCoalesced = options.onCoalesced ?? (() => undefined);
    this.keepSettledTurn = options.keepSettledTurn ?? false;
  }

  /** Number of distinct flights findable (under way, or settled within their turn). */
  get size(): number {
    return this.flights.size;
  }

  /** The flight under way (or just settled) under `key`, if any. Never starts anything. */
  find<T>(key: string): Flight<T> | undefined {
    return this.flights.size === 0 ? undefined : (this.flights.get(key) as Flight<T> | undefined);
  }

  /**
   * The flight under `key`: the one findable, else `start` begun now (on the next microtask, with
   * a signal aborted when every holder leaves). Nobody holds it yet (`hold`).
   */
  begin<T>(
    key: string,
    start: (signal: AbortSignal) => Promise<T>,
    options: BeginOptions = {},
  ): Flight<T> {
    const found = this.flights.get(key);
    if (found !== undefined) {
      if (options.counted !== false) this.onCoalesced();
      return found as Flight<T>;
    }
    const keep = options.keepSettledTurn ?? this.keepSettledTurn;
    const controller = new AbortController();
    const created: Held<unknown> = {
      key,
      controller,
      owner: this,
      waiters: 0,
      settled: false,
      answer: Promise.resolve(),
      waiting: undefined,
    };
    const forget = (): void => {
      if (this.flights.get(key) === created) this.flights.delete(key);
    };
    const settle = (): void => {
      created.settled = true;
      if (!keep) forget();
      const waiting = created.waiting;
      created.waiting = undefined;
      if (waiting !== undefined) wakeAll(waiting);
    };
    created.answer = Promise.resolve().then(() => start(controller.signal));
    // Settled, then (when kept) one more turn: the callers woken by the answer find it settled.
    const done = created.answer.then(settle, settle);
    if (keep) void done.then(forget);
    this.flights.set(key, created);
    return created as Flight<T>;
  }

  /**
   * Counts one more holder of `flight` and returns how that holder leaves: the work is abandoned
   * (its signal aborted, the flight forgotten) when every holder has left before it settled.
   */
  hold(flight: Flight<unknown>): (reason?: unknown) => void {
    this.enter(flight);
    let left = false;
    return (reason) => {
      if (left) return;
      left = true;
      this.release(flight, reason);
    };
  }

  /**
   * `hold` for a holder that keeps its own record of having left and calls `release` at most once
   * (a cell waiting for a shared fetch: no closure per holder, bench: 300k cells wait in a cold run).
   */
  enter(flight: Flight<unknown>): void {
    (flight as Held<unknown>).waiters += 1;
  }

  /**
   * `enter` for a caller waiting as a record: woken (`wake`) when the flight settles, in the order
   * they came, by the flight's one reaction (a cold model has ~90 cells per answer waiting through
   * minutes of pacing: a promise and closures per cell were most of its heap peak). It leaves, if
   * it must, through `release`. A flight already settled wakes nobody: read it at once instead.
   */
  wait(flight: Flight<unknown>, waiter: Waiter): void {
    const held = flight as Held<unknown>;
    held.waiters += 1;
    (held.waiting ??= []).push(waiter);
  }

  /** One holder counted by `enter` leaves (once): see `hold`. */
  release(flight: Flight<unknown>, reason?: unknown): void {
    const held = flight as Held<unknown>;
    held.waiters -= 1;
    if (held.waiters > 0 || held.settled) return;
    if (this.flights.get(held.key) === held) this.flights.delete(held.key);
    held.controller.abort(reason);
  }

  /** Resolves when every flight findable now has settled (whatever their outcome). */
  async allSettled(): Promise<void> {
    await Promise.allSettled([...this.flights.values()].map((f) => f.answer));
  }

  /**
   * The outcome of the work under `key` for one caller with its own `signal`: it may abort alone
   * (AbortError) while the shared work goes on for the others.
   */
  join<T>(
    key: string,
    signal: AbortSignal | undefined,
    start: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    if (signal?.aborted) return Promise.reject(new AbortError({ cause: signal.reason }));
    const shared = this.begin(key, start);
    const leave = this.hold(shared);
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const onAbort = (): void => {
        if (settled) return;
        settled = true;
        leave(signal?.reason);
        reject(new AbortError({ cause: signal?.reason }));
      };
      const done = (): boolean => {
        if (settled) return false;
        settled = true;
        signal?.removeEventListener("abort", onAbort);
        leave();
        return true;
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      shared.answer.then(
        (value) => done() && resolve(value),
        (err: unknown) => done() && reject(err),
      );
    });
  }
}

/**
 * A caller counted by `wait` leaves `flight` (at most once), with only the flight at hand: a
 * waiting cell Excel cancels keeps no map or closure of its own (functions/cells/waiting-cell.ts).
 * See `release`.
 */
export function leaveWaiting(flight: Flight<unknown>, reason?: unknown): void {
  (flight as Held<unknown>).owner.release(flight, reason);
}

/** Wakes each waiter; one waiter's failure is its own (the others still wake). */
function wakeAll(waiting: readonly Waiter[]): void {
  for (const waiter of waiting) {
    try {
      waiter.wake();
    } catch {
      // A waiter handles its own failures (define-cell.ts rejects its cell); nothing to do here.
    }
  }
}
