// USAGE: the remaining request count of the day (GET /usage; never cached, does not consume the limit).

import type { InvocationLike } from "./run";
import { defineCell, LACKING, type CellResult } from "./cells/define-cell";

/** USAGE has no arguments: one frozen object stands for them and for its one answer. */
const NO_ARGS = Object.freeze({});

/** USAGE: remaining requests (openapi.json getUsage, bearerAuth). */
const usageCell = defineCell<object, object, object, { remaining: number }>({
  parse: () => NO_ARGS,
  needs: {
    subjectAtHand: () => NO_ARGS,
    subject: () => NO_ARGS,
    first: () => [NO_ARGS],
    // openapi.json getUsage: the count changes with every request elsewhere; never read from memory.
    peek: () => undefined,
    fetch: (ctx) => ctx.client.usage(ctx.options),
  },
  compute(_args, _subject, answers) {
    const body = answers.read(NO_ARGS);
    return body === undefined ? LACKING : body.remaining;
  },
});

export function usage(invocation?: InvocationLike): CellResult {
  return usageCell(invocation);
}
