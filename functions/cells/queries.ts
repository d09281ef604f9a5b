// Frozen query objects for table functions, one per key: a call finds what it fetched by the query
// itself, and the client keeps what it learned of a frozen params object on it (client.peek).

import type { KaishaClient, ParamsOf } from "../../src/client";
import { BoundedMemo } from "../../src/util/bounded-memo";
import type { OperationId } from "../../src/contract/rules";
import type { CallContext } from "../run";

/** A model names a few hundred companies in a few shapes each; past this the memo starts over. */
const queries = new BoundedMemo<string, object>(16_384);

/**
 * The one query for `key` (the operation and its conditions, e.g. "getPeers|7203"), made frozen
 * by `make` the first time.
 *
 * @example internedQuery("getPeers|7203", () => Object.freeze({ security_code: "7203", limit: 20 }))
 */
export function internedQuery<Q extends object>(key: string, make: () => Q): Q {
  const known = queries.get(key);
  if (known !== undefined) return known as Q;
  return queries.set(key, Object.freeze(make())) as Q;
}

/**
 * defineTable's answer steps for a table reading one operation's answers: peeked in memory,
 * fetched through the call (client.request: what the client's method for it does).
 */
export function answersOf<O extends OperationId>(operationId: O) {
  return {
    peek: (client: KaishaClient, query: ParamsOf<O>) => client.peek(operationId, query),
    fetch: (ctx: CallContext, _args: unknown, _subject: unknown, query: ParamsOf<O>) =>
      ctx.client.request(operationId, query, ctx.options),
  };
}
