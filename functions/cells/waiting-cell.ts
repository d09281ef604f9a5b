// A cell waiting for another cell's fetch: one record that is both the fetch's waiter and what Excel
// holds for the cell's result, with no promise, settle functions or closure of its own.

import { AbortError, leaveWaiting, type Flight, type KaishaClient } from "../../src/client";
import type { Cell } from "../../src/excel/values";
import { toCellError } from "../excel-errors";
import { messageLang } from "../host";
import type { InvocationLike } from "../run";

/** The sharing layer's map of work under way (src/client/inflight.ts), as a client gives it. */
type Work = ReturnType<KaishaClient["flights"]>["work"];

/**
 * A result still to come, as Excel's runtime takes it: custom-functions-runtime.js
 * `_invokeFunctionAndSetResult` calls `then(onValue, onError)` on a result whose `then` is a
 * function and ignores what it returns, as `await` and `Promise.resolve` do. A promise is one.
 */
export interface PendingCell {
  then(onValue: (value: Cell) => void, onError: (error: unknown) => void): unknown;
}

/** What a waiting cell was woken to: its value or the full path's promise of it, or its error. */
type Outcome = Cell | PromiseLike<Cell> | Failed;

/** An error a waiting cell settled with (made only for a cell that fails). */
class Failed {
  constructor(readonly error: unknown) {}
}

/** A defined cell's waiting cells: the record with how that cell computes once woken. */
export type WaitingKind = new (
  flight: Flight<unknown>,
  invocation: InvocationLike | undefined,
  a: unknown,
  b: unknown,
  c: unknown,
  d: unknown,
  e: unknown,
  f: unknown,
) => WaitingCell;

/**
 * The waiting cells of one defined cell (define-cell.ts), woken to `woken`: its value computed
 * again, or the full path's promise of it; it throws the cell's error.
 */
export function waitingKind(woken: (cell: WaitingCell) => Cell | Promise<Cell>): WaitingKind {
  return class extends WaitingCell {
    protected override woken(): Cell | Promise<Cell> {
      return woken(this);
    }
  };
}

/** Not woken yet. */
const PENDING: unique symbol = Symbol("pending");

/**
 * One waiting cell: its call (to compute it again once the fetch has settled) and Excel's two
 * callbacks. A cold Model 500 has ~180k of these at its heap peak (bench/scale-run.ts): with a
 * promise, its settle functions and a cancel closure, each with its context, a cell held ~450 bytes,
 * now ~215 (test/functions/waiting-cells.test.ts). Cancellation is the record's own method bound
 * to it (no context); a cancelled cell wakes with the others.
 */
export abstract class WaitingCell implements PendingCell {
  /** The fetch it waits for; undefined once woken, or cancelled (then it wakes to an AbortError). */
  private flight: Flight<unknown> | undefined;
  private onValue: ((value: Cell) => void) | undefined = undefined;
  private onError: ((error: unknown) => void) | undefined = undefined;
  private outcome: Outcome | typeof PENDING = PENDING;

  constructor(
    flight: Flight<unknown>,
    readonly invocation: InvocationLike | undefined,
    readonly a: unknown,
    readonly b: unknown,
    readonly c: unknown,
    readonly d: unknown,
    readonly e: unknown,
    readonly f: unknown,
  ) {
    this.flight = flight;
  }

  /** The cell's value once the fetch settled, or the full path's promise of it; throws its error. */
  protected abstract woken(): Cell | PromiseLike<Cell>;

  /** Waits in `work` for the flight as one record, Excel's cancellation leaving it. */
  waitIn(work: Work): this {
    work.wait(this.flight as Flight<unknown>, this);
    if (this.invocation !== undefined) this.invocation.onCanceled = this.cancel.bind(this);
    return this;
  }

  /** Excel dropped the cell: it leaves the fetch (abandoned when nobody is left) and wakes failed. */
  cancel(): void {
    const { flight } = this;
    if (flight === undefined) return;
    this.flight = undefined;
    leaveWaiting(flight);
  }

  /** The fetch settled (still findable this turn): the cell computes again, or fails if cancelled. */
  wake(): void {
    const { invocation } = this;
    // Settled: the handler must not keep the record (and its call) alive through the invocation.
    if (invocation !== undefined) invocation.onCanceled = undefined;
    const cancelled = this.flight === undefined;
    this.flight = undefined;
    let outcome: Outcome;
    try {
      // Excel dropped this cell: nothing more is asked for it (its fetch may have been abandoned).
      if (cancelled) throw new AbortError();
      outcome = this.woken();
    } catch (err) {
      // One cell's failure is its own: the others still wake.
      outcome = new Failed(toCellError(err, messageLang()));
    }
    this.outcome = outcome;
    const { onValue, onError } = this;
    if (onValue === undefined || onError === undefined) return;
    this.onValue = undefined;
    this.onError = undefined;
    tell(outcome, onValue, onError);
  }

  then(onValue: (value: Cell) => void, onError: (error: unknown) => void): void {
    const { outcome } = this;
    if (outcome !== PENDING) {
      // Woken before this caller came (`await` asks a turn late): told on a later turn, as a
      // settled promise tells.
      const settled =
        outcome instanceof Failed ? Promise.reject(outcome.error) : Promise.resolve(outcome);
      settled.then(onValue, onError);
      return;
    }
    const first = this.onValue;
    const firstError = this.onError;
    if (first === undefined || firstError === undefined) {
      this.onValue = onValue;
      this.onError = onError;
      return;
    }
    // A second caller (Excel asks once): each is told, in the order they came.
    this.onValue = (value) => {
      first(value);
      onValue(value);
    };
    this.onError = (error) => {
      firstError(error);
      onError(error);
    };
  }
}

/** Tells Excel's callbacks the outcome: a promise's when it settles, else at once. */
function tell(
  outcome: Outcome,
  onValue: (value: Cell) => void,
  onError: (error: unknown) => void,
): void {
  if (outcome instanceof Failed) onError(outcome.error);
  else if (isPending(outcome)) void outcome.then(onValue, onError);
  else onValue(outcome);
}

/** Whether a cell's result is still to come (a promise or a waiting cell), not a value. */
function isPending(result: Cell | PendingCell): result is PendingCell {
  return (
    typeof result === "object" &&
    result !== null &&
    typeof (result as Partial<PendingCell>).then === "function"
  );
}
