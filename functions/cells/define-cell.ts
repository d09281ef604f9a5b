// defineCell({ parse, needs, compute }): a custom function giving one value, answered from memory
// at once, after another cell's fetch, or through `run`, every path ending in the same `compute`.

import { AbortError, lazyCode, type Flight, type KaishaClient } from "../../src/client";
import { answeredCell } from "../../src/cell-errors";
import type { OperationId } from "../../src/contract/rules";
import type { Cell, HostCapabilities } from "../../src/excel/values";
import { getClient, sessionClient } from "../../src/session";
import { ArgumentError } from "../../src/excel/args";
import { FunctionError, toCellError } from "../excel-errors";
import { hostCapabilities, messageLang } from "../host";
import { failedAtOnce, inPreview, run, type InvocationLike } from "../run";
import { memoryAnswers, type Answers } from "./answers";
import type { AnswerSteps } from "./answer-steps";
import { inRounds, LACKING } from "./rounds";
import type { PendingCell, WaitingCell, WaitingKind } from "./waiting-cell";

export type { Answers } from "./answers";

export { LACKING } from "./rounds";

/**
 * What a single-value function needs besides its arguments: the subject and answers (answer-steps.ts),
 * and what lets a warm miss wait for another cell's fetch or report its error at once.
 */
interface CellNeeds<A, S, Q extends object, B> extends AnswerSteps<A, S, Q, B> {
  /**
   * When the full path's `fetch` shares its answers through the client's sharing layer
   * (answers.ts sharedAnswer, src/client/answer-flights.ts): their operation, and the query an
   * answer a warm cell lacked is fetched under (the full path may ask by the company as typed).
   * A cell lacking one while another cell fetches it then waits for that fetch as one record.
   */
  shares?: { operation: OperationId; fetchedAs(args: A, lacked: Q): Q };
  /**
   * True when the full path would compute with this very subject (`subject` gives the same one),
   * so an error compute throws from memory is the one it would report, word for word: the warm
   * path then reports it at once instead of computing it again through `run`.
   */
  finalSubject?(args: A, subject: S): boolean;
}

/**
 * One single-value function. `A` is its frozen argument object, `S` the company (or other subject)
 * its answers are asked for, `Q` a frozen query naming one answer, `B` that answer.
 */
export interface CellDefinition<A, S, Q extends object, B> {
  /**
   * The raw arguments (Excel's, in order, the invocation left out) read into one object whose
   * shared parts are frozen and interned (interned-args.ts); ArgumentError for the first refused
   * (#VALUE!).
   */
  parse: OfRawArguments<A>;
  /** The subject and the answers compute reads, and how each is found (in memory or fetched). */
  needs: CellNeeds<A, S, Q, B>;
  /**
   * The value from the answers `answers` holds, LACKING when one it read is missing (later rounds:
   * an older window, the semiannual halves), or a thrown error (#N/A, #VALUE!) when there is none.
   * Synchronous and the same for every path: a cell answered from memory and one answered after a
   * request cannot differ.
   */
  compute(
    args: A,
    subject: S,
    answers: Answers<Q, B>,
    host: HostCapabilities,
    client: KaishaClient,
  ): Cell | typeof LACKING;
}

/**
 * What the warm path gives when memory does not hold the value: the full path, unless the miss
 * found an error that path would report word for word, or another cell's fetch to wait for.
 */
class Miss {
  constructor(
    readonly failure: Error | undefined,
    readonly flight: Flight<unknown> | undefined,
    readonly client: KaishaClient | undefined,
  ) {}
}

/** A miss with nothing found: the full path (one object for every such miss). */
const TO_FULL = new Miss(undefined, undefined, undefined);

/** A function of a single-value function's raw arguments (six at most, the invocation aside). */
type OfRawArguments<R> = (
  a: unknown,
  b: unknown,
  c: unknown,
  d: unknown,
  e: unknown,
  f: unknown,
) => R;

/**
 * A defined cell as functions/index.ts calls it: the invocation first, then the raw arguments. The
 * value itself when it is at hand (Excel's runtime sets a result that is not a thenable at once:
 * custom-functions-runtime.js `_invokeFunctionAndSetResult`), else a result to come: a promise, or
 * a cell waiting for another cell's fetch (waiting-cell.ts).
 */
export type DefinedCell = CellCall<CellResult>;

/** What a defined cell gives: its value, or a result to come (Excel's runtime calls its `then`). */
export type CellResult = Cell | PendingCell;

/** A call with Excel's arguments, the invocation first, giving `R`. */
type CellCall<R> = (
  invocation: InvocationLike | undefined,
  a?: unknown,
  b?: unknown,
  c?: unknown,
  d?: unknown,
  e?: unknown,
  f?: unknown,
) => R;

/**
 * The custom-function implementation of `definition`. It picks one of three paths and calls the
 * same `compute` on each:
 *
 * - warm: every answer fresh in memory; computed at once, with no request, await or per-call
 *   context (a warm recalculation's cells; the value itself, not a promise: Excel sets it at once);
 * - join: an answer lacking is being fetched for another cell; wait for it as one record in that
 *   fetch's list (a cold model has ~90 cells per answer waiting through minutes of pacing), then
 *   as warm;
 * - full: `run` (cancellation, value preview, stale marking, deadline, the Problems list); fetches
 *   what compute lacks, round by round. Every failure is reported by this path, so an error in
 *   memory is also recorded for the cell.
 */
export function defineCell<A, S, Q extends object, B>(
  definition: CellDefinition<A, S, Q, B>,
): DefinedCell {
  const { parse, needs, compute } = definition;
  const memory = memoryAnswers<Q, B>(needs.peek);
  const { shares } = needs;

  /** The value from memory alone, or the miss: what the cell does instead. */
  const warm: OfRawArguments<Cell | Miss> = (a, b, c, d, e, f) => {
    let args: A;
    try {
      args = parse(a, b, c, d, e, f);
    } catch (err) {
      // The full path parses the same arguments the same way: its error is this one.
      return err instanceof ArgumentError ? new Miss(err, undefined, undefined) : TO_FULL;
    }
    let subject: S | undefined;
    try {
      // The session's client read as a binding (a call only before it is made).
      const client = sessionClient ?? getClient();
      subject = needs.subjectAtHand(args, client);
      if (subject === undefined) return TO_FULL;
      memory.begin(client);
      const value = compute(args, subject, memory, hostCapabilities, client);
      if (value !== LACKING) return value;
      const lacked = memory.lacked();
      if (lacked === undefined || shares === undefined) return TO_FULL;
      const flight = client
        .flights()
        .find(shares.operation, shares.fetchedAs(args, lacked) as never) as
        Flight<unknown> | undefined;
      return flight === undefined ? TO_FULL : new Miss(undefined, flight, client);
    } catch (err) {
      // A data error (#N/A no such period) from fresh answers is final when the full path would
      // compute with the same subject; anything else, the full path reports (and records).
      const final =
        (err instanceof FunctionError || err instanceof ArgumentError) &&
        subject !== undefined &&
        needs.finalSubject?.(args, subject) === true;
      return final ? new Miss(err, undefined, undefined) : TO_FULL;
    } finally {
      memory.end();
    }
  };

  const full: CellCall<Promise<Cell>> = (invocation, a, b, c, d, e, f) =>
    run(invocation, async (ctx) => {
      const args = parse(a, b, c, d, e, f);
      const known = needs.subject(ctx, args);
      const subject = known instanceof Promise ? await known : known;
      return inRounds<Q, B, Cell>(
        needs.first(args, subject),
        (answers) => compute(args, subject, answers, ctx.host, ctx.client),
        (q) => needs.fetch(ctx, args, subject, q),
      );
    });

  /**
   * A waiting cell, woken: read again as warm, or through the full path when its answer is not in
   * memory (a stale copy, an error, an older window still to fetch): the full path finds the
   * settled fetch, still findable this turn, and reads its outcome.
   */
  const woken = (cell: WaitingCell): Cell | Promise<Cell> => {
    const { invocation, a, b, c, d, e, f } = cell;
    const value = warm(a, b, c, d, e, f);
    return value instanceof Miss
      ? full(invocation, a, b, c, d, e, f)
      : answeredAtOnce(invocation, value);
  };
  /** This function's waiting cells (made once waiting-cell.ts has come). */
  let Waiting: WaitingKind | undefined;

  /**
   * `afterWaitingCells` for one call, apart from `cell`: closures over `cell`'s own parameters
   * made V8 allocate their context on every entry of `cell`, a warm one too (~80 B per warm cell:
   * bench profile-warm HEAP=1, a tenth of a warm recalculation's garbage).
   */
  const beforeWaitingCells: CellCall<Promise<Cell>> = (invocation, a, b, c, d, e, f) =>
    afterWaitingCells(
      invocation,
      () => cell(invocation, a, b, c, d, e, f),
      () => full(invocation, a, b, c, d, e, f),
    );

  const cell: DefinedCell = (invocation, a, b, c, d, e, f) => {
    const quick = warm(a, b, c, d, e, f);
    if (!(quick instanceof Miss)) return answeredAtOnce(invocation, quick);
    const preview = inPreview(invocation);
    if (quick.failure !== undefined && !preview) return failedAtOnce(invocation, quick.failure);
    const { flight, client } = quick;
    // A settled fetch is read by the full path now, while it is still findable (it is forgotten a
    // turn later; waiting for it would find nothing and ask again).
    if (flight === undefined || client === undefined || flight.settled || preview) {
      // A cold cell: the cells after it may wait for its fetch, so their code comes meanwhile.
      if (waiting === undefined && !preview) waitingCells().catch(ignore);
      return full(invocation, a, b, c, d, e, f);
    }
    if (waiting === undefined) return beforeWaitingCells(invocation, a, b, c, d, e, f);
    // The join path: one record on the fetch's entry in the client's sharing layer
    // (waiting-cell.ts; a cold model has ~90 cells per answer waiting through minutes of pacing).
    Waiting ??= waiting.waitingKind(woken);
    return new Waiting(flight, invocation, a, b, c, d, e, f).waitIn(client.flights().work);
  };
  return cell;
}

/**
 * waiting-cell.ts once it has come: loaded by the session's first cold cell, not with the
 * functions (a warm session never waits; test/e2e/build.test.ts holds the start-up code's budget).
 */
let waiting: typeof import("./waiting-cell") | undefined;
/** The chunk, loaded once (again after a failed load: src/client/lazy-code.ts). */
const waitingCode = lazyCode(() => import(/* webpackChunkName: "waiting-cell" */ "./waiting-cell"));

/**
 * A cell that would wait, before waiting-cell.ts has come (the session's first such cells, for one
 * chunk load from the add-in's origin): `again` once it has (the cell called anew: it joins the
 * fetch, or is answered from memory), `full` if it cannot come; cancelled meanwhile, it fails as
 * a cancelled waiting cell does.
 */
function afterWaitingCells(
  invocation: InvocationLike | undefined,
  again: () => CellResult,
  full: () => Promise<Cell>,
): Promise<Cell> {
  let cancelled = false;
  const onCanceled = (): void => {
    cancelled = true;
  };
  if (invocation !== undefined) invocation.onCanceled = onCanceled;
  const then = (next: () => CellResult) => (): Cell | Promise<Cell> => {
    if (invocation?.onCanceled === onCanceled) invocation.onCanceled = undefined;
    if (cancelled) throw toCellError(new AbortError(), messageLang());
    // A waiting cell given to a promise is adopted: the promise settles as it does.
    return next() as Cell | Promise<Cell>;
  };
  return waitingCells().then(then(again), then(full));
}

/** A failed load is tried again by the next cell (which waits through the full path meanwhile). */
function ignore(): void {}

/** Loads waiting-cell.ts (once: lazyCode) and keeps it where the cells read it at once. */
function waitingCells(): Promise<unknown> {
  return waitingCode().then((module) => (waiting = module));
}

/**
 * A value given at once from memory: no per-call context, cancellation, await or promise (a warm
 * recalculation's 300k cells each made one, and Excel's runtime one more reaction on it). The cell
 * shows a value again, so its recorded error goes (not for a value preview: not what the cell keeps).
 */
function answeredAtOnce(invocation: InvocationLike | undefined, value: Cell): Cell {
  if (invocation !== undefined) answeredCell(invocation);
  return value;
}
