// PRICES (daily prices, every page followed) over GET /securities/{code}/prices; PRICE is price-cell.ts.

import type { PricesResponse, SecurityDailyPrice } from "../src/contract";
import { headersArg, optionalDate, type HeaderMode } from "../src/excel/args";
import type { CompanyRef } from "../src/excel/company-ref";
import { jstIsoDate, minusOneYear, upToToday } from "../src/excel/dates";
import { dateCell } from "../src/excel/values";
import { dateColumn, fieldList, noResults, numberColumn, table, titleRow } from "./common";
import { refuseRange } from "./excel-errors";
import { companyRefArg } from "./company-arg";
import { orderArg, type Order } from "../src/excel/order";
import { isStale, type KaishaClient } from "../src/client";
import type { InvocationLike } from "./run";
import { EARLIEST, noPricesBefore, PRICE_FIELDS } from "./price-cell";
import {
  notePrices as noteRanges,
  peekPricesToLatest,
  pricesToLatest,
} from "../src/domain/network-rules";
import { defineTable, type TableResult } from "./cells/define-table";
import { fetchWalk, peekWalk, type PageWalk, type WalkLimits } from "./cells/page-walks";
import { internedQuery } from "./cells/interned-args";
import { LACKING } from "./cells/rounds";
import { bySecurityCode } from "./cells/subjects";

export { price } from "./price-cell";

/** openapi.json getPrices: limit 1..500; the largest page keeps the request count lowest. */
const PAGE_SIZE = 500;
/** About 20 years of trading days fit in 11 pages; the cap only stops a runaway. */
const MAX_PAGES = 40;

/** PRICES' arguments read (the start of the range depends on today: compute reads it). */
interface PricesArgs {
  ref: CompanyRef;
  asked: string | undefined;
  end: string | undefined;
  keys: readonly string[];
  direction: Order;
  mode: HeaderMode;
}

/** The page conditions of a range with an end (openapi.json getPrices; only `cursor` changes). */
type PageQuery = Readonly<{ code: string; from: string; to: string; limit: number }>;

/**
 * The answer PRICES reads: up to the latest day, the client's stored spill (`to` only says which
 * days a PRICE cell may take from it); a range with an end, every page of it.
 */
type PricesQuery =
  | {
      readonly kind: "spill";
      readonly code: string;
      readonly from: string;
      readonly to: string | undefined;
    }
  | { readonly kind: "walk"; readonly code: string; readonly pages: PageQuery };

type PricesAnswer = PricesResponse | PageWalk<PricesResponse>;

/** A range's walk: every page, up to a cap that only stops a runaway. */
const RANGE: WalkLimits<PricesResponse> = { maxPages: MAX_PAGES };

function spillQuery(code: string, from: string, to: string | undefined): PricesQuery {
  return internedQuery(`spill|${code}|${from}|${to ?? ""}`, () => ({
    kind: "spill" as const,
    code,
    from,
    to,
  }));
}

function walkQuery(code: string, from: string, to: string): PricesQuery {
  return internedQuery(`getPrices|${code}|${from}|${to}`, () => ({
    kind: "walk" as const,
    code,
    pages: Object.freeze({ code, from, to, limit: PAGE_SIZE }),
  }));
}

function parsePrices([company, from, to, fields, order, headers]: readonly unknown[]): PricesArgs {
  const ref = companyRefArg(company);
  const end = optionalDate(to, "to");
  // openapi.json getPrices: nothing before 2005-01-01; say so rather than blame a `from` the user
  // never typed.
  if (end !== undefined && end < EARLIEST) throw noPricesBefore();
  const asked = optionalDate(from, "from");
  // The date column always comes first; "date" in the list (as PRICE accepts it) is not an error.
  const keys = fieldList(
    fields,
    "fields",
    ["date", ...PRICE_FIELDS],
    PRICE_FIELDS,
    "prices",
  ).filter((k) => k !== "date");
  return { ref, asked, end, keys, direction: orderArg(order), mode: headersArg(headers) };
}

/** Answers whose days a PRICE cell was told of (once per answer, not per recalculation). */
const noted = new WeakSet<object>();

/**
 * Every trading day from `from` to `to` is now known: PRICE cells for these days need no request.
 * Not from a spill served while it is asked again: days since its last one may be missing.
 */
function notePrices(
  client: KaishaClient,
  query: PricesQuery,
  first: PricesResponse | undefined,
  answer: PricesAnswer,
  rows: readonly SecurityDailyPrice[],
) {
  if (first === undefined || rows.length === 0 || isStale(first) || noted.has(answer)) return;
  noted.add(answer);
  const to = query.kind === "spill" ? query.to : query.pages.to;
  noteRanges(client, query.code, query.kind === "spill" ? query.from : query.pages.from, to, rows);
}

/** The first page (the title's source) and the rows, newest first as the API gives them. */
function rowsOf(answer: PricesAnswer): {
  first: PricesResponse | undefined;
  rows: readonly SecurityDailyPrice[];
} {
  return "pages" in answer
    ? { first: answer.pages[0], rows: answer.pages.flatMap((p) => p.prices) }
    : { first: answer, rows: answer.prices };
}

/** Refused before any request: a range starting after today or after its `to`. */
function refusePrices({ asked, end }: PricesArgs, today: string, userToday: string): void {
  // The date asked, not the start used: `from` before 2005 starts at 2005-01-01, which is not
  // after a `to` (itself not before it).
  refuseRange(asked, end, today, userToday);
}

/**
 * PRICES: daily prices from `from` to `to` (default: the year up to `to` or today, JST), oldest
 * first (`order` "desc": newest first, as the API). A range with `to` follows next_cursor through
 * every page; one without (up to the latest day) is the client's stored spill, extended after each
 * close by the new days only.
 */
const pricesTable = defineTable<PricesArgs, string, PricesQuery, PricesAnswer>({
  parse: parsePrices,
  needs: {
    refuse: refusePrices,
    ...bySecurityCode<PricesArgs>(),
    // The range's start depends on today: compute names the one answer it reads.
    first: () => [],
    // A spill: the stored one while it is fresh in memory (src/domain/network-rules.ts peekPricesToLatest), noted for
    // PRICE as the full path notes it (a reopened workbook's spill may be read here first).
    peek(client, query) {
      if (query.kind === "walk") return peekWalk(client, "getPrices", query.pages, RANGE);
      const answer = peekPricesToLatest(client, query.code, query.from);
      if (answer !== undefined) notePrices(client, query, answer, answer, answer.prices);
      return answer;
    },
    async fetch(ctx, _args, _code, query) {
      const answer =
        query.kind === "spill"
          ? await pricesToLatest(ctx.client, query.code, query.from, ctx.options)
          : await fetchWalk(ctx, "getPrices", query.pages, RANGE);
      const { first, rows } = rowsOf(answer);
      notePrices(ctx.client, query, first, answer, rows);
      return answer;
    },
  },
  compute(args, code, answers, shaping, client) {
    const { asked, end, keys, direction } = args;
    const today = client.today();
    // The year up to `to` or today by default; never before the history (refuse: not after `to`).
    // A `from` of the user's today east of Japan (refuse let it through) starts at JST today.
    let start = upToToday(asked, today) ?? minusOneYear(upToToday(end, today) ?? jstIsoDate());
    if (start < EARLIEST) start = EARLIEST;
    // A `to` of today or later (=TODAY()) is up to the latest day too: the same stored spill,
    // not a new range every morning.
    const query =
      end === undefined || end >= today
        ? spillQuery(code, start, end)
        : walkQuery(code, start, end);
    const answer = answers.read(query);
    if (answer === undefined) return LACKING;
    const { first, rows } = rowsOf(answer);
    if (rows.length === 0 || first === undefined) throw noResults();
    // A copy: the rows are reversed for "asc", and the stored answer is frozen.
    const shown = direction === "asc" ? [...rows].reverse() : rows;
    const columns = [
      dateColumn("date", shaping),
      ...keys.map((k) => numberColumn("prices", k, "jpy", shaping.host)),
    ];
    const latest = direction === "asc" ? shown[shown.length - 1] : shown[0];
    const title = titleRow(
      shaping,
      first,
      code,
      "prices",
      latest ? dateCell(latest.date, shaping.host) : "",
      first.attribution,
    );
    return table(shaping, columns, shown as unknown as Record<string, unknown>[], args.mode, title);
  },
});

export function prices(
  securityCode: unknown,
  from: unknown,
  to: unknown,
  fields: unknown,
  order: unknown,
  headers: unknown,
  invocation?: InvocationLike,
): TableResult {
  return pricesTable(invocation, [securityCode, from, to, fields, order, headers]);
}
