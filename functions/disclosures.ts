// DISCLOSURES: a security's disclosure list (GET /securities/{code}/disclosures), newest first.

import type { SecurityDisclosure, SecurityDisclosuresResponse } from "../src/contract";
import type { ParamsOf } from "../src/client";
import {
  headersArg,
  optionalDate,
  optionalInteger,
  optionalText,
  type HeaderMode,
} from "../src/excel/args";
import type { CompanyRef } from "../src/excel/company-ref";
import { jstIsoDate, upToToday } from "../src/excel/dates";
import { dateCell } from "../src/excel/values";
import {
  dateColumn,
  dateTimeColumn,
  noResults,
  orderedTable,
  plainColumn,
  titleRow,
} from "./common";
import { companyRefArg } from "./company-arg";
import { orderArg, type Order } from "../src/excel/order";
import { refuseRange } from "./excel-errors";
import type { InvocationLike } from "./run";
import { defineTable, type TableResult } from "./cells/define-table";
import { fetchWalk, peekWalk, type PageWalk, type WalkLimits } from "./cells/page-walks";
import { internedQuery } from "./cells/interned-args";
import { LACKING } from "./cells/rounds";
import { bySecurityCode } from "./cells/subjects";

/**
 * openapi.json listSecurityDisclosures: limit 1..100 per page; DISCLOSURES pages through for up to
 * this many rows.
 */
const MAX_ROWS = 1000;
const PAGE_MAX = 100;

/** DISCLOSURES' arguments read. */
interface DisclosuresArgs {
  ref: CompanyRef;
  start: string | undefined;
  end: string | undefined;
  type: string | undefined;
  count: number;
  mode: HeaderMode;
  direction: Order;
}

/** The first page's conditions and how many disclosures the walk gathers. */
interface DisclosuresQuery {
  readonly params: ParamsOf<"listSecurityDisclosures">;
  readonly count: number;
}
type DisclosuresPage = SecurityDisclosuresResponse;

/** The first page's conditions (openapi.json listSecurityDisclosures: only `cursor` changes). */
function disclosuresQuery(code: string, args: DisclosuresArgs, today?: string): DisclosuresQuery {
  const { type, count } = args;
  // The user's today east of Japan names JST today: no request for a day not reached yet.
  const start = today === undefined ? args.start : upToToday(args.start, today);
  const end = today === undefined ? args.end : upToToday(args.end, today);
  const limit = Math.min(count, PAGE_MAX);
  return internedQuery(
    `listSecurityDisclosures|${code}|${start ?? ""}|${end ?? ""}|${type ?? ""}|${count}`,
    () => ({
      params: Object.freeze({
        code,
        ...(start !== undefined ? { from: start } : {}),
        ...(end !== undefined ? { to: end } : {}),
        ...(type !== undefined ? { document_type: type } : {}),
        limit,
      }),
      count,
    }),
  );
}

/** The pages holding the latest `count` disclosures (one limits object per count). */
const limitsByCount = new Map<number, WalkLimits<DisclosuresPage>>();

function limitsOf(count: number): WalkLimits<DisclosuresPage> {
  let limits = limitsByCount.get(count);
  if (limits === undefined) {
    limits = {
      maxPages: Math.ceil(count / PAGE_MAX),
      enough: (pages) => pages.reduce((n, p) => n + p.disclosures.length, 0) >= count,
    };
    limitsByCount.set(count, limits);
  }
  return limits;
}

/**
 * DISCLOSURES: disclosed_at (JST date-time), filing_date, source, document_type, title, doc_id,
 * source_url, pdf_url. Timely-system items appear 24 hours after disclosure (openapi.json
 * listSecurityDisclosures).
 */
const disclosuresTable = defineTable<
  DisclosuresArgs,
  string,
  DisclosuresQuery,
  PageWalk<DisclosuresPage>
>({
  parse: ([company, from, to, documentType, limit, headers, order]) => ({
    ref: companyRefArg(company),
    start: optionalDate(from, "from"),
    end: optionalDate(to, "to"),
    type: optionalText(documentType, "document_type", 100),
    count: optionalInteger(limit, "limit", { min: 1, max: MAX_ROWS }) ?? 50,
    mode: headersArg(headers),
    direction: orderArg(order),
  }),
  needs: {
    // A range starting after today holds no disclosure yet (the user's own today east of Japan
    // is the latest day), and one starting after its `to` is reversed.
    refuse: ({ start, end }, today, userToday) => refuseRange(start, end, today, userToday),
    ...bySecurityCode<DisclosuresArgs>(),
    first: (args, code) => [disclosuresQuery(code, args)],
    peek: (client, { params, count }) =>
      peekWalk(client, "listSecurityDisclosures", params, limitsOf(count)),
    fetch: (ctx, _args, _code, { params, count }) =>
      fetchWalk(ctx, "listSecurityDisclosures", params, limitsOf(count)),
  },
  compute(args, code, answers, shaping, client) {
    const walk = answers.read(disclosuresQuery(code, args, client.today()));
    if (walk === undefined) return LACKING;
    const first = walk.pages[0];
    const rows: SecurityDisclosure[] = walk.pages.flatMap((p) => p.disclosures);
    if (first === undefined || rows.length === 0) throw noResults();
    const columns = [
      dateTimeColumn("disclosed_at", shaping),
      dateColumn("filing_date", shaping),
      ...["source", "document_type", "title", "doc_id", "source_url", "pdf_url"].map((k) =>
        plainColumn(k),
      ),
    ];
    const title = titleRow(
      shaping,
      first,
      code,
      "disclosures",
      dateCell(args.end ?? jstIsoDate(), shaping.host),
      first.attribution,
    );
    // The latest `count` disclosures, then put in the order asked.
    const latest = rows.slice(0, args.count);
    const timeOf = (r: (typeof latest)[number]) => r.disclosed_at ?? r.filing_date ?? "";
    return orderedTable(shaping, columns, latest, timeOf, args, title);
  },
});

export function disclosures(
  securityCode: unknown,
  from: unknown,
  to: unknown,
  documentType: unknown,
  limit: unknown,
  headers: unknown,
  invocation?: InvocationLike,
  order?: unknown,
): TableResult {
  return disclosuresTable(invocation, [
    securityCode,
    from,
    to,
    documentType,
    limit,
    headers,
    order,
  ]);
}
