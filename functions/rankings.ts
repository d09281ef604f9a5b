// RANKINGS: market rankings of the latest business day (GET /rankings/{metric}).

import { headersArg, optionalInteger, requiredChoice } from "../src/excel/args";
import { dateCell, type Cell } from "../src/excel/values";
import { noResults, plainColumn, table, titleRow } from "./common";
import { run, type InvocationLike } from "./run";

/** spec 4.6: path metric values. */
const METRICS = ["gainers", "losers", "volume", "stop-high", "stop-low"] as const;

const COLUMNS = [
  "rank",
  "security_code",
  "name",
  "industry_name",
  "close_price",
  "change_percent",
  "volume",
];

/** RANKINGS: rank, security_code, name, industry_name, close_price, change_percent, volume. */
export function rankings(
  metric: unknown,
  limit: unknown,
  headers: unknown,
  invocation?: InvocationLike,
): Promise<Cell[][]> {
  return run(invocation, async (ctx) => {
    const m = requiredChoice(metric, "metric", METRICS, {
      stop_high: "stop-high",
      stop_low: "stop-low",
    });
    const count = optionalInteger(limit, "limit", { min: 1, max: 200 }) ?? 100;
    const mode = headersArg(headers);
    const body = await ctx.client.rankings({ metric: m, limit: count }, ctx.options);
    if (body.items.length === 0) throw noResults();
    const title = titleRow(
      ctx,
      body,
      m,
      "rankings",
      dateCell(body.target_date, ctx.host),
      body.attribution,
    );
    return table(
      ctx,
      COLUMNS.map((k) => plainColumn(k)),
      body.items as unknown as Record<string, unknown>[],
      mode,
      title,
    );
  });
}
