// A definition's `needs` (define-cell.ts, define-table.ts): the subject its answers are asked for,
// the answers its first round reads, and reading them from memory or the API.

import type { KaishaClient } from "../../src/client";
import type { CallContext } from "../run";

/** `A` the frozen argument object, `S` the subject, `Q` a frozen query naming one answer, `B` it. */
export interface AnswerSteps<A, S, Q extends object, B> {
  /** The subject when it is known without a request (a code), else undefined (a name to look up). */
  subjectAtHand(args: A, client: KaishaClient): S | undefined;
  /**
   * The subject through the call (a name looked up: one cached request). A subject at hand is the
   * very one `subjectAtHand` gives (so an error computed from memory is the full path's too), and
   * returned as it is, not as a promise: awaiting it would let a just-settled shared fetch be
   * forgotten before the cell reads it (src/client/answer-flights.ts keeps it findable one turn).
   */
  subject(ctx: CallContext, args: A): S | Promise<S>;
  /** The answers the first round reads: fetched together once compute lacks any of them. */
  first(args: A, subject: S): readonly Q[];
  /** The answer if it is fresh in memory (client.peek), else undefined. No request. */
  peek(client: KaishaClient, query: Q): B | undefined;
  /** The answer through the call's client and options (stale marking, deadline, cancellation). */
  fetch(ctx: CallContext, args: A, subject: S, query: Q): Promise<B>;
}
