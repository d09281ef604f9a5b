// "Up to latest" PRICES: one stored spill per code and start, extended after each close by the days since its last day.

import type { KaishaClient, RequestOptions, ResponseOf } from "../client";

type PricesBody = ResponseOf<"getPrices">;
type PriceRow = PricesBody["prices"][number];

/** What the spill needs of a client: its pages of /prices (src/client/index.ts). */
export type LatestPricesClient = Pick<KaishaClient, "paginate">;

/** openapi.json getPrices: limit 1..500; the largest page keeps the request count lowest. */
const PAGE_SIZE = 500;
/** About 20 years of trading days fit in 11 pages; the cap only stops a runaway. */
const MAX_PAGES = 40;

/**
 * Daily prices from `from` up to the latest trading day, newest first, as one answer (every page
 * followed). Asked once in full; after a close only the days since the stored last day are asked
 * (one request, `from` = the stored last day, paging only past 500 new days) and put before the
 * stored days. openapi.json SecurityDailyPrice: open/high/low/close/volume are as traded and never
 * change; adj_close is re-based retroactively on the latest share basis after a split or
 * consolidation. A split after the stored last day re-bases that day too (close / adj_close is
 * the split factor after the day, the same for every earlier day), so the update asks that day
 * again (the one-day overlap): when its basis moved, the whole window is asked again, and no cell
 * shows a figure a full request would not give; when only its own figures changed (received
 * before they were final), that row alone is replaced.
 *
 * The client keeps the spill (KaishaClient.composed: read, freshness, serving while due, one walk
 * per key, the stale stand-in); this builds it from `stored` (undefined: none yet).
 *
 * @example const body = await latestPrices(client, "7203", "2021-11-24", undefined, {}); body.prices[0].date // the last close
 */
export function latestPrices(
  client: LatestPricesClient,
  code: string,
  from: string,
  stored: PricesBody | undefined,
  options: RequestOptions,
): Promise<PricesBody> {
  const spill: Spill = { client, code, from };
  return stored === undefined ? walk(spill, options) : update(spill, stored, options);
}

/** The one stored answer a spill up to the latest day is kept in: its window from `from`. */
interface Spill {
  client: LatestPricesClient;
  code: string;
  from: string;
}

/** The whole window from `from`, every page. */
async function walk(spill: Spill, options: RequestOptions): Promise<PricesBody> {
  const { client, code, from } = spill;
  const { first, rows } = await collect(client, code, from, options);
  return { ...first, prices: rows, next_cursor: null };
}

/**
 * The days since the stored last day put before the stored ones; the whole window again when the
 * overlap day changed (a split re-based adj_close). Returns `old` itself when nothing is new.
 */
async function update(spill: Spill, old: PricesBody, options: RequestOptions): Promise<PricesBody> {
  const { client, code } = spill;
  const last = old.prices[0];
  if (last === undefined) return walk(spill, options);
  const { first, rows } = await collect(client, code, last.date, options);
  const overlap = rows.find((r) => r.date === last.date);
  const same = overlap !== undefined && sameRow(overlap, last);
  // The overlap day's own figures changed (a row received before its day was final) on the same
  // share basis: the days before it are unaffected. Another basis: a split, ask everything.
  if (overlap === undefined || (!same && !sameBasis(overlap, last))) {
    const body = await walk(spill, options);
    return sameSpill(body, old) ? old : body;
  }
  const added = rows.filter((r) => r.date >= last.date);
  // The overlap day alone, unchanged: the stored answer, kept anew (received now).
  if (added.length === 1 && same) return old;
  return { ...first, prices: [...added, ...old.prices.slice(1)], next_cursor: null };
}

async function collect(
  client: LatestPricesClient,
  code: string,
  from: string,
  options: RequestOptions,
): Promise<{ first: PricesBody; rows: PriceRow[] }> {
  const rows: PriceRow[] = [];
  let first: PricesBody | undefined;
  for await (const page of client.paginate(
    "getPrices",
    { code, from, limit: PAGE_SIZE },
    // The spill is the stored answer: its pages are sent, never cached on their own.
    { ...options, maxPages: MAX_PAGES, cache: "no-store" },
  )) {
    first ??= page;
    rows.push(...page.prices);
  }
  // paginate yields at least one page or throws.
  return { first: first as PricesBody, rows };
}

/** Every field of two rows equal (openapi.json SecurityDailyPrice; fields the API adds count too). */
function sameRow(a: PriceRow, b: PriceRow): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  const ra = a as unknown as Record<string, unknown>;
  const rb = b as unknown as Record<string, unknown>;
  return ka.every((k) => ra[k] === rb[k]);
}

/**
 * Below this adjusted price the 2-decimal rounding of adj_close can move the basis by more than
 * BASIS_TOLERANCE: such a day decides nothing, the window is asked again. @unit yen
 */
const MIN_ADJ_FOR_BASIS = 10;
/** Largest relative difference of close / adj_close read as one basis (splits are 1.1:1 and up). */
const BASIS_TOLERANCE = 0.002;

/**
 * Whether two rows of one day are on the same share basis: close / adj_close is the cumulative
 * split factor after that day (openapi.json SecurityDailyPrice: close as traded, adj_close on the
 * latest basis), and a split after the day changes it.
 */
function sameBasis(a: PriceRow, b: PriceRow): boolean {
  const { close: ca, adj_close: aa } = a;
  const { close: cb, adj_close: ab } = b;
  if (ca === null || aa === null || cb === null || ab === null) return false;
  if (aa < MIN_ADJ_FOR_BASIS || ab < MIN_ADJ_FOR_BASIS) return false;
  return Math.abs(ca / aa / (cb / ab) - 1) <= BASIS_TOLERANCE;
}

function sameSpill(a: PricesBody, b: PricesBody): boolean {
  if (a.prices.length !== b.prices.length) return false;
  return a.prices.every((row, i) => sameRow(row, b.prices[i] as PriceRow));
}
