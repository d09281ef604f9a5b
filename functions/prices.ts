// PRICES (daily prices, every page followed) and PRICE (one value) over GET /securities/{code}/prices.

import type { PricesResponse, SecurityDailyPrice } from "../src/contract";
import { FIELD_DICTIONARY } from "../src/contract";
import { ArgumentError, headersArg, optionalDate } from "../src/excel/args";
import { jstIsoDate, minusOneYear } from "../src/excel/dates";
import { fieldsWhere } from "../src/excel/field-names";
import { unitOf } from "../src/excel/labels";
import { unitCell } from "../src/excel/number-formats";
import { dateCell, type Cell } from "../src/excel/values";
import { dateColumn, fieldList, noResults, numberColumn, table, titleRow } from "./common";
import { futureDate, noData } from "./excel-errors";
import { companyRefArg, securityCodeOf } from "./company-arg";
import { orderArg } from "../src/excel/order";
import { run, type InvocationLike } from "./run";

const PRICE_FIELDS: readonly string[] = FIELD_DICTIONARY.prices.map((f) => f.key);

/** openapi.json getPrices: limit 1..500; the largest page keeps the request count lowest. */
const PAGE_SIZE = 500;
/** About 20 years of trading days fit in 11 pages; the cap only stops a runaway. */
const MAX_PAGES = 40;
/** openapi.json getPrices: no price data before this day. */
const EARLIEST = "2005-01-01";

/** #N/A for a date before the price history (openapi.json getPrices: no data before 2005-01-01). */
function noPricesBefore(): Error {
  return noData(`No prices before ${EARLIEST}`, `${EARLIEST} より前の株価はありません`);
}

/**
 * PRICES: daily prices from `from` to `to` (default: the year up to `to` or today, JST), newest
 * first like the API (`order` "asc" for charts). Follows next_cursor through every page.
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

    const rows: SecurityDailyPrice[] = [];
    let first: PricesResponse | undefined;
    const code = await securityCodeOf(ctx, ref);
    const query = {
      code,
      from: start,
      limit: PAGE_SIZE,
      ...(end !== undefined ? { to: end } : {}),
    };
    for await (const page of ctx.client.paginate("getPrices", query, {
      ...ctx.options,
      maxPages: MAX_PAGES,
    })) {
      first ??= page;
      rows.push(...page.prices);
    }
    if (rows.length === 0 || first === undefined) throw noResults();
    // Every trading day from start to end is now known: PRICE cells for these days need no request.
    ctx.client.notePrices(code, start, end, rows);
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
    return table(ctx, columns, rows as unknown as Record<string, unknown>[], mode, title);
  });
}

/**
 * PRICE: one value (default close) of the latest trading day, or of the last trading day on or
 * before `date` (a weekend, a holiday or a day without trades, whose close is null, gives the
 * last close before it; field "date" says which day). A date after today is refused.
 */
export function price(
  securityCode: unknown,
  field: unknown,
  date: unknown,
  invocation?: InvocationLike,
): Promise<Cell> {
  return run(invocation, async (ctx) => {
    const ref = companyRefArg(securityCode);
    const [key = "close", ...more] = fieldList(
      field,
      "field",
      [...PRICE_FIELDS, "date"],
      ["close"],
      "prices",
      true,
    );
    if (more.length > 0) throw new ArgumentError("field", fieldsWhere("prices", true), field);
    const day = optionalDate(date, "date");
    if (day !== undefined && day < EARLIEST) throw noPricesBefore();
    const today = ctx.client.today();
    if (day !== undefined && day > today) throw futureDate(day, today);
    const code = await securityCodeOf(ctx, ref);
    // A date: the row comes from a shared price window (or a PRICES walk already received), so a
    // column of 250 dates costs one or two requests; no date: the latest day, one request.
    let row =
      day === undefined
        ? (await ctx.client.prices({ code, limit: 1 }, ctx.options)).prices[0]
        : await ctx.client.priceOnOrBefore(code, day, ctx.options);
    // The latest day without a trade (close null): the last close before it, as for a date.
    if (day === undefined && row !== undefined && row.close === null)
      row = await ctx.client.priceOnOrBefore(code, row.date, ctx.options);
    if (row === undefined) {
      throw day === undefined
        ? noResults()
        : noData(
            `No trading day on or before ${day} for ${code}`,
            `${day} 以前に ${code} の取引日はありません`,
          );
    }
    if (key === "date") return dateCell(row.date, ctx.host);
    const value = (row as unknown as Record<string, unknown>)[key];
    return unitCell(value, unitOf("prices", key), "jpy", ctx.host);
  });
}
