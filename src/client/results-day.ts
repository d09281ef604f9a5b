// A company's expected results day, from the same period's results a year earlier in its disclosures.

import type { ResponseOf } from "./types";

const DAY = 86_400_000;
/** JST is UTC+9 all year (no daylight saving). */
const JST_OFFSET_MS = 9 * 3_600_000;

/**
 * Days before the expected results day that a company's daily checks start. Companies keep their
 * results day within days of the year before (a date moves with the weekday, a board meeting by a
 * few days); checking from a working week before catches a company that moved earlier on its
 * first morning, at about five more checks per company and period than from the day itself.
 *
 * @internal exported for the rule's own tests (test/client/results-day.test.ts)
 */
export const EARLY_DAYS = 5;

/**
 * Months after the period's end the history covers: the results (決算短信) within 45 days, the
 * annual report (有価証券報告書) within three months (src/client/freshness.ts windows), so the
 * year-earlier results and its statutory report are in one page.
 */
const HISTORY_MONTHS = 3;

/**
 * openapi.json listSecurityDisclosures `limit`: 100 is the largest page. Three months of one
 * company's disclosures hold its results and a few notices, well under a page.
 */
const PAGE = 100;

/** openapi.json SecurityDisclosure.title: the timely-system results report of a period. */
const RESULTS_TITLE = /決算短信/;
/** A correction (訂正) re-releases results later: its date says nothing of the results day. */
const CORRECTION = /訂正/;
/** openapi.json SecurityDisclosure.document_type: statutory reports that carry a period's figures. */
const RESULTS_DOCUMENT = /^(有価証券報告書|半期報告書|四半期報告書)$/;

/** The first day after the month `index` (year * 12 + month - 1) ends, as a UTC epoch day. */
function dayAfterMonth(index: number): number {
  const next = index + 1;
  return Math.floor(Date.UTC(Math.floor(next / 12), next % 12, 1) / DAY);
}

function isoDay(epochDay: number): string {
  return new Date(epochDay * DAY).toISOString().slice(0, 10);
}

/**
 * The disclosures request that shows the results of the same period a year earlier: the three
 * months after that period ended (a closed range, so its answer does not change; freshness.ts
 * keeps it long). `period` is the month index of the period end awaited.
 *
 * @example historyQuery("7203", 2026 * 12 + 2) // { code: "7203", from: "2025-04-01", to: "2025-06-30", limit: 100 }
 */
export function historyQuery(
  security: string,
  period: number,
): { code: string; from: string; to: string; limit: number } {
  const from = dayAfterMonth(period - 12);
  const to = dayAfterMonth(period - 12 + HISTORY_MONTHS) - 1;
  return { code: security, from: isoDay(from), to: isoDay(to), limit: PAGE };
}

/** A disclosure's JST calendar day (its filing_date, else disclosed_at moved to JST) as an epoch day. */
function jstDayOf(item: {
  filing_date: string | null;
  disclosed_at: string | null;
}): number | undefined {
  const text = item.filing_date ?? undefined;
  if (text !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(text)) return Date.parse(text) / DAY;
  const at = item.disclosed_at === null ? Number.NaN : Date.parse(item.disclosed_at);
  return Number.isFinite(at) ? Math.floor((at + JST_OFFSET_MS) / DAY) : undefined;
}

/**
 * The instant from which a company whose history is still to be fetched is checked daily for the
 * period ending in month `period`: the JST midnight after the period ends, so from then on its
 * cells are marked and its answers asked each morning, as for a company whose expected results day
 * has come. Its results can be out any day after the period ends; until its history says when,
 * the cadence's guess (src/client/freshness.ts windowCheckDay) would show a figure superseded on a
 * day it skips as current.
 *
 * @example checkedDailyFromEnd(2026 * 12 + 2) // JST midnight of 1 April 2026
 */
export function checkedDailyFromEnd(period: number): number {
  return dayAfterMonth(period) * DAY - JST_OFFSET_MS;
}

/**
 * The instant from which the company is checked daily for the period ending in month `period`:
 * the JST midnight `EARLY_DAYS` before its expected results day, which is as many days after the
 * period's end as its results came after the same period's end a year earlier (the earliest
 * results document of `history`, an answer to `historyQuery`). Null when the history shows no
 * results (a new listing, a changed year end): the company keeps the filing-window cadence
 * (freshness.ts windowCheckDay).
 *
 * @example dailyChecksFrom(history, 2026 * 12 + 2) // results on 12 May 2025 -> JST midnight of 7 May 2026
 */
export function dailyChecksFrom(
  history: Pick<ResponseOf<"listSecurityDisclosures">, "disclosures">,
  period: number,
): number | null {
  const start = dayAfterMonth(period - 12);
  let first: number | undefined;
  for (const item of history.disclosures) {
    const title = item.title ?? "";
    if (CORRECTION.test(title)) continue;
    const results =
      (item.source === "tdnet" && RESULTS_TITLE.test(title)) ||
      (item.document_type !== null && RESULTS_DOCUMENT.test(item.document_type));
    if (!results) continue;
    const day = jstDayOf(item);
    // Only what falls after the year-earlier period ended (the range asked): an earlier period's
    // late report is not this period's results day.
    if (day === undefined || day < start) continue;
    if (first === undefined || day < first) first = day;
  }
  if (first === undefined) return null;
  const expected = dayAfterMonth(period) + (first - start);
  return (expected - EARLY_DAYS) * DAY - JST_OFFSET_MS;
}
