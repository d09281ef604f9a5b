// PRICE (one price value): its arguments, the /prices answers it reads and one synchronous
// computation over them, defined once (functions/cells/define-cell.ts) for every path.

import type { PricesResponse, SecurityDailyPrice } from "../src/contract";
import { FIELD_DICTIONARY } from "../src/contract";
import { ArgumentError, optionalDate } from "../src/excel/args";
import { upToToday } from "../src/excel/dates";
import type { CompanyRef } from "../src/excel/company-ref";
import { fieldsWhere } from "../src/excel/field-names";
import { unitOf } from "../src/excel/labels";
import { unitCell } from "../src/excel/number-formats";
import { dateCell } from "../src/excel/values";
import { priceOnOrBefore } from "../src/domain/network-rules";
import { fieldList, noResults } from "./common";
import { noData, refuseFutureDay } from "./excel-errors";
import { companyRefArg, securityCodeOf } from "./company-arg";
import type { InvocationLike } from "./run";
import { defineCell, LACKING, type CellResult } from "./cells/define-cell";
import { argsTable, internedArgs, internedQuery, internedText } from "./cells/interned-args";

export const PRICE_FIELDS: readonly string[] = FIELD_DICTIONARY.prices.map((f) => f.key);

/** openapi.json getPrices: no price data before this day. */
export const EARLIEST = "2005-01-01";

/** #N/A for a date before the price history (openapi.json getPrices: no data before 2005-01-01). */
export function noPricesBefore(): Error {
  return noData(`No prices before ${EARLIEST}`, `${EARLIEST} より前の株価はありません`);
}

/** A PRICE cell's arguments: the company as typed, the field key, the day (undefined: latest). */
interface PriceArgs {
  ref: CompanyRef;
  key: string;
  day: string | undefined;
}

/**
 * The answers PRICE reads: the latest trading day (openapi.json getPrices limit 1), or the last
 * trading day on or before a day (the shared calendar-year windows, src/domain/price-windows.ts).
 */
type PriceQuery =
  | { readonly kind: "latest"; readonly code: string; readonly query: { code: string; limit: 1 } }
  | { readonly kind: "onOrBefore"; readonly code: string; readonly day: string };

type PriceAnswer = PricesResponse | { readonly row: SecurityDailyPrice | undefined };

/** One frozen query per code and day (interned-args.ts), so a call finds what it fetched by it. */
function latestQuery(code: string): PriceQuery {
  return internedQuery(`PRICE latest|${code}`, () => ({
    kind: "latest" as const,
    code,
    query: Object.freeze({ code, limit: 1 as const }),
  }));
}

function dayQuery(code: string, day: string): PriceQuery {
  return internedQuery(`PRICE onOrBefore|${code}|${day}`, () => ({
    kind: "onOrBefore" as const,
    code,
    day,
  }));
}

/** The field text as a key (a module-level reader: internedText remembers it per text). */
function readField(field: unknown): string {
  const [key = "close", ...more] = fieldList(
    field,
    "field",
    [...PRICE_FIELDS, "date"],
    ["close"],
    "prices",
    true,
  );
  if (more.length > 0) throw new ArgumentError("field", fieldsWhere("prices", true), field);
  return key;
}

const priceArgs = argsTable<PriceArgs>();

function makeArgs(ref: CompanyRef, key: string, day: string): PriceArgs {
  return { ref, key, day: day === "" ? undefined : day };
}

function parsePrice(company: unknown, field: unknown, date: unknown): PriceArgs {
  const ref = companyRefArg(company);
  const key = internedText(readField, field);
  const day = optionalDate(date, "date");
  if (day !== undefined && day < EARLIEST) throw noPricesBefore();
  return internedArgs(priceArgs, ref, key, day ?? "", makeArgs);
}

/**
 * PRICE: one value (default close) of the latest trading day, or of the last trading day on or
 * before `date` (a weekend, a holiday or a day without trades, whose close is null, gives the
 * last close before it; field "date" says which day). A date after today is refused, except the
 * user's own today east of Japan (src/excel/dates.ts isFutureDate).
 */
const priceCell = defineCell<PriceArgs, string, PriceQuery, PriceAnswer>({
  parse: parsePrice,
  needs: {
    subjectAtHand: (args) => ("security_code" in args.ref ? args.ref.security_code : undefined),
    subject: (ctx, args) =>
      "security_code" in args.ref ? args.ref.security_code : securityCodeOf(ctx, args.ref),
    first: (args, code) => [args.day === undefined ? latestQuery(code) : dayQuery(code, args.day)],
    // The latest day is a plain answer in memory; a day's window is the client's (price-days.ts),
    // read through priceOnOrBefore only.
    peek: (client, q) =>
      q.kind === "latest"
        ? client.peek("getPrices", q.query as { code: string; limit: number })
        : undefined,
    fetch: async (ctx, _args, code, q) =>
      q.kind === "latest"
        ? ctx.client.prices(q.query, ctx.options)
        : { row: await priceOnOrBefore(ctx.client, code, q.day, ctx.options) },
  },
  compute(args, code, answers, host, client) {
    const { key } = args;
    const today = client.today();
    refuseFutureDay(args.day, today, client.userToday());
    // The user's today a day ahead of Japan's (east of Japan after midnight): the latest day, which
    // is Japan's today.
    const day = upToToday(args.day, today);
    let row: SecurityDailyPrice | undefined;
    if (day === undefined) {
      const latest = answers.read(latestQuery(code)) as PricesResponse | undefined;
      if (latest === undefined) return LACKING;
      row = latest.prices[0];
      // The latest day without a trade (close null): the last close before it, as for a date.
      if (row !== undefined && row.close === null) {
        const before = answers.read(dayQuery(code, row.date)) as { row?: SecurityDailyPrice };
        if (before === undefined) return LACKING;
        row = before.row;
      }
    } else {
      // A date: the row comes from a shared price window (or a PRICES walk already received), so
      // a column of 250 dates costs one or two requests.
      const found = answers.read(dayQuery(code, day)) as { row?: SecurityDailyPrice };
      if (found === undefined) return LACKING;
      row = found.row;
    }
    if (row === undefined) {
      throw day === undefined
        ? noResults()
        : noData(
            `No trading day on or before ${day} for ${code}`,
            `${day} 以前に ${code} の取引日はありません`,
          );
    }
    if (key === "date") return dateCell(row.date, host);
    const value = (row as unknown as Record<string, unknown>)[key];
    return unitCell(value, unitOf("prices", key), "jpy", host);
  },
});

export function price(
  securityCode: unknown,
  field: unknown,
  date: unknown,
  invocation?: InvocationLike,
): CellResult {
  return priceCell(invocation, securityCode, field, date);
}
