// The morning open's targets (README "the morning open"), each as met or missed (or not measured
// yet) per Model.

import type { Target } from "./report";
import type { ScaleResult } from "./scale-run";
import { failuresText } from "./failure-tally";

/**
 * The issue states its targets for Model 500 (500 companies); smaller Models are held to the same
 * rule scaled per company: one latest-prices page per company plus a fifth for what can have
 * changed (600 of 500), 800 a day over a week (1.6 per company); the earnings-season morning adds
 * 5 per company that filed. What the bench does not measure yet is listed as missed with "not
 * measured", never as met.
 */
export function morningTargets(m: ScaleResult): Target[] {
  const perCompany = m.companies / 500;
  const morningCap = Math.round(600 * perCompany);
  const dayCap = Math.round(800 * perCompany);
  const weekMax = Math.max(0, ...m.weekDailyRequests);
  const reopen = m.newProcessReopen;
  const streams = m.newProcessReopenNodeStreams;
  /** What the stand-in for the browser's native compression streams changes (native-compression.ts). */
  const model = `; node:zlib stands in for the browser's native compression streams: through Node's own (script) streams ${streams.wallSeconds.toFixed(1)} s, heap +${streams.heapGrowthMB.toFixed(0)} MB, ArrayBuffers +${streams.arrayBuffersGrowthMB.toFixed(0)} MB`;
  const seasonCap = morningCap + 5 * m.season.filingCompanies;
  return [
    {
      name: `${m.name}: next-morning open, every cell at once`,
      pass: m.morning.valuesAtOnce === m.outcomes.reopen.values && m.morning.virtualSeconds < 60,
      detail: `${m.morning.valuesAtOnce} of ${m.cells} cells with a value (${m.outcomes.reopen.values} on the reopen), ${m.morning.virtualSeconds.toFixed(1)} s simulated, ${m.morning.wallSeconds.toFixed(1)} s wall`,
    },
    {
      name: `${m.name}: next-morning background requests <= ${morningCap}`,
      pass: m.morning.requests <= morningCap,
      detail: `${m.morning.requests} requests (live "up to latest" PRICES: after an evening session no close has passed by the next morning, so they are still fresh; the week and the season morning ask them again)`,
    },
    {
      name: `${m.name}: no day above ${dayCap} requests over a week`,
      pass: weekMax <= dayCap,
      detail: `daily: ${m.weekDailyRequests.join(", ")}`,
    },
    {
      name: `${m.name}: no day above ${dayCap} requests over a week inside a filing window, every cell at once`,
      pass:
        Math.max(0, ...m.windowWeek.dailyRequests) <= dayCap &&
        m.windowWeek.leastValuesAtOnce >= m.windowWeek.valuesEvening,
      detail: `daily (2-8 October, the quarter's results due): ${m.windowWeek.dailyRequests.join(", ")}; left for the next day by the daily budget (${m.windowWeek.dailyBudget ?? "none"}): ${m.windowWeek.deferred.join(", ")}; answers changed: ${m.windowWeek.changedAnswers.join(", ")}; at least ${m.windowWeek.leastValuesAtOnce} of ${m.cells} cells with a value at once each morning (${m.windowWeek.valuesEvening} the evening before)`,
    },
    {
      name: `${m.name}: reopen in a new process to the last cell's value <= 5 s wall in Node`,
      pass: reopen.wallSeconds <= 5 && reopen.values === m.outcomes.reopen.values,
      detail: `${reopen.wallSeconds.toFixed(1)} s wall (${reopen.values} of ${reopen.cells} cells with a value, ${reopen.requests} requests; ${m.wallSeconds.reopen.toFixed(1)} s in the bench's own warm process)${model}${failuresText(reopen.failures)}`,
    },
    {
      name: `${m.name}: reopen in a new process, heap plus ArrayBuffers growth <= 500 MB`,
      pass: reopen.heapGrowthMB + reopen.arrayBuffersGrowthMB <= 500,
      detail: `heap +${reopen.heapGrowthMB.toFixed(0)} MB, ArrayBuffers +${reopen.arrayBuffersGrowthMB.toFixed(0)} MB (peaks over the started runtime, sampled every 25 ms)${model}`,
    },
    {
      name: `${m.name}: earnings-season morning <= ${seasonCap} requests (${morningCap} + 5 per filing company)`,
      pass: m.season.requests <= seasonCap && m.season.valuesAtOnce >= m.season.valuesEvening,
      detail: `${m.season.requests} requests, ${m.season.filingCompanies} of ${m.companies} companies filed overnight, ${m.season.changedAnswers} answers changed; ${m.season.valuesAtOnce} of ${m.season.cells} cells with a value at once (${m.season.valuesEvening} the evening before)`,
    },
    {
      name: `${m.name}: the morning after results, 0 cells show a superseded figure unmarked (desktop model)`,
      pass: m.resultsMorning.staleUnmarked === 0,
      detail: `${m.resultsMorning.staleUnmarked} unmarked and ${m.resultsMorning.staleMarked} marked of ${m.resultsMorning.cells} cells differ from a fresh session's on 13 May 08:00 JST once the background is done (built 11 May 10:00 JST, before that afternoon's results); ${m.resultsMorning.requests} requests, ${m.resultsMorning.deferred} left by the daily budget, ${m.resultsMorning.unchecked} companies not yet checked`,
    },
    {
      name: `${m.name}: next morning on the desktop model <= ${morningCap} requests, current <= 10 s wall of the add-in's own work`,
      pass: m.desktopMorning.requests <= morningCap && m.desktopMorning.wallSeconds <= 10,
      detail: `${m.desktopMorning.requests} requests, ${m.desktopMorning.wallSeconds.toFixed(1)} s wall (${m.desktopMorning.cpuSeconds.toFixed(1)} s CPU) from the open to the last recalculated cell (${m.desktopMorning.recalculated} cells evaluated by the open, ${m.desktopMorning.kept} left as saved by the workbook's due record, ${m.desktopMorning.changedCells} again when their answers changed; the requests' pacing simulated); no cell called by Excel at open (taskpane/open/morning-open.ts)`,
    },
    ...browserTargets(m),
  ];
}

/** The Models the issue asks a Chromium run of. */
const BROWSER_MODELS = new Set([50, 500]);

/**
 * Chromium: warm <= 6 µs per cell, reopen <= 10 s wall; for Models 50 and 500 missed ("not run")
 * where BENCH_BROWSER left them out, for the others only when run.
 */
function browserTargets(m: ScaleResult): Target[] {
  const b = m.browser;
  if (b === undefined && !BROWSER_MODELS.has(m.companies)) return [];
  const notRun = "not run (BENCH_BROWSER does not name this Model)";
  return [
    {
      name: `${m.name}: Chromium warm recalculation <= 6 µs per cell`,
      pass: b !== undefined && b.warmMicrosPerCell <= 6,
      detail:
        b === undefined
          ? notRun
          : `${b.warmMicrosPerCell.toFixed(1)} µs (median of ${b.warmMicros.map((x) => x.toFixed(1)).join(", ")}; wall time in the page's one thread)`,
    },
    {
      name: `${m.name}: Chromium reopen to the last cell's value <= 10 s wall`,
      pass: b !== undefined && b.reopenWallSeconds <= 10 && b.values === m.outcomes.reopen.values,
      detail:
        b === undefined
          ? notRun
          : `${b.reopenWallSeconds.toFixed(1)} s, ${b.values} of ${b.cells} cells with a value, ${b.requests} requests, JS heap +${b.reopenHeapGrowthMB.toFixed(0)} MB (IndexedDB seeded with the Node run's stored answers)${failuresText(b.failures)}`,
    },
  ];
}
