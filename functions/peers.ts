// PEERS: listed competitors of a security (GET /peers), ascending by code as the API returns them.

import type { PeerCompany } from "../src/contract";
import type { ParamsOf, ResponseOf } from "../src/client";
import { headersArg, optionalInteger, type HeaderMode } from "../src/excel/args";
import type { CompanyRef } from "../src/excel/company-ref";
import type { Column } from "../src/excel/shape";
import { plainCell } from "../src/excel/values";
import { noResults, plainColumn, table, titleRowToday } from "./common";
import { companyRefArg } from "./company-arg";
import type { InvocationLike } from "./run";
import { defineTable, type TableResult } from "./cells/define-table";
import { internedQuery } from "./cells/interned-args";
import { answersOf } from "./cells/answers";
import { LACKING } from "./cells/rounds";
import { bySecurityCode } from "./cells/subjects";

/**
 * openapi.json getPeers: limit 1..20. The maximum is fetched once and cut here, so every `limit`
 * shares it.
 */
const FETCH_LIMIT = 20;

/** PEERS' arguments read. */
interface PeersArgs {
  ref: CompanyRef;
  count: number;
  mode: HeaderMode;
}

function peersQuery(code: string): ParamsOf<"getPeers"> {
  return internedQuery(`getPeers|${code}`, () => ({ security_code: code, limit: FETCH_LIMIT }));
}

const COLUMNS: Column<PeerCompany>[] = [
  ...["security_code", "name", "industry", "segments", "competition_reason"].map(
    (k) => plainColumn(k) as Column<PeerCompany>,
  ),
  {
    key: "parent_companies",
    label: "親会社等",
    value: (p) => plainCell(p.parent_companies.map((c) => c.name)),
  },
];

/** PEERS: security_code, name, industry, segments, competition_reason, parent_companies. */
const peersTable = defineTable<PeersArgs, string, ParamsOf<"getPeers">, ResponseOf<"getPeers">>({
  parse: ([company, limit, headers]) => ({
    ref: companyRefArg(company),
    count: optionalInteger(limit, "limit", { min: 1, max: FETCH_LIMIT }) ?? 8,
    mode: headersArg(headers),
  }),
  needs: {
    ...bySecurityCode<PeersArgs>(),
    first: (_args, code) => [peersQuery(code)],
    ...answersOf("getPeers"),
  },
  compute(args, code, answers, shaping) {
    const body = answers.read(peersQuery(code));
    if (body === undefined) return LACKING;
    const rows = body.peers.slice(0, args.count);
    if (rows.length === 0) throw noResults();
    const title = titleRowToday(shaping, body, code, "peers");
    return table(shaping, COLUMNS, rows, args.mode, title);
  },
});

export function peers(
  securityCode: unknown,
  limit: unknown,
  headers: unknown,
  invocation?: InvocationLike,
): TableResult {
  return peersTable(invocation, [securityCode, limit, headers]);
}
