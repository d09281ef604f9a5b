// PEERS: listed competitors of a security (GET /peers), ascending by code as the API returns them.

import type { PeerCompany } from "../src/contract";
import { headersArg, optionalInteger } from "../src/excel/args";
import type { Column } from "../src/excel/shape";
import { plainCell, type Cell } from "../src/excel/values";
import { noResults, plainColumn, table, titleRowToday } from "./common";
import { companyRefArg, securityCodeOf } from "./company-arg";
import { run, type InvocationLike } from "./run";

/**
 * openapi.json getPeers: limit 1..20. The maximum is fetched once and cut here, so every `limit`
 * shares it.
 */
const FETCH_LIMIT = 20;

/** PEERS: security_code, name, industry, segments, competition_reason, parent_companies. */
export function peers(
  securityCode: unknown,
  limit: unknown,
  headers: unknown,
  invocation?: InvocationLike,
): Promise<Cell[][]> {
  return run(invocation, async (ctx) => {
    const ref = companyRefArg(securityCode);
    const count = optionalInteger(limit, "limit", { min: 1, max: FETCH_LIMIT }) ?? 8;
    const mode = headersArg(headers);
    const code = await securityCodeOf(ctx, ref);
    const body = await ctx.client.peers({ security_code: code, limit: FETCH_LIMIT }, ctx.options);
    const rows = body.peers.slice(0, count);
    if (rows.length === 0) throw noResults();
    const columns: Column<PeerCompany>[] = [
      ...["security_code", "name", "industry", "segments", "competition_reason"].map(
        (k) => plainColumn(k) as Column<PeerCompany>,
      ),
      {
        key: "parent_companies",
        label: "親会社等",
        value: (p) => plainCell(p.parent_companies.map((c) => c.name)),
      },
    ];
    const title = titleRowToday(ctx, body, code, "peers");
    return table(ctx, columns, rows, mode, title);
  });
}
