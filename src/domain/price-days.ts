// Daily prices already received, by code and covered date range: PRICE answers from them.

/** A daily price row as the API sends it (openapi.json SecurityDailyPrice); `date` and `close` are read. */
export interface PriceRow {
  date: string;
  close?: number | null;
}

interface Covered<Row extends PriceRow> {
  from: string;
  to: string;
  /** The rows as noted (the answer's own array, any order). */
  noted: readonly Row[];
  /**
   * Ascending dates and their rows, made on the first lookup in the range: a model of PRICES
   * spills and no PRICE cell never needs them (bench Model 500: 10 MB kept for 625k rows).
   */
  sorted?: { dates: string[]; rows: Row[] };
  /** When the answer behind it was received, and how long it stays fresh. @unit ms */
  storedAt: number;
  ttlMs: number;
}

/** What `lookup` found for a day. */
export type PriceLookup<Row> =
  | { found: Row }
  /** The range holding the day was received and has no trading day on or before it. */
  | { before: string }
  | undefined;

const MAX_RANGES_PER_CODE = 64;

/**
 * Every range of daily prices received (a PRICE window, a PRICES walk), so PRICE(code, field, date)
 * for 250 consecutive days costs the windows, not 250 requests, and nothing after a PRICES spill
 * of the same days. A range is complete: every trading day from `from` to `to` is in it (the API
 * answers all of them; a walk is noted only when all its pages arrived).
 *
 * @example days.note("7203", "2024-01-01", "2024-12-30", rows, now, ttl); days.lookup("7203", "2024-05-04", now)
 */
export class PriceDays<Row extends PriceRow = PriceRow> {
  private readonly byCode = new Map<string, Covered<Row>[]>();

  /** Records `rows` (any order) as every trading day from `from` to `to` (days without a close left out). */
  note(
    code: string,
    from: string,
    to: string,
    rows: readonly Row[],
    storedAt: number,
    ttlMs: number,
  ): void {
    let ranges = this.byCode.get(code);
    if (ranges === undefined) {
      ranges = [];
      this.byCode.set(code, ranges);
    }
    const known = ranges.find((r) => r.from === from && r.to === to);
    if (known !== undefined && known.storedAt >= storedAt) return;
    const range: Covered<Row> = { from, to, noted: rows, storedAt, ttlMs };
    if (known !== undefined) ranges.splice(ranges.indexOf(known), 1);
    ranges.push(range);
    if (ranges.length > MAX_RANGES_PER_CODE) ranges.shift();
  }

  /**
   * The last trading day on or before `day` from a fresh range holding `day`: `{found}`; `{before}`
   * with the range's start when the range has no trading day up to `day` (look further back);
   * undefined when no fresh range holds `day`. `anyAge`: a due range answers too (the one just
   * received for this call, which the client served stale and marked so).
   */
  lookup(code: string, day: string, nowMs: number, anyAge = false): PriceLookup<Row> {
    const ranges = this.byCode.get(code);
    if (ranges === undefined) return undefined;
    let before: string | undefined;
    for (let i = ranges.length - 1; i >= 0; i -= 1) {
      const r = ranges[i] as Covered<Row>;
      if (day < r.from || day > r.to) continue;
      if (!anyAge && (nowMs - r.storedAt >= r.ttlMs || nowMs < r.storedAt)) continue;
      const sorted = (r.sorted ??= tradingDays(r.noted));
      const at = lastOnOrBefore(sorted.dates, day);
      if (at >= 0) return { found: sorted.rows[at] as Row };
      before = before === undefined || r.from < before ? r.from : before;
    }
    return before === undefined ? undefined : { before };
  }

  clear(): void {
    this.byCode.clear();
  }
}

/**
 * The trading days of `rows`, ascending. A day without a close (no trade in an illiquid stock) is
 * no trading day for PRICE: the last close on or before it answers, as on a weekend (openapi.json
 * SecurityDailyPrice: close null).
 */
function tradingDays<Row extends PriceRow>(rows: readonly Row[]): { dates: string[]; rows: Row[] } {
  const sorted = rows
    .filter((r) => r.close !== null)
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return { dates: sorted.map((r) => r.date), rows: sorted };
}

/** Index of the greatest date <= day in ascending `dates`, or -1. */
function lastOnOrBefore(dates: readonly string[], day: string): number {
  let lo = 0;
  let hi = dates.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((dates[mid] as string) <= day) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
