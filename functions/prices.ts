// PRICES (daily prices, every page followed) over GET /securities/{code}/prices; PRICE is price-cell.ts.

import type { PricesResponse, SecurityDailyPrice } from "../src/contract";
import { ArgumentError, headersArg, optionalDate } from "../src/excel/args";
import { jstIsoDate, minusOneYear } from "../src/excel/dates";
import { dateCell, type Cell } from "../src/excel/values";
import { dateColumn, fieldList, noResults, numberColumn, table, titleRow } from "./common";
import { futureDate } from "./excel-errors";
import { companyRefArg, securityCodeOf } from "./company-arg";
import { orderArg } from "../src/excel/order";
import { isStale } from "../src/client";
import { run, type CallContext, type InvocationLike } from "./run";
import { EARLIEST, noPricesBefore, PRICE_FIELDS } from "./price-cell";
import { TableMemo } from "./cells/table-memo";

export { price } from "./price-cell";

/** Up-to-latest spills built from the same stored answer: a warm recalculation reuses them. */
const spills = new TableMemo();

/** openapi.json getPrices: limit 1..500; the largest page keeps the request count lowest. */
const PAGE_SIZE = 500;
/** About 20 years of trading days fit in 11 pages; the cap only stops a runaway. */
const MAX_PAGES = 40;

/**
 * PRICES: daily prices from `from` to `to` (default: the year up to `to` or today, JST), oldest
 * first (`order` "desc": newest first, as the API). A range with `to` follows next_cursor through
 * every page; one without (up to the latest day) is the client's stored spill, extended after each
 * close by the new days only.
 */
export function prices(
  securityCode: unknown,
  from: unknown,
  to: unknown,
  fields: unknown,
  order: unknown,
  headers: unknown,
  invocation?: InvocationLike,
): Promise<Cell[][]> {
  return run(invocation, async (ctx) => {
    const ref = companyRefArg(securityCode);
    const end = optionalDate(to, "to");
    // openapi.json getPrices: nothing before 2005-01-01; say so rather than blame a `from` the user
    // never typed.
    if (end !== undefined && end < EARLIEST) throw noPricesBefore();
    const asked = optionalDate(from, "from");
    // A range starting after today holds no day yet: say so rather than answer nothing.
    const today = ctx.client.today();
    if (asked !== undefined && asked > today) throw futureDate(asked, today);
    let start = asked ?? minusOneYear(end ?? jstIsoDate());
    if (start < EARLIEST) start = EARLIEST;
    if (end !== undefined && start > end) {
      throw new ArgumentError(
        "from",
        { en: `a date on or before to (${end})`, ja: `to（${end}）以前の日付` },
        start,
      );
    }
    // The date column always comes first; "date" in the list (as PRICE accepts it) is not an error.
    const keys = fieldList(
      fields,
      "fields",
      ["date", ...PRICE_FIELDS],
      PRICE_FIELDS,
      "prices",
    ).filter((k) => k !== "date");
    const direction = orderArg(order);
    const mode = headersArg(headers);

    const code = await securityCodeOf(ctx, ref);
    // A `to` of today or later (=TODAY()) is up to the latest day too: the same stored spill,
    // not a new range every morning.
    const latestSpill = end === undefined || end >= today;
    const spill = latestSpill
      ? await ctx.client.pricesToLatest(code, start, ctx.options)
      : undefined;
    // Everything the table depends on besides the answer (a spill of ~1,250 rows per company is
    // most of a warm Model's table work when rebuilt on every recalculation).
    const signature = [
      code,
      start,
      keys.join(","),
      direction,
      mode,
      ctx.headerLanguage,
      ctx.host.dataTypes,
    ].join("|");
    const known = spill === undefined ? undefined : spills.get(spill, signature);
    if (known !== undefined) return known;
    const { first, rows } =
      spill !== undefined
        ? // A copy: the rows are reversed for "asc", and the stored answer is frozen.
          { first: spill, rows: [...spill.prices] }
        : await walk(ctx, { code, from: start, to: end as string, limit: PAGE_SIZE });
    if (rows.length === 0 || first === undefined) throw noResults();
    // Every trading day from start to end is now known: PRICE cells for these days need no request.
    // Not from a spill served while it is asked again: days since its last one may be missing.
    if (!isStale(first)) ctx.client.notePrices(code, start, end, rows);
    if (direction === "asc") rows.reverse();
    const columns = [dateColumn("date", ctx), ...keys.map((k) => numberColumn("prices", k))];
    const latest = direction === "asc" ? rows[rows.length - 1] : rows[0];
    const title = titleRow(
      ctx,
      first,
      code,
      "prices",
      latest ? dateCell(latest.date, ctx.host) : "",
      first.attribution,
    );
    const built = table(ctx, columns, rows as unknown as Record<string, unknown>[], mode, title);
    return spill === undefined ? built : spills.set(spill, signature, built);
  });
}

interface Walked {
  first: PricesResponse | undefined;
  rows: SecurityDailyPrice[];
}

/** A range with an end: every page of it, each page an answer cached as any other. */
async function walk(
  ctx: CallContext,
  query: { code: string; from: string; to: string; limit: number },
): Promise<Walked> {
  const rows: SecurityDailyPrice[] = [];
  let first: PricesResponse | undefined;
  for await (const page of ctx.client.paginate("getPrices", query, {
    ...ctx.options,
    maxPages: MAX_PAGES,
  })) {
    first ??= page;
    rows.push(...page.prices);
  }
  return { first, rows };
}
