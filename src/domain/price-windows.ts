// PRICE windows: the last close on or before a day, from one calendar-year /prices window per year touched.

import {
  type KaishaClient,
  type RequestOptions,
  type ResponseOf,
  nextClose,
  staleInfo,
  DEFAULT_TTL_MS,
  EARLIEST_DATE,
} from "../client";
import { todayJst } from "../util/normalize";
import { PriceDays } from "./price-days";

type PriceRowOf = ResponseOf<"getPrices">["prices"][number];

/** What PRICE windows need of a client: its public interface (src/client/index.ts). */
export type PriceWindowClient = Pick<KaishaClient, "partition" | "now" | "derived" | "request">;

/** The ranges received (price-days.ts), kept with the client's answers (KaishaClient.derived). */
const RANGES = Symbol("PRICE windows' ranges received");

/** One call's view: the asking key's ranges and the client. */
interface PriceWindowPort {
  /** Ranges received, shared by every key of the client: `partition` scopes them. */
  readonly days: PriceDays<PriceRowOf>;
  /** The cache partition of the key asking (key-partition.ts: price rows are answers too). */
  readonly partition: string;
  readonly client: PriceWindowClient;
}

/**
 * The ranges of the key the client reads now. A key read asynchronously has no partition before
 * its request: that call keeps its windows to itself (the client's cache still answers them).
 */
function portOf(client: PriceWindowClient): PriceWindowPort {
  const partition = client.partition();
  return partition === undefined
    ? { days: new PriceDays<PriceRowOf>(), partition: "", client }
    : { days: client.derived(RANGES, () => new PriceDays<PriceRowOf>()), partition, client };
}

/**
 * openapi.json getPrices `limit`: the largest page; a calendar year (~245 trading days) fits in
 * one.
 */
const PRICE_WINDOW_LIMIT = 500;
/** Freshness of daily prices that end before today. @unit ms */
const CLOSED_DAYS_TTL_MS = 12 * 60 * 60 * 1000;
/** A year without trading days is not real: this many windows back, the day has no close. */
const MAX_WINDOWS = 4;

/** "YYYY-MM-DD" of the day before `iso`. */
function dayBefore(iso: string): string {
  const t = Date.parse(`${iso}T00:00:00Z`) - 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

function rangeKey(port: PriceWindowPort, code: string): string {
  return `${port.partition} ${code}`;
}

/**
 * Freshness of a range ending on `to`: daily prices ending before today (JST) are closed days and
 * keep like filings (12 h; openapi.json getPrices: adj_close changes only on a split); a range
 * reaching today is fresh until the next close (freshness.ts). @unit ms
 */
function rangeTtl(to: string, now: number): number {
  const ttl = DEFAULT_TTL_MS.getPrices;
  if (to < todayJst(now)) return Math.max(ttl, CLOSED_DAYS_TTL_MS);
  return Math.max(ttl, nextClose(now) - now);
}

/**
 * The request of the calendar-year window holding `target`: a past year is `from` its first day
 * `to` its last; the current year has no `to` (openapi.json getPrices: up to the latest day), so
 * its stored answer keeps one cache key all year and a reopen on a later day, offline too, finds it
 * (with `to` = today it was a new key every day: a PRICE of an earlier day this year, or of an
 * illiquid stock's latest day without a trade, found nothing stored and waited for the API).
 */
function yearWindow(
  code: string,
  target: string,
  today: string,
): { code: string; from: string; to?: string; limit: number } {
  const year = target.slice(0, 4);
  const from = `${year}-01-01` < EARLIEST_DATE ? EARLIEST_DATE : `${year}-01-01`;
  const last = `${year}-12-31`;
  return last > today
    ? { code, from, limit: PRICE_WINDOW_LIMIT }
    : { code, from, to: last, limit: PRICE_WINDOW_LIMIT };
}

/**
 * PRICE: the daily price row of the last trading day on or before `day` (YYYY-MM-DD), or
 * undefined when there is none since 2005. Answered from ranges already received (PRICE windows,
 * PRICES walks); otherwise one calendar-year window per year touched, shared by every date in it.
 * A window the client served stale (due, revalidated in the background, or the API unreachable;
 * the call's `staleSink` marks the cell) answers this call and is noted as due, so later cells ask
 * the client again and read the revalidated answer once it is in.
 *
 * @example await priceOnOrBefore(client, "7203", "2024-03-31") // the row of 2024-03-29
 */
export async function priceOnOrBefore(
  client: PriceWindowClient,
  code: string,
  day: string,
  options: RequestOptions = {},
): Promise<PriceRowOf | undefined> {
  const port = portOf(client);
  const key = rangeKey(port, code);
  let target = day;
  /** The window just received for `target`: it answers even when served due. */
  let received = false;
  // Each step either answers or moves one window back.
  for (let step = 0; step < MAX_WINDOWS; step += 1) {
    const now = client.now();
    const today = todayJst(now);
    // A day not reached yet: the last close so far.
    if (target > today) target = today;
    const hit = port.days.lookup(key, target, now, received);
    if (hit !== undefined && "found" in hit) return hit.found;
    if (hit !== undefined) {
      if (hit.before <= EARLIEST_DATE) return undefined;
      target = dayBefore(hit.before);
      received = false;
      continue;
    }
    const query = yearWindow(code, target, today);
    const body = await client.request("getPrices", query, options);
    const to = query.to ?? today;
    // A window that needed a second page (never for one year) covers only what it returned.
    const last = body.prices[body.prices.length - 1];
    const coveredFrom = typeof body.next_cursor === "string" && last ? last.date : query.from;
    // Served stale: noted as received then, so it is due for every other cell.
    const storedAt = staleInfo(body)?.storedAt ?? now;
    port.days.note(key, coveredFrom, to, body.prices, storedAt, rangeTtl(to, storedAt));
    received = true;
  }
  return undefined;
}

/**
 * Records a complete walk of daily prices from `from` to `to` (PRICES), for PRICE to reuse: rows
 * the current key received; without a key read now there is nothing to note.
 */
export function notePrices(
  client: PriceWindowClient,
  code: string,
  from: string,
  to: string | undefined,
  rows: readonly PriceRowOf[],
): void {
  if (client.partition() === undefined) return;
  const port = portOf(client);
  const now = client.now();
  const end = to ?? todayJst(now);
  port.days.note(rangeKey(port, code), from, end, rows, now, rangeTtl(end, now));
}
