// The earnings-season morning: a Model opened the evening before, 10% of its companies file that
// night, and the workbook is opened again the next trading morning with live "up to latest" PRICES.

import { performance } from "node:perf_hooks";
import { setClientForTesting } from "../src/session";
import type { AliasedCompany } from "./company-aliases";
import { recalculateScale, scaleCells, type ScaleCompany } from "./scale-cells";
import { LIVE, makeClient, storeOver, timedFetch } from "./scale-run";
import { cellErrorText } from "./sides";
import { StorageStandIn } from "./storage-standin";
import { VirtualClock } from "./virtual-clock";
import { startWorkerSandbox } from "./worker-sandbox";

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
  /** Simulated minutes until the background queue was empty. */
  backgroundMinutes: number;
}

/**
 * Runs the season: a fresh sandbox on the season's data clock (filers moved to the night, see
 * sandbox/lib/filing-times.ts seasonFilingTimes), the evening's cold run, then the morning's open
 * in a new runtime over the stored answers, its background revalidation awaited and counted.
 */
export async function seasonMorning(
  aliased: readonly AliasedCompany[],
  companies: readonly ScaleCompany[],
  pricesFrom: string,
  log: (line: string) => void,
): Promise<SeasonResult> {
  const clock = new VirtualClock(Date.parse(SEASON.evening));
  clock.start();
  const sandbox = startWorkerSandbox(
    {
      ratePerMinute: LIVE.ratePerMinute,
      dailyLimit: LIVE.dailyLimit,
      startMs: clock.now(),
      season: { share: SEASON.share, night: SEASON.night, before: SEASON.before },
    },
    aliased,
    clock.now,
    clock.hold,
  );
  const filers = new Set(await sandbox.filers());
  const filingCompanies = aliased.filter((c) => filers.has(c.base)).length;
  const wire = timedFetch(sandbox.app, clock, LIVE.latencyMs);
  const disk = new StorageStandIn(clock.sleep, LIVE.storageLatencyMs);
  const cells = scaleCells(companies, pricesFrom, SEASON.lastClose, true);

  log(`  season: evening session (cold), ${filingCompanies} companies file tonight...`);
  const evening = storeOver(disk, clock);
  setClientForTesting(makeClient(wire.fetch, clock, evening), { lang: "en" }, evening);
  const cold = await recalculateScale(cells, cellErrorText, undefined);
  await evening.flush();
  setClientForTesting(undefined);

  await clock.sleep(Date.parse(SEASON.morning) - clock.now());
  const store = storeOver(disk, clock);
  const client = makeClient(wire.fetch, clock, store);
  setClientForTesting(client, { lang: "en" }, store);
  const before = wire.counters.requests;
  const start = performance.now();
  const opened = await recalculateScale(cells, cellErrorText, undefined);
  const wallSeconds = (performance.now() - start) / 1000;
  const queued = clock.now();
  await client.revalidation().idle();
  await store.flush();
  const result: SeasonResult = {
    filingCompanies,
    requests: wire.counters.requests - before,
    valuesAtOnce: opened.values,
    valuesEvening: cold.values,
    cells: cells.length,
    changedAnswers: client.revalidation().status().changed,
    wallSeconds,
    backgroundMinutes: (clock.now() - queued) / 60_000,
  };
  setClientForTesting(undefined);
  clock.stop();
  await sandbox.close();
  log(
    `  season morning: ${result.requests} requests (${filingCompanies} filing companies), ${result.changedAnswers} answers changed, ${result.backgroundMinutes.toFixed(1)} simulated min in the background`,
  );
  return result;
}
