// The morning after results on the desktop host model: the workbook opened by the add-in's open (no
// cell called by Excel), what it shows once the background is done against a fresh session, and its cost.

import { performance } from "node:perf_hooks";
import { getHostCapabilities, setHostCapabilities } from "../functions/host";
import { setClientForTesting } from "../src/session";
import type { KaishaClient, TieredCacheStore } from "../src/client";
import { openWorkbook, type OpenHost } from "../taskpane/open/morning-open";
import type { OpenCell } from "../taskpane/open/open-cell";
import { mergeDueRecord, sessionDues, type DueRecord } from "../taskpane/open/due-record";
import type { AliasedCompany } from "./company-aliases";
import { runEvening, withCalendarModel, type Calendar } from "./calendar-run";
import { LIVE, makeClient, storeOver } from "./live-client";
import { handCells, type ScaleCell, type ScaleCompany } from "./scale-cells";
import { StorageStandIn } from "./storage-standin";
import type { VirtualClock } from "./virtual-clock";

/**
 * The results morning (JST = UTC+9): the model is built on Monday 11 May 2026 at 10:00, before
 * that afternoon's annual results (決算短信 of the year ended March 2026: a sixth of the dataset's
 * companies disclose them at 15:00, and they reach the API 24 hours later, openapi.json
 * info.description); the workbook is reopened on Wednesday 13 May at 08:00, once they are visible.
 */
const RESULTS = {
  evening: "2026-05-11T01:00:00Z",
  lastClose: "2026-05-08",
  morning: "2026-05-12T23:00:00Z",
};

/**
 * The next morning of the bench's Model (README "the morning open"): built on the sandbox's day,
 * Friday 20 November 2026 at 18:00, reopened 13 hours later; no filings in between.
 */
const NEXT_MORNING = {
  evening: "2026-11-20T09:00:00Z",
  lastClose: "2026-11-20",
  morning: "2026-11-20T22:00:00Z",
};

/** What one morning on the desktop model measured. */
export interface DesktopMorning {
  /** Requests from the open until the background was done (or the daily budget stopped it). */
  requests: number;
  /**
   * Real time from the open until the last recalculated cell had its value: the scan, the open's
   * recalculation, the background (its pacing simulated, so not in this figure) and the
   * recalculation of the cells whose answers changed. @unit s
   */
  wallSeconds: number;
  /**
   * The process's CPU time over the same span (user and system, every thread: compression and
   * GC included): on a loaded machine the wall time is mostly waiting for a core. @unit s
   */
  cpuSeconds: number;
  /** Cells the open recalculated, and those recalculated again when their answer changed. */
  recalculated: number;
  changedCells: number;
  /** Cells the open left as saved: the workbook's due record vouched for them. */
  kept: number;
  /**
   * The morning's requests the background sent (counted against its daily budget,
   * src/client/revalidator.ts DEFAULT_DAILY_BUDGET); the rest were the cells' own (an answer not
   * stored: they are outside the budget).
   */
  backgroundRequests: number;
  /** The morning's requests by endpoint ("financials", "securities/prices"). */
  requestKinds: Record<string, number>;
  /** Background requests of the evening session after its cold run (the results-day histories). */
  eveningBackgroundRequests: number;
  /** The queue when it stopped: requests left by the daily budget, companies still marked. */
  deferred: number;
  unchecked: number;
}

export interface ResultsMorning extends DesktopMorning {
  /**
   * Cells showing a figure other than a fresh session's at that time, without a stale mark, once
   * the morning's background is done: must be 0.
   */
  staleUnmarked: number;
  /** Cells differing from the fresh session's but marked stale (the budget left them). */
  staleMarked: number;
  cells: number;
  /** Examples of unmarked differences (address, shown, fresh), for the log. */
  samples: string[];
}

/** A cell's value as compared: a rich value by its basic value; an error by its text. */
function comparable(value: unknown): string {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const v = value as { type?: unknown; basicValue?: unknown; code?: unknown; message?: unknown };
    if (v.type === "Double") return JSON.stringify(v.basicValue);
    if (typeof v.code === "string") return `${v.code} ${String(v.message)}`;
  }
  return JSON.stringify(value);
}

/**
 * Marked stale as the analyst sees it: a single value's number format (src/excel/values.ts
 * staleCell), an error's message (functions/run.ts), a table's title row (functions/common.ts) or
 * every number of a table (functions/run.ts staleResult; its labels are text and carry no format).
 */
function marked(value: unknown): boolean {
  if (Array.isArray(value)) {
    const title = value[0] as unknown[] | undefined;
    if (Array.isArray(title) && title.some((c) => typeof c === "string" && /stale|古い/.test(c)))
      return true;
    const numbers = (value as unknown[][])
      .flat()
      .filter((c) => typeof c === "object" && c !== null);
    return numbers.length > 0 && numbers.every(marked);
  }
  if (value === null || typeof value !== "object") return false;
  // A value's number format, or an error's message (functions/run.ts: read from a stale answer).
  const { numberFormat, message } = value as { numberFormat?: unknown; message?: unknown };
  return [numberFormat, message].some((t) => typeof t === "string" && /stale|古い値/.test(t));
}

/** Each cell's value (or error) as it settles. */
function recorder(): {
  shown: Map<ScaleCell, unknown>;
  settle: (cell: ScaleCell, value: unknown) => void;
  reject: (cell: ScaleCell, error: unknown) => void;
} {
  const shown = new Map<ScaleCell, unknown>();
  return {
    shown,
    settle: (cell, value) => shown.set(cell, value),
    reject: (cell, error) => shown.set(cell, error),
  };
}

/**
 * The desktop model's workbook for taskpane/open/morning-open.ts: its KAISHA cells (the bench's),
 * the values they show (the saved ones until a cell is evaluated again), Excel's recalculation
 * of given addresses, and nothing called at open.
 */
function desktopWorkbook(
  cells: readonly ScaleCell[],
  client: KaishaClient,
  clock: VirtualClock,
  shown: Map<ScaleCell, unknown>,
  dueRecord: DueRecord | undefined,
  store: TieredCacheStore,
) {
  const byAddress = new Map<string, ScaleCell[]>();
  for (const cell of cells) {
    const list = byAddress.get(cell.address);
    if (list === undefined) byAddress.set(cell.address, [cell]);
    else list.push(cell);
  }
  let answered = 0;
  const pending = new Set<Promise<void>>();
  const evaluate = (list: readonly ScaleCell[]): void => {
    const done = handCells(
      list,
      (cell, value) => {
        shown.set(cell, value);
        answered += 1;
      },
      (cell, error) => {
        shown.set(cell, error);
        answered += 1;
      },
    );
    pending.add(done);
    void done.finally(() => pending.delete(done));
  };
  // The bench puts a company's VALUATION and PRICES at one address (scale-cells.ts): one scanned
  // cell per function there, so the open's plan sees each (a workbook has one formula a cell).
  const scan: OpenCell[] = [];
  for (const [address, list] of byAddress) {
    const m = /^'(.*)'!([A-Z]+\d+)$/.exec(address);
    if (m === null) continue;
    const seen = new Set<string>();
    for (const cell of list) {
      const [name, args] = cell.formula();
      if (seen.has(name)) continue;
      seen.add(name);
      scan.push({
        sheet: (m[1] as string).replace(/''/g, "'"),
        address: m[2] as string,
        formula: `=KAISHA.${name}("${String(args[0])}")`,
        value: shown.get(cell),
      });
    }
  }
  const host: OpenHost = {
    scanCells: () => Promise.resolve(scan),
    activeSheet: () => Promise.resolve("Sheet 1"),
    recalculate: (addresses) => {
      const list = [...new Set(addresses)].flatMap((a) => byAddress.get(a) ?? []);
      evaluate(list);
      return Promise.resolve(addresses.length);
    },
    client: () => ({
      revalidation: () => client.revalidation(),
      stats: () => client.stats(),
    }),
    cellsAnswered: () => answered,
    sleep: (ms) => clock.sleep(ms),
    dueRecord: () => Promise.resolve(dueRecord),
    storedKeys: () => store.keys(),
    now: () => clock.now(),
  };
  /** Excel's recalculation of the cells the background names (taskpane/recalc-on-revalidation.ts). */
  const recalculated = new Set<string>();
  const off = client.revalidation().onRecalculate((addresses) => {
    for (const a of addresses) recalculated.add(a);
    evaluate(addresses.flatMap((a) => byAddress.get(a) ?? []));
  });
  return {
    host,
    recalculated,
    /**
     * Resolves when every evaluation handed has settled and `client`'s background is idle (or
     * paused by its budget), each waited for again until neither has anything left.
     */
    async current(client: KaishaClient): Promise<void> {
      do {
        while (pending.size > 0) await Promise.all([...pending]);
        await client.revalidation().idle();
      } while (pending.size > 0);
    },
    stop: off,
  };
}

/**
 * The evening's cold run (its background, the results-day histories, let run), then the desktop
 * morning through the add-in's open; with `compare`, a fresh session's values at the morning.
 */
async function desktopRun(
  calendar: Pick<Calendar, "evening" | "lastClose"> & { morning: string },
  aliased: readonly AliasedCompany[],
  companies: readonly ScaleCompany[],
  pricesFrom: string,
  compare: boolean,
): Promise<ResultsMorning> {
  const host = getHostCapabilities();
  // Marks shown as the current hosts show them (a stale value's number format).
  setHostCapabilities({ dataTypes: true });
  try {
    return await withCalendarModel(calendar, aliased, companies, pricesFrom, async (model) => {
      const { clock, wire, disk, cells } = model;
      // The evening: the cold run, then its background until done (the workbook stays open).
      const saved = recorder();
      const evening = await runEvening(model, () => handCells(cells, saved.settle, saved.reject));
      // Saved with the workbook: the due record the evening's runtime kept (taskpane/open/due-writer.ts).
      const memory = evening.store.memory;
      const held = (await memory.keys()).flatMap((key) => {
        const entry = memory.peek?.(key);
        return entry === undefined ? [] : [[key, entry] as const];
      });
      const dueRecord = mergeDueRecord(undefined, sessionDues(held), new Set(), clock.now());
      // The evening's runtime is gone: its memory tier is no part of the morning's heap.
      held.length = 0;
      await memory.clear();

      // The morning: a new runtime, Excel showing the saved values, the add-in's open.
      await clock.sleep(Math.max(0, Date.parse(calendar.morning) - clock.now()));
      const store = storeOver(disk, clock);
      // The morning's requests by kind, the background's (within its daily budget) apart.
      const kinds = new Map<string, number>();
      const morningFetch = ((input: RequestInfo | URL, init?: RequestInit) => {
        const kind = /\/v1\/([a-z]+)(?:\/[^/?]+\/([a-z]+))?/.exec(String(input));
        const name = kind === null ? "other" : `${kind[1]}${kind[2] ? `/${kind[2]}` : ""}`;
        kinds.set(name, (kinds.get(name) ?? 0) + 1);
        return wire.fetch(input, init);
      }) as typeof fetch;
      const client = makeClient(morningFetch, clock, store);
      setClientForTesting(client, { lang: "en" }, store);
      const shown = new Map(saved.shown);
      const book = desktopWorkbook(cells, client, clock, shown, dueRecord, store);
      const before = wire.counters.requests;
      const start = performance.now();
      const cpuAtStart = process.cpuUsage();
      const opened = await openWorkbook(book.host, { mode: "auto" });
      // Done when every cell handed to Excel has its value and the background is idle: the open
      // returns once its cells are handed (their answers may still be coming, and with them the
      // due answers they queue), and each answer the background changes hands more cells.
      await book.current(client);
      const wallSeconds = (performance.now() - start) / 1000;
      const cpu = process.cpuUsage(cpuAtStart);
      const cpuSeconds = (cpu.user + cpu.system) / 1e6;
      const requests = wire.counters.requests - before;
      const status = client.revalidation().status();
      book.stop();
      // The workbook is closed: its queue is dropped, and with it the wake-up a spent daily budget
      // armed for the next JST midnight. Left armed, that timer was the virtual clock's next one
      // while the store's compression ran off the clock, and the clock jumped to midnight: the
      // fresh session then compared the morning with the next day's data.
      client.revalidation().pause();
      client.revalidation().clear();
      await store.flush();
      setClientForTesting(undefined);

      let staleUnmarked = 0;
      let staleMarked = 0;
      const samples: string[] = [];
      if (compare) {
        // A fresh session at the same morning: no stored answer, every cell asked.
        const fresh = recorder();
        const freshStore = storeOver(new StorageStandIn(clock.sleep, LIVE.storageLatencyMs), clock);
        const freshClient = makeClient(wire.fetch, clock, freshStore);
        setClientForTesting(freshClient, { lang: "en" }, freshStore);
        await handCells(cells, fresh.settle, fresh.reject);
        freshClient.revalidation().pause();
        setClientForTesting(undefined);
        for (const cell of cells) {
          const now = shown.get(cell);
          if (comparable(now) === comparable(fresh.shown.get(cell))) continue;
          if (marked(now)) staleMarked += 1;
          else {
            staleUnmarked += 1;
            if (samples.length < 3)
              samples.push(
                `${cell.address} ${comparable(now)} vs ${comparable(fresh.shown.get(cell))}`,
              );
          }
        }
      }
      return {
        requests,
        wallSeconds,
        cpuSeconds,
        recalculated: opened.recalculated,
        changedCells: book.recalculated.size,
        kept: opened.kept,
        backgroundRequests: status.spentToday,
        requestKinds: Object.fromEntries([...kinds].sort((a, b) => b[1] - a[1])),
        eveningBackgroundRequests: evening.backgroundRequests,
        deferred: status.paused === "budget" ? status.requests : 0,
        unchecked: status.unchecked,
        staleUnmarked,
        staleMarked,
        cells: cells.length,
        samples,
      };
    });
  } finally {
    setHostCapabilities(host);
  }
}

/** The morning after results on the desktop model, compared cell by cell with a fresh session. */
export async function resultsMorning(
  aliased: readonly AliasedCompany[],
  companies: readonly ScaleCompany[],
  pricesFrom: string,
  log: (line: string) => void,
): Promise<ResultsMorning> {
  log("  results morning (built 11 May before the results, reopened 13 May, desktop model)...");
  const r = await desktopRun(RESULTS, aliased, companies, pricesFrom, true);
  log(
    `  results morning: ${r.staleUnmarked} cells superseded unmarked, ${r.staleMarked} marked; ${r.requests} requests (${r.backgroundRequests} by the background, by endpoint ${JSON.stringify(r.requestKinds)}; ${r.deferred} left by the budget, ${r.unchecked} companies unchecked), ${r.recalculated} cells recalculated at open (${r.kept} left as saved), ${r.changedCells} after${r.samples.length > 0 ? `; e.g. ${r.samples.join("; ")}` : ""}`,
  );
  return r;
}

/** The next morning (+13 h) on the desktop model: what the add-in's own open costs. */
export async function desktopMorning(
  aliased: readonly AliasedCompany[],
  companies: readonly ScaleCompany[],
  pricesFrom: string,
  log: (line: string) => void,
): Promise<DesktopMorning> {
  log("  next morning on the desktop model (no cell called at open; the add-in's open)...");
  const r = await desktopRun(NEXT_MORNING, aliased, companies, pricesFrom, false);
  log(
    `  desktop next morning: ${r.requests} requests, ${r.wallSeconds.toFixed(1)} s wall (${r.cpuSeconds.toFixed(1)} s CPU), ${r.recalculated} cells recalculated at open (${r.kept} left as saved by the due record), ${r.changedCells} after`,
  );
  return r;
}
