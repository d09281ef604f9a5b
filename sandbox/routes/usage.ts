// GET /usage (openapi.json getUsage): remaining requests of the day; never consumes the daily
// limit.
import { attribution } from "../lib/attribution";
import { defineRoute } from "../lib/route";

export const usageRoute = defineRoute({
  operationId: "getUsage",
  countsDaily: false,
  handle({ state, key }) {
    // openapi.json info.description: every 200 carries attribution, though UsageResponse does not
    // list it.
    const body = { ...state.limiter.usage(key), attribution: attribution() };
    return body;
  },
});
