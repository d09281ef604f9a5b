// RANKINGS: market rankings of the latest business day (GET /rankings/{metric}).

import { headersArg, optionalInteger, requiredChoice } from "../src/excel/args";
import { dateCell, type Cell } from "../src/excel/values";
import { noResults, plainColumn, table, titleRow, unitColumn } from "./common";
import { run, type InvocationLike } from "./run";

/** openapi.json getRankings: path metric values. */
const METRICS = ["gainers", "losers", "volume", "stop-high", "stop-low"] as const;

/** RANKINGS: rank, security_code, name, industry, close, change_percent (%), volume (shares). */
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
    // openapi.json RankingItem units: close_price yen, change_percent %, volume shares. The API's
    // industry_name / close_price show as `industry` / `close`, as in SECURITIES and PRICES.
    const columns = [
      ...["rank", "security_code", "name", "industry_name"].map((k) => plainColumn(k)),
      unitColumn("close_price", "jpy", ctx),
      unitColumn("change_percent", "percent", ctx),
      unitColumn("volume", "shares", ctx),
    ];
    return table(ctx, columns, body.items as unknown as Record<string, unknown>[], mode, title);
  });
}
