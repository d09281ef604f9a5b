// USAGE: the remaining request count of the day (GET /usage; never cached, does not consume the limit).

import type { Cell } from "../src/excel/values";
import { run, type InvocationLike } from "./run";

/** USAGE: remaining requests (openapi.json getUsage, bearerAuth). */
export function usage(invocation?: InvocationLike): Promise<Cell> {
  return run(invocation, async (ctx) => {
    const body = await ctx.client.usage(ctx.options);
    return body.remaining;
  });
}
