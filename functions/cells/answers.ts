// The answers a cell's compute reads: from memory (the warm path, one reader per definition) or
// fetched during one call (the full path); each notes the query it lacked.

import type { KaishaClient } from "../../src/client";

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
