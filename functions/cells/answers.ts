// The answers a cell's compute reads: from memory (the warm path, one reader per definition) or
// fetched during one call (the full path); each notes the query it lacked.

import {
  isStale,
  type KaishaClient,
  type RequestOptions,
  type ParamsOf,
  type ResponseOf,
} from "../../src/client";
import type { OperationId } from "../../src/contract/rules";
import type { CallContext } from "../run";

/** What compute reads answers through: undefined when the answer is not at hand (noted as lacked). */
export interface Answers<Q extends object, B> {
  read(query: Q): B | undefined;
}

/** The warm path's reader: the client's memory tier, set up around one synchronous compute. */
interface MemoryAnswers<Q extends object, B> extends Answers<Q, B> {
  begin(client: KaishaClient): void;
  end(): void;
  lacked(): Q | undefined;
}

/**
 * One reader for every warm cell of a definition (made once, not per cell: the warm path allocates
 * nothing); it holds the client only for the duration of one compute.
 */
export function memoryAnswers<Q extends object, B>(
  peek: (client: KaishaClient, query: Q) => B | undefined,
): MemoryAnswers<Q, B> {
  let client: KaishaClient | undefined;
  let missing: Q | undefined;
  return {
    begin(next) {
      client = next;
      missing = undefined;
    },
    end() {
      client = undefined;
    },
    lacked: () => missing,
    read(query) {
      const found = client === undefined ? undefined : peek(client, query);
      if (found === undefined) missing = query;
      return found;
    },
  };
}

/**
 * A definition's `peek` for answers of one operation: the client's memory tier (client.peek), the
 * function itself here, so a warm cell's read goes from its compute to the client through this
 * file alone (test/functions/warm-path.test.ts).
 */
export function peekOperation<O extends OperationId>(
  operationId: O,
): (client: KaishaClient, query: ParamsOf<O>) => ResponseOf<O> | undefined {
  return (client, query) => client.peek(operationId, query);
}

/**
 * defineTable's answer steps for a table reading one operation's answers: peeked in memory,
 * fetched through the call (client.request: what the client's method for it does).
 */
export function answersOf<O extends OperationId>(operationId: O) {
  return {
    peek: peekOperation(operationId),
    fetch: (ctx: CallContext, _args: unknown, _subject: unknown, query: ParamsOf<O>) =>
      ctx.client.request(operationId, query, ctx.options),
  };
}

/**
 * An answer fetched once for every cell that lacks it, through the client's sharing layer
 * (src/client/answer-flights.ts): the first cell begins `start`, later ones find it (a cell on the
 * warm path waits for it as a record, define-cell.ts). Cancellation is shared: the work is abandoned
 * only when every cell holding it was canceled. A value preview reads the cache alone
 * (`start` given the call's own options) and waits for nobody.
 */
export async function sharedAnswer<O extends OperationId>(
  ctx: CallContext,
  operationId: O,
  query: ParamsOf<O>,
  start: (options: RequestOptions) => Promise<ResponseOf<O>>,
): Promise<ResponseOf<O>> {
  if (ctx.preview) return start(ctx.options);
  const flights = ctx.client.flights();
  // The first cell's address places the request in the pacer's queue (src/client/queue-order.ts).
  const cell = ctx.options.staleSink?.address;
  const shared = flights.begin(operationId, query, (signal) =>
    start(cell === undefined ? { signal } : { signal, cell }),
  );
  ctx.onCanceled(flights.work.hold(shared));
  const body = await shared.answer;
  // A stale copy (served while the API fails) carries the client's marker: each cell says so.
  const stale = isStale(body);
  if (stale && ctx.options.staleSink !== undefined) ctx.options.staleSink.stale = true;
  // An answer served while it is asked again: this cell is recalculated when it changes.
  ctx.client.revalidation().noteServed(body, ctx.options.staleSink?.address, stale);
  return body;
}

/**
 * The full path's reader: what this call fetched, by query object. Queries are interned (one
 * frozen object per company and window), but a query built from arguments that were not (a
 * company given as a one-cell array, a looked-up name) is a new object each compute: it is found
 * by its content, or compute would lack it forever and the rounds would fetch it again from
 * memory without end (a loop of settled promises that starves the runtime's timers).
 */
interface FetchedAnswers<Q extends object, B> extends Answers<Q, B> {
  begin(): void;
  lacked(): Q | undefined;
  has(query: Q): boolean;
  add(query: Q, body: B): void;
}

export function fetchedAnswers<Q extends object, B>(): FetchedAnswers<Q, B> {
  const fetched = new Map<Q, B>();
  let missing: Q | undefined;
  // By identity first; by content only on a miss with answers at hand (a further round), so a
  // one-round cell (nearly every cold cell) makes no text.
  const find = (query: Q): B | undefined => {
    const known = fetched.get(query);
    if (known !== undefined || fetched.size === 0) return known;
    const key = contentKey(query);
    for (const [q, body] of fetched) {
      if (contentKey(q) !== key) continue;
      fetched.set(query, body);
      return body;
    }
    return undefined;
  };
  return {
    begin() {
      missing = undefined;
    },
    lacked: () => missing,
    has: (query) => find(query) !== undefined,
    add(query, body) {
      fetched.set(query, body);
    },
    read(query) {
      const found = find(query);
      if (found === undefined) missing = query;
      return found;
    },
  };
}

/** A query's content as text (queries are plain data: a company and a window or a day). */
function contentKey(query: object): string {
  return JSON.stringify(query);
}
