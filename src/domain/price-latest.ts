// "Up to latest" PRICES: one stored spill per code and start, extended after each close by the days since its last day.

import type { CacheEntry, PaginateOptions, RequestOptions, ResponseOf } from "../client";

type PricesBody = ResponseOf<"getPrices">;
type PriceRow = PricesBody["prices"][number];

/** What the spill needs of the client (client.ts builds it for the key asking). */
export interface LatestPricesPort {
  /** The stored spill of `key`, if any (any age). */
  read(key: string): Promise<CacheEntry | undefined>;
  /** Whether a stored spill is still fresh (freshness.ts: until the next close). */
  fresh(entry: CacheEntry): boolean;
  /** Stores `body` as the spill of `key`, received now. */
  write(key: string, body: PricesBody): Promise<void>;
  /**
   * A due spill served at once while `refresh` runs in the background (stale-while-revalidate);
   * undefined when the client does not serve due answers (the caller then waits for the update).
   */
  serveDue(
    key: string,
    entry: CacheEntry,
    /** `sent`: called as each of its requests leaves (the daily budget counts pages). */
    refresh: (sent?: () => void) => Promise<boolean>,
    options: RequestOptions,
  ): PricesBody | undefined;
  /** The stored spill marked stale for `err` when it may stand in for a failed request; else throws. */
  staleOr(err: unknown, key: string): Promise<PricesBody>;
  /**
   * One walk per key at a time: concurrent cells of the same spill share it, under a signal that
   * aborts only when every cell waiting has left (inflight.ts).
   */
  join(
    key: string,
    signal: AbortSignal | undefined,
    walk: (shared: AbortSignal) => Promise<PricesBody>,
  ): Promise<PricesBody>;
  /** Pages of /prices, sent and never cached on their own (the spill is the stored answer). */
  pages(
    query: { code: string; from: string; limit: number },
    options: PaginateOptions,
  ): AsyncGenerator<PricesBody, void, undefined>;
}

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
 * @example const body = await latestPrices(port, key, "7203", "2021-11-24", options); body.prices[0].date // the last close
 */
export async function latestPrices(
  port: LatestPricesPort,
  key: string,
  code: string,
  from: string,
  options: RequestOptions,
): Promise<PricesBody> {
  const entry = await port.read(key);
  if (entry !== undefined && port.fresh(entry)) return entry.body as PricesBody;
  const spill: Spill = { port, key, code, from };
  if (entry !== undefined) {
    const old = entry.body as PricesBody;
    const served = port.serveDue(
      key,
      entry,
      async (sent) => {
        const body = await port.join(key, undefined, (signal) =>
          update(spill, old, { signal, onSent: sent }),
        );
        return body !== old;
      },
      options,
    );
    if (served !== undefined) return served;
  }
  try {
    return await port.join(key, options.signal, (signal) =>
      entry === undefined
        ? walk(spill, { ...options, signal })
        : update(spill, entry.body as PricesBody, { ...options, signal }),
    );
  } catch (err) {
    return port.staleOr(err, key);
  }
}

/** The one stored answer a spill up to the latest day is kept in: its window from `from`. */
interface Spill {
  port: LatestPricesPort;
  key: string;
  code: string;
  from: string;
}

/** The whole window from `from`, every page. */
async function walk(spill: Spill, options: RequestOptions): Promise<PricesBody> {
  const { port, key, code, from } = spill;
  const { first, rows } = await collect(port, code, from, options);
  const body: PricesBody = { ...first, prices: rows, next_cursor: null };
  await port.write(key, body);
  return body;
}

/**
 * The days since the stored last day put before the stored ones; the whole window again when the
 * overlap day changed (a split re-based adj_close). Returns `old` itself when nothing is new.
 */
async function update(spill: Spill, old: PricesBody, options: RequestOptions): Promise<PricesBody> {
  const { port, key, code } = spill;
  const last = old.prices[0];
  if (last === undefined) return walk(spill, options);
  const { first, rows } = await collect(port, code, last.date, options);
  const overlap = rows.find((r) => r.date === last.date);
  const same = overlap !== undefined && sameRow(overlap, last);
  // The overlap day's own figures changed (a row received before its day was final) on the same
  // share basis: the days before it are unaffected. Another basis: a split, ask everything.
  if (overlap === undefined || (!same && !sameBasis(overlap, last))) {
    const body = await walk(spill, options);
    return sameSpill(body, old) ? old : body;
  }
  const added = rows.filter((r) => r.date >= last.date);
  const body: PricesBody = {
    ...first,
    prices: [...added, ...old.prices.slice(1)],
    next_cursor: null,
  };
  await port.write(key, body);
  return added.length === 1 && same ? old : body;
}

async function collect(
  port: LatestPricesPort,
  code: string,
  from: string,
  options: RequestOptions,
): Promise<{ first: PricesBody; rows: PriceRow[] }> {
  const rows: PriceRow[] = [];
  let first: PricesBody | undefined;
  for await (const page of port.pages(
    { code, from, limit: PAGE_SIZE },
    { ...options, maxPages: MAX_PAGES },
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
