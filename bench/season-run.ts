// The earnings-season morning: a Model opened the evening before, 10% of its companies file that
// night, and the workbook is opened again the next trading morning with live "up to latest" PRICES.

import type { AliasedCompany } from "./company-aliases";
import { runCalendar, type CalendarOpen } from "./calendar-run";
import type { ScaleCompany } from "./scale-cells";

/**
 * The season's calendar (JST = UTC+9). Wednesday 11 November 2026, 16:00 JST: the filers' results
 * (決算短信, for the quarter ended 30 September, inside its 45-day window) are disclosed; they reach
 * the API 24 hours later (openapi.json info.description). 17:00: the analyst's evening session (the
 * cold run), which cannot see them yet. Friday 13 November, 08:00: the season morning, after
 * Thursday's close and the filings' release. Every other company filed by Tuesday 10 November.
 */
const SEASON = {
  night: "2026-11-11T07:00:00Z",
  evening: "2026-11-11T08:00:00Z",
  morning: "2026-11-12T23:00:00Z",
  before: "2026-11-10T06:00:00Z",
  share: 0.1,
  /** The evening's PRICES end (the last close before it): Wednesday. */
  lastClose: "2026-11-11",
};

/** What the season morning measured. */
export interface SeasonResult {
  /** Companies of the Model whose results came out overnight (aliases of a filer included). */
  filingCompanies: number;
  /** Requests of the morning open, its background revalidation included, until the queue was empty. */
  requests: number;
  /** Cells with a value when the morning's recalculation finished (from storage, before any request). */
  valuesAtOnce: number;
  /** Cells with a value after the evening's cold run (the data allows no more). */
  valuesEvening: number;
  cells: number;
  /** Answers the background found changed (the filers' statements, prices after the close). */
  changedAnswers: number;
  /** Real time until the last cell had its value at the morning open. @unit s */
  wallSeconds: number;
  /** Simulated minutes until the background queue was empty (or the daily budget was spent). */
  backgroundMinutes: number;
  /** Requests left for the next day when the daily budget was spent (0 when it was not). */
  deferred: number;
  /** Real time and simulated minutes of the evening's cold run. */
  eveningWallSeconds: number;
  eveningSimulatedMinutes: number;
}

/**
 * Runs the season (bench/calendar-run.ts): a fresh sandbox on the season's data clock (filers moved
 * to the night, see sandbox/lib/filing-times.ts seasonFilingTimes), the evening's cold run, then
 * the morning's open in a new runtime over the stored answers, its background awaited and counted.
 */
export async function seasonMorning(
  aliased: readonly AliasedCompany[],
  companies: readonly ScaleCompany[],
  pricesFrom: string,
  log: (line: string) => void,
): Promise<SeasonResult> {
  log(
    `  season: evening session (cold), then the morning after ${SEASON.share * 100}% of the companies filed...`,
  );
  const run = await runCalendar(
    {
      evening: SEASON.evening,
      lastClose: SEASON.lastClose,
      mornings: [SEASON.morning],
      season: { share: SEASON.share, night: SEASON.night, before: SEASON.before },
    },
    aliased,
    companies,
    pricesFrom,
  );
  const open = run.opens[0] as CalendarOpen;
  const result: SeasonResult = {
    filingCompanies: run.filingCompanies,
    requests: open.requests,
    valuesAtOnce: open.valuesAtOnce,
    valuesEvening: run.valuesEvening,
    cells: run.cells,
    changedAnswers: open.changedAnswers,
    wallSeconds: open.wallSeconds,
    backgroundMinutes: open.backgroundMinutes,
    deferred: open.deferred,
    eveningWallSeconds: run.eveningWallSeconds,
    eveningSimulatedMinutes: run.eveningSimulatedMinutes,
  };
  log(
    `  season morning: ${result.requests} requests (${result.filingCompanies} filing companies), ${result.changedAnswers} answers changed, ${result.backgroundMinutes.toFixed(1)} simulated min in the background${open.budgetReached ? `, ${open.deferred} deferred by the daily budget` : ""}`,
  );
  return result;
}
