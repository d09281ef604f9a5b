// The Prices import's window: one year up to the latest day by default, and what a window costs.

import { limitOf, paramRule } from "./contract-params";

/** openapi.json getPrices: the rows of the largest page, and the first day `from` may name. */
const PRICE_PAGE_ROWS = limitOf("getPrices").max;
const PRICES_FIRST_DAY = paramRule("getPrices", "from").minDate ?? "2005-01-01";

const DAY_MS = 86_400_000;
const JST_MS = 9 * 3_600_000;

/**
 * The calendar day in Tokyo (the market's day) as YYYY-MM-DD.
 * @internal Tests check the Tokyo day directly.
 */
export function tokyoDay(now: Date): string {
  return new Date(now.getTime() + JST_MS).toISOString().slice(0, 10);
}

/**
 * The default window: from the same day a year ago, to the latest day (`to` left empty, so a refresh
 * of the import brings the newest days). What an analyst charts first; one request.
 * @example defaultPriceWindow(new Date("2026-11-24T03:00:00Z")) // { from: "2025-11-24", to: "" }
 */
export function defaultPriceWindow(now: Date): { from: string; to: string } {
  const today = tokyoDay(now);
  const year = Number(today.slice(0, 4)) - 1;
  // 29 February a year on has no twin: the 28th.
  const monthDay = today.slice(5) === "02-29" ? "02-28" : today.slice(5);
  return { from: `${year}-${monthDay}`, to: "" };
}

function dayNumber(iso: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(iso)) return undefined;
  const t = Date.parse(`${iso}T00:00:00Z`);
  return Number.isFinite(t) ? Math.floor(t / DAY_MS) : undefined;
}

/**
 * Requests an import of this window sends: pages of 500 rows over the weekdays between `from`
 * (default the API's first day) and `to` (default today in Tokyo). Holidays are counted as trading
 * days, so the estimate errs high, never low. Undefined while a date is not a valid YYYY-MM-DD.
 * @example priceImportCost("2025-11-24", "", new Date("2026-11-24T03:00:00Z")) // 1
 */
export function priceImportCost(from: string, to: string, now: Date): number | undefined {
  const start = dayNumber(from.trim() === "" ? PRICES_FIRST_DAY : from.trim());
  const end = dayNumber(to.trim() === "" ? tokyoDay(now) : to.trim());
  if (start === undefined || end === undefined) return undefined;
  if (end < start) return 1; // the API answers an empty window with one (empty) page
  let weekdays = 0;
  for (let d = start; d <= end; d++) {
    const dow = (d + 4) % 7; // 1970-01-01 was a Thursday (4)
    if (dow !== 0 && dow !== 6) weekdays++;
  }
  return Math.max(1, Math.ceil(weekdays / PRICE_PAGE_ROWS));
}
