// A Model on a calendar of its own: a sandbox whose data clock follows the bench clock, an evening's
// cold run, then mornings that each open the workbook in a new runtime and count the background.

import { performance } from "node:perf_hooks";
import { setClientForTesting } from "../src/session";
import type { AliasedCompany } from "./company-aliases";
import { recalculateScale, scaleCells, type ScaleCell, type ScaleCompany } from "./scale-cells";
import { LIVE, makeClient, storeOver, timedFetch } from "./live-client";
import { cellErrorText } from "./sides";
import { StorageStandIn } from "./storage-standin";
import { VirtualClock } from "./virtual-clock";
import { startWorkerSandbox } from "./worker-sandbox";
import type { SandboxWorkerData } from "./sandbox-worker";

/** The calendar: instants are ISO 8601 UTC (JST = UTC+9). */
export interface Calendar {
  /** The analyst's evening session: the cold run. */
  evening: string;
  /** The PRICES spills' end at the evening (its last close), YYYY-MM-DD. */
  lastClose: string;
  /** Each a morning open in a new runtime over the stored answers, in order. */
  mornings: readonly string[];
  /** Companies filing on a night of the season (sandbox-worker.ts), if any. */
  season?: SandboxWorkerData["season"];
}

/** What one morning open measured. */
export interface CalendarOpen {
  /** Requests of the open, its background revalidation included, until the queue was empty or paused. */
  requests: number;
  /** Cells with a value when the recalculation finished (from storage, before any request). */
  valuesAtOnce: number;
  /** Answers the background found changed. */
  changedAnswers: number;
  /** Requests still queued when the background stopped: the daily budget was spent (0 when it was not). */
  deferred: number;
  /** The background stopped at the daily budget. */
  budgetReached: boolean;
  dailyBudget: number | undefined;
  /** Real time until the last cell had its value. @unit s */
  wallSeconds: number;
  /** Simulated minutes until the background queue was empty or paused. */
  backgroundMinutes: number;
}

export interface CalendarResult {
  /** Background requests of the evening after its cold run (the results-day histories, src/client/results-day-history.ts). */
  eveningBackgroundRequests: number;
  /** Companies of the Model whose results come out on the season night (aliases included). */
  filingCompanies: number;
  /** Cells with a value after the evening's cold run (the data allows no more). */
  valuesEvening: number;
  cells: number;
  /** Real time of the evening's cold run. @unit s */
  eveningWallSeconds: number;
  /** Simulated minutes of the evening's cold run (pacing at the live limit). */
  eveningSimulatedMinutes: number;
  opens: CalendarOpen[];
}

/** A Model on its calendar's clock: what `withCalendarModel` gives each scenario. */
export interface CalendarModel {
  clock: VirtualClock;
  /** The Model's sandbox on a worker, its data clock following `clock`. */
  sandbox: ReturnType<typeof startWorkerSandbox>;
  /** The wire to it at the live latency, with its request counters. */
  wire: ReturnType<typeof timedFetch>;
  /** The stored answers' disk, kept across the evening and the mornings. */
  disk: StorageStandIn;
  /** The Model's cells, PRICES "up to latest" ending at the calendar's last close. */
  cells: ScaleCell[];
}

/**
 * Runs `work` on a Model set on `calendar`: a virtual clock started at the evening, a fresh
 * sandbox at the live limits whose data clock follows it (with the calendar's season, if any), the
 * wire, an empty disk and the cells; the clock is stopped and the sandbox closed afterwards.
 */
export async function withCalendarModel<T>(
  calendar: Pick<Calendar, "evening" | "lastClose" | "season">,
  aliased: readonly AliasedCompany[],
  companies: readonly ScaleCompany[],
  pricesFrom: string,
  work: (model: CalendarModel) => Promise<T>,
): Promise<T> {
  const clock = new VirtualClock(Date.parse(calendar.evening));
  clock.start();
  const sandbox = startWorkerSandbox(
    {
      ratePerMinute: LIVE.ratePerMinute,
      dailyLimit: LIVE.dailyLimit,
      startMs: clock.now(),
      followClock: true,
      ...(calendar.season === undefined ? {} : { season: calendar.season }),
    },
    aliased,
    clock.now,
    clock.hold,
  );
  try {
    const wire = timedFetch(sandbox.app, clock, LIVE.latencyMs);
    const disk = new StorageStandIn(clock.sleep, LIVE.storageLatencyMs);
    const cells = scaleCells(companies, pricesFrom, calendar.lastClose, true);
    return await work({ clock, sandbox, wire, disk, cells });
  } finally {
    setClientForTesting(undefined);
    clock.stop();
    await sandbox.close();
  }
}

/** What the evening session measured. */
export interface Evening<R> {
  /** What `cold` returned. */
  cold: R;
  /** Real time of the cold run. @unit s */
  wallSeconds: number;
  /** Simulated minutes of the cold run (pacing at the live limit). */
  simulatedMinutes: number;
  /** Background requests after the cold run (the results-day histories, src/client/results-day-history.ts). */
  backgroundRequests: number;
  /** The evening runtime's store at the close (its memory tier: the expiries its cells decided). */
  store: ReturnType<typeof storeOver>;
}

/**
 * The analyst's evening session: a runtime over the Model's disk runs `cold` (the cells' first
 * calculation); the workbook stays open while its background runs (the companies' results-day
 * histories are asked then, within that day's budget, not on the first morning); then it is
 * closed: its queue paused, its store flushed to the disk.
 */
export async function runEvening<R>(
  model: CalendarModel,
  cold: () => Promise<R>,
): Promise<Evening<R>> {
  const { clock, wire, disk } = model;
  const evening = storeOver(disk, clock);
  const client = makeClient(wire.fetch, clock, evening);
  setClientForTesting(client, { lang: "en" }, evening);
  const start = performance.now();
  const simulatedStart = clock.now();
  const result = await cold();
  const wallSeconds = (performance.now() - start) / 1000;
  const simulatedMinutes = (clock.now() - simulatedStart) / 60_000;
  const coldRequests = wire.counters.requests;
  await client.revalidation().idle();
  const backgroundRequests = wire.counters.requests - coldRequests;
  client.revalidation().pause();
  await evening.flush();
  setClientForTesting(undefined);
  return { cold: result, wallSeconds, simulatedMinutes, backgroundRequests, store: evening };
}

/**
 * Runs `calendar` for the Model: a fresh sandbox on the calendar's data clock, the evening's cold
 * run, then each morning's open in a new runtime (as a workbook opened again starts one) with its
 * background revalidation awaited and counted. The morning's runtime is closed afterwards (its
 * queue paused, as a closed workbook sends nothing), so what it left is the next morning's.
 */
export async function runCalendar(
  calendar: Calendar,
  aliased: readonly AliasedCompany[],
  companies: readonly ScaleCompany[],
  pricesFrom: string,
): Promise<CalendarResult> {
  return withCalendarModel(calendar, aliased, companies, pricesFrom, async (model) => {
    const { clock, sandbox, wire, disk, cells } = model;
    const filers = new Set(await sandbox.filers());
    const filingCompanies = aliased.filter((c) => filers.has(c.base)).length;
    const evening = await runEvening(model, () =>
      recalculateScale(cells, cellErrorText, undefined),
    );

    const opens: CalendarOpen[] = [];
    for (const morning of calendar.mornings) {
      await clock.sleep(Math.max(0, Date.parse(morning) - clock.now()));
      const store = storeOver(disk, clock);
      const client = makeClient(wire.fetch, clock, store);
      setClientForTesting(client, { lang: "en" }, store);
      const queue = client.revalidation();
      const before = wire.counters.requests;
      const start = performance.now();
      const opened = await recalculateScale(cells, cellErrorText, undefined);
      const wallSeconds = (performance.now() - start) / 1000;
      const queued = clock.now();
      // Resolves when the queue is empty, or paused (the daily budget spent).
      await queue.idle();
      await store.flush();
      const status = queue.status();
      opens.push({
        requests: wire.counters.requests - before,
        valuesAtOnce: opened.values,
        changedAnswers: status.changed,
        deferred: status.paused === "budget" ? status.requests : 0,
        budgetReached: status.paused === "budget",
        dailyBudget: status.dailyBudget,
        wallSeconds,
        backgroundMinutes: (clock.now() - queued) / 60_000,
      });
      // The workbook is closed until the next morning: its runtime sends nothing more.
      queue.pause();
      setClientForTesting(undefined);
    }
    return {
      eveningBackgroundRequests: evening.backgroundRequests,
      filingCompanies,
      valuesEvening: evening.cold.values,
      cells: cells.length,
      eveningWallSeconds: evening.wallSeconds,
      eveningSimulatedMinutes: evening.simulatedMinutes,
      opens,
    };
  });
}
