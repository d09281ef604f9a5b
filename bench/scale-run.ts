// Runs Model N at the live limits on one virtual clock: cold, three warm recalculations, a reopen.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { SANDBOX_DEFAULT_NOW } from "../sandbox/data/model";
import { MemoryCacheStore, type TieredCacheStore } from "../src/client";
import { setClientForTesting } from "../src/session";
import { aliasCompanies, type AliasedCompany } from "./company-aliases";
import { BASE_URL, LIVE, makeClient, storeOver, timedFetch } from "./live-client";
import { collectGarbage } from "./memory-sampler";
import { expectedFinancial, type Facts } from "./probe";
import { browserRun, type BrowserMeasure } from "./browser-run";
import { failuresText } from "./failure-tally";
import type { FloorMeasure, ReopenMeasure } from "./reopen-child";
import { reopenFloorInNewProcess, reopenInNewProcess } from "./reopen-process";
import { seasonMorning, type SeasonResult } from "./season-run";
import { windowWeek, type WindowWeekResult } from "./window-week";
import {
  desktopMorning,
  resultsMorning,
  type DesktopMorning,
  type ResultsMorning,
} from "./results-morning";
import {
  companyOf,
  recalculateScale,
  scaleCells,
  scaleCompaniesOf,
  type ScaleCell,
  type ScaleOutcome,
} from "./scale-cells";
import { cellErrorText } from "./sides";
import { StorageStandIn } from "./storage-standin";
import { VirtualClock } from "./virtual-clock";
import { startWorkerSandbox } from "./worker-sandbox";
import { warmUpCode } from "./code-warm-up";

/** What one Model N run measured. */
export interface ScaleResult {
  name: string;
  companies: number;
  cells: number;
  ratePerMinute: number;
  dailyLimit: number;
  requests: number;
  floor: number;
  status429: number;
  warmRequests: number[];
  reopenRequests: number;
  cpuMicrosPerCell: number;
  warmCpuMicrosPerCell: number[];
  coldCpuMicrosPerCell: number;
  reopenCpuMicrosPerCell: number;
  heapGrowthMB: number;
  heapPeakMB: number;
  /** Over the heap before the Model: peak of each phase, and what stays after it (GC'd). @unit MB */
  phaseHeapMB: { phase: string; peakGrowth: number; retainedGrowth: number }[];
  firstRequestMs: number;
  reopenFirstReadMs: number;
  coldVirtualMinutes: number;
  /** Real (wall) time of each phase until its last cell had its value, in this process. @unit s */
  wallSeconds: { cold: number; warm: number[]; reopen: number };
  /** Simulated time of the same phases (0 where nothing waited for the pacer or storage). @unit s */
  simulatedSeconds: { cold: number; warm: number[]; reopen: number };
  /** The same-day reopen again, in a new Node process over the saved answers (reopen-child.ts). */
  newProcessReopen: ReopenMeasure;
  /** Read, decompress and parse every stored answer, in a new process too: the reopen's floor. */
  reopenFloor: FloorMeasure;
  /** The same reopen through Node's own compression streams instead of node:zlib (for comparison). */
  newProcessReopenNodeStreams: ReopenMeasure;
  /** The Chromium run (bench/browser-run.ts), for the Models BENCH_BROWSER names. */
  browser: BrowserMeasure | undefined;
  /** The earnings-season morning (bench/season-run.ts), on a sandbox of its own. */
  season: SeasonResult;
  /** Next morning (+13 h after the reopen, no new filings): a new runtime over the same storage. */
  morning: MorningOpen;
  /** Seven more mornings, a day apart: requests each day (background revalidation included). */
  weekDailyRequests: number[];
  /** The same seven mornings: real time to the last cell's value and simulated background minutes. */
  weekMornings: Array<Pick<MorningOpen, "wallSeconds" | "backgroundMinutes">>;
  /** A week inside a filing window (bench/window-week.ts), on a sandbox of its own. */
  windowWeek: WindowWeekResult;
  /** The morning after results and the next morning on the desktop model (bench/results-morning.ts). */
  resultsMorning: ResultsMorning;
  desktopMorning: DesktopMorning;
  outcomes: { cold: ScaleOutcome; warm: ScaleOutcome[]; reopen: ScaleOutcome };
  storageEntries: number;
  storageMB: number;
  memoryTierMB: number;
  memoryTierEntries: number;
  notes: string[];
}

interface Phase {
  outcome: ScaleOutcome;
  /** Peak heapUsed during the phase, and heapUsed after a GC once it finished. @unit MB */
  heapPeakMB: number;
  heapAfterMB: number;
  requests: number;
  cpuMicros: number;
  firstRequestMs: number;
  virtualMs: number;
  /** Real time until the last cell had its value. @unit ms */
  wallMs: number;
}

async function phase(
  cells: readonly ScaleCell[],
  wire: ReturnType<typeof timedFetch>,
  clock: VirtualClock,
  oracle: Parameters<typeof recalculateScale>[2],
  onSample: () => void,
  hooks: {
    /**
     * Work the recalculation left running that belongs to it (the persistent tier's background
     * writes: compressing and storing what the cold run received); awaited and measured with it.
     */
    settle?: () => Promise<void>;
    /** Runs after the phase, before its closing GC (the reopen drops the old runtime here). */
    after?: () => Promise<void>;
  } = {},
): Promise<Phase> {
  // No forced GC here: the one just before (the baseline's, or the previous phase's at its end) is
  // enough, and two in a row make V8 see no mutator time between them and raise the next heap
  // limit to its maximum (trace-gc: the cold run then grew 520 MB before its first mark-compact),
  // a peak no real runtime would reach.
  const before = wire.counters.requests - wire.history.requests;
  const virtualStart = clock.now();
  wire.reset();
  let peak = process.memoryUsage().heapUsed;
  const sampleBoth = (): void => {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    onSample();
  };
  const sampler = setInterval(sampleBoth, 25);
  const cpu = process.cpuUsage();
  const start = performance.now();
  const outcome = await recalculateScale(cells, cellErrorText, oracle);
  // Simulated and real time until the last cell had its value (persisting afterwards is not waited for).
  const virtualMs = clock.now() - virtualStart;
  const wallMs = performance.now() - start;
  await hooks.settle?.();
  const used = process.cpuUsage(cpu);
  clearInterval(sampler);
  sampleBoth();
  await hooks.after?.();
  collectGarbage();
  return {
    outcome,
    heapPeakMB: peak / 1048576,
    heapAfterMB: process.memoryUsage().heapUsed / 1048576,
    // The cells' requests: the background's results-day histories are reported on their own.
    requests: wire.counters.requests - wire.history.requests - before,
    cpuMicros: used.user + used.system,
    firstRequestMs: wire.firstRequestSince(start),
    virtualMs,
    wallMs,
  };
}

/** Model N: cold, three warm recalculations, then a reopen over the persisted store. */
export async function runModel(
  facts: Facts,
  taken: ReadonlySet<string>,
  count: number,
  log: (line: string) => void,
  options: { browser: boolean } = { browser: false },
): Promise<ScaleResult> {
  const name = `Model ${count}`;
  const companies: AliasedCompany[] = aliasCompanies(facts.codes, taken, count);
  const scaleCompanies = scaleCompaniesOf(facts, companies);
  // Live "up to latest" PRICES: the sandbox's today is pinned, so their rows end on its last day.
  const cells = scaleCells(scaleCompanies, facts.pricesFrom5y, facts.lastTradingDay, true);
  const oracle = (base: string, item: string, back: number, value: unknown): boolean => {
    const expected = expectedFinancial(facts, base, item, -back);
    return expected === null ? value === "" || value === null : value === expected;
  };

  const clock = new VirtualClock(Date.parse(SANDBOX_DEFAULT_NOW));
  clock.start();
  // The sandbox answers from a worker thread: its work is the API's, not the add-in's heap.
  const sandbox = startWorkerSandbox(
    {
      ratePerMinute: LIVE.ratePerMinute,
      dailyLimit: LIVE.dailyLimit,
      startMs: clock.now(),
    },
    companies,
    clock.now,
    clock.hold,
  );
  const wire = timedFetch(sandbox.app, clock, LIVE.latencyMs);
  const disk = new StorageStandIn(clock.sleep, LIVE.storageLatencyMs);
  // `let`: the reopen drops this runtime (a reopened workbook starts a new one).
  // Warm-up, not measured (bench/code-warm-up.ts): the last company's cells through a client and
  // storage of their own load the add-in's lazily loaded code; then a rolling minute passes, so
  // the cold build's pacer and the sandbox's limiter both start from an empty minute.
  const warmStore = storeOver(new StorageStandIn(clock.sleep, LIVE.storageLatencyMs), clock);
  await warmUpCode(
    cells.filter((c) => companyOf(c.address).company === count - 1),
    (url, init) => sandbox.app.request(url, init),
    clock.now,
    warmStore,
  );
  await warmStore.flush();
  await clock.sleep(61_000);
  let store: TieredCacheStore | undefined = storeOver(disk, clock);
  setClientForTesting(makeClient(wire.fetch, clock, store), { lang: "en" }, store);

  collectGarbage();
  const heapBefore = process.memoryUsage().heapUsed;
  let heapPeak = heapBefore;
  const sample = (): void => {
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  };

  log(`${name}: ${cells.length.toLocaleString("en-US")} cells, cold...`);
  const cold = await phase(cells, wire, clock, oracle, sample, {
    settle: () => store?.flush() ?? Promise.resolve(),
  });
  const status429 = await sandbox.count429();
  // Floor: every distinct answer the workbook needs, asked once (a retry or a repeat is extra).
  const distinct = wire.distinct.size - wire.history.distinct.size;
  // Only the numbers are kept; the old runtime must be collectable at the reopen.
  const memoryTierMB = (store.memory as MemoryCacheStore).bytes / 1048576;
  const memoryTierEntries = (await store.memory.keys()).length;
  log(
    `  ${cold.requests} requests (${distinct} distinct), ${status429} × 429, ${(cold.virtualMs / 60_000).toFixed(1)} simulated min, first request ${Math.round(cold.firstRequestMs)} ms`,
  );
  const warm: Phase[] = [];
  for (let i = 0; i < 3; i += 1) {
    // After the last one the workbook closes: this runtime is gone before the reopen (a reopened
    // workbook starts a new one; its predecessor's heap is not there to collect).
    const closeAfter =
      i < 2
        ? undefined
        : async () => {
            await store?.flush();
            store = undefined;
            setClientForTesting(undefined);
          };
    warm.push(
      await phase(cells, wire, clock, undefined, sample, closeAfter ? { after: closeAfter } : {}),
    );
    log(
      `  warm ${i + 1}: ${warm[i]?.requests} requests, ${((warm[i]?.cpuMicros ?? 0) / cells.length).toFixed(1)} µs CPU per cell`,
    );
  }
  const storageEntries = disk.entries;

  // Reopen: a new runtime (client, pacer, memory tier) over the same persisted storage.
  const reopenedStore = storeOver(disk, clock);
  const reopenedClient = makeClient(wire.fetch, clock, reopenedStore);
  setClientForTesting(reopenedClient, { lang: "en" }, reopenedStore);
  const reads = disk.recordReads;
  const reopen = await phase(cells, wire, clock, oracle, sample, {
    settle: () => reopenedStore.flush(),
  });
  log(
    `  reopen: ${reopen.requests} requests, ${disk.recordReads - reads} storage reads, ${(reopen.cpuMicros / cells.length).toFixed(1)} µs CPU per cell`,
  );
  await reopenedStore.flush();
  setClientForTesting(undefined);

  // The same reopen in a new process: the stored answers saved to a file, as a database on disk.
  const dir = mkdtempSync(join(tmpdir(), "kaisha-bench-"));
  const storagePath = join(dir, "storage.bin");
  disk.save(storagePath);
  // Time stands still here while the child works (it runs its own clock from this instant).
  const job = {
    aliased: companies,
    companies: scaleCompanies,
    pricesFrom: facts.pricesFrom5y,
    pricesTo: facts.lastTradingDay,
    storagePath,
    nowMs: clock.now(),
  };
  const release = clock.hold();
  // Its CPU told in parts after it (the reopen's own time is measured before them).
  const newProcessReopen = await reopenInNewProcess(job, { parts: true }).finally(release);
  // The same once more through Node's own compression streams (script, unlike a browser's): what
  // the stand-in for the browser's native ones changes, reported beside the figure.
  const releaseAgain = clock.hold();
  const newProcessReopenNodeStreams = await reopenInNewProcess(job, { nodeStreams: true }).finally(
    releaseAgain,
  );
  const releaseFloor = clock.hold();
  const reopenFloor = await reopenFloorInNewProcess(storagePath).finally(releaseFloor);
  log(
    `  reopen's floor: ${reopenFloor.seconds.toFixed(2)} s to read, decompress and parse ${reopenFloor.answers} stored answers (${reopenFloor.jsonMB.toFixed(0)} MB of JSON) in a new process; the reopen is ${(newProcessReopen.wallSeconds / reopenFloor.seconds).toFixed(2)} × it`,
  );
  log(
    `  reopen in a new process: ${newProcessReopen.wallSeconds.toFixed(1)} s wall to the last cell, ${newProcessReopen.requests} requests, heap +${newProcessReopen.heapGrowthMB.toFixed(0)} MB, ArrayBuffers +${newProcessReopen.arrayBuffersGrowthMB.toFixed(0)} MB; through Node's compression streams ${newProcessReopenNodeStreams.wallSeconds.toFixed(1)} s, heap +${newProcessReopenNodeStreams.heapGrowthMB.toFixed(0)} MB, ArrayBuffers +${newProcessReopenNodeStreams.arrayBuffersGrowthMB.toFixed(0)} MB; ${newProcessReopen.values} of ${newProcessReopen.cells} cells with a value${failuresText(newProcessReopen.failures)}`,
  );
  // The same answers in headless Chromium (real IndexedDB, the built bundle), for the Models asked.
  let browser: BrowserMeasure | undefined;
  if (options.browser) {
    const hold = clock.hold();
    try {
      log(`  Chromium: the built bundle over IndexedDB...`);
      browser = await browserRun(cells, storagePath, BASE_URL, clock.now());
      log(
        `  Chromium: reopen ${browser.reopenWallSeconds.toFixed(1)} s wall, warm ${browser.warmMicrosPerCell.toFixed(1)} µs per cell, heap +${browser.reopenHeapGrowthMB.toFixed(0)} MB, ${browser.requests} requests, ${browser.values} of ${browser.cells} cells with a value${failuresText(browser.failures)}`,
      );
    } catch (err) {
      // Reported as not measured (the targets say "not run"), the Node figures still written.
      log(`  Chromium: not measured: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      hold();
    }
  }
  rmSync(dir, { recursive: true, force: true });

  // The analyst's routine: the workbook opened again the next morning, then every morning a week.
  log(`  next morning (+13 h)...`);
  await clock.sleep(13 * 3_600_000);
  const morning = await morningOpen(cells, wire, clock, disk, oracle, sample);
  log(
    `  next morning: ${morning.valuesAtOnce} of ${cells.length} cells at once in ${morning.wallSeconds.toFixed(1)} s wall, ${morning.requests} background requests (${morning.companies} companies)`,
  );
  const weekDailyRequests: number[] = [];
  const weekMornings: ScaleResult["weekMornings"] = [];
  for (let day = 1; day <= 7; day += 1) {
    await clock.sleep(24 * 3_600_000);
    const open = await morningOpen(cells, wire, clock, disk, oracle, sample);
    weekDailyRequests.push(open.requests);
    weekMornings.push({ wallSeconds: open.wallSeconds, backgroundMinutes: open.backgroundMinutes });
  }
  log(`  a week of mornings: ${weekDailyRequests.join(", ")} requests`);
  clock.stop();
  const season = await seasonMorning(companies, scaleCompanies, facts.pricesFrom5y, log);
  const inWindow = await windowWeek(companies, scaleCompanies, facts.pricesFrom5y, log);
  const afterResults = await resultsMorning(companies, scaleCompanies, facts.pricesFrom5y, log);
  const desktop = await desktopMorning(companies, scaleCompanies, facts.pricesFrom5y, log);

  const warmCpu = warm.map((w) => w.cpuMicros / cells.length);
  const sorted = [...warmCpu].sort((a, b) => a - b);
  const notes: string[] = [];
  const all429 = await sandbox.count429();
  await sandbox.close();
  if (all429 > status429)
    notes.push(`${all429 - status429} × 429 after the cold run (warm or reopen requests)`);
  if (wire.history.requests > 0)
    notes.push(
      `${wire.history.requests} background requests for companies' results-day histories (listSecurityDisclosures, lowest priority, not counted in the cold, warm and reopen figures; the mornings count theirs)`,
    );
  if (cold.outcome.errors > 0)
    notes.push(
      `${cold.outcome.errors} cells are #N/A by the data (e.g. ${cold.outcome.errorSamples.join("; ")}), the same in every run`,
    );
  return {
    name,
    companies: count,
    cells: cells.length,
    ratePerMinute: LIVE.ratePerMinute,
    dailyLimit: LIVE.dailyLimit,
    requests: cold.requests,
    floor: distinct,
    status429,
    warmRequests: warm.map((w) => w.requests),
    reopenRequests: reopen.requests,
    cpuMicrosPerCell: sorted[1] ?? 0,
    warmCpuMicrosPerCell: warmCpu,
    coldCpuMicrosPerCell: cold.cpuMicros / cells.length,
    reopenCpuMicrosPerCell: reopen.cpuMicros / cells.length,
    heapGrowthMB: (heapPeak - heapBefore) / 1048576,
    heapPeakMB: heapPeak / 1048576,
    phaseHeapMB: [
      ["cold", cold],
      ["warm 1", warm[0]],
      ["reopen", reopen],
    ].map(([phase, p]) => ({
      phase: phase as string,
      peakGrowth: (p as Phase).heapPeakMB - heapBefore / 1048576,
      retainedGrowth: (p as Phase).heapAfterMB - heapBefore / 1048576,
    })),
    firstRequestMs: cold.firstRequestMs,
    reopenFirstReadMs: reopen.firstRequestMs,
    coldVirtualMinutes: cold.virtualMs / 60_000,
    wallSeconds: {
      cold: cold.wallMs / 1000,
      warm: warm.map((w) => w.wallMs / 1000),
      reopen: reopen.wallMs / 1000,
    },
    simulatedSeconds: {
      cold: cold.virtualMs / 1000,
      warm: warm.map((w) => w.virtualMs / 1000),
      reopen: reopen.virtualMs / 1000,
    },
    newProcessReopen,
    reopenFloor,
    newProcessReopenNodeStreams,
    browser,
    season,
    morning,
    weekDailyRequests,
    weekMornings,
    windowWeek: inWindow,
    resultsMorning: afterResults,
    desktopMorning: desktop,
    outcomes: { cold: cold.outcome, warm: warm.map((w) => w.outcome), reopen: reopen.outcome },
    storageEntries,
    storageMB: disk.bytes / 1048576,
    memoryTierMB,
    memoryTierEntries,
    notes,
  };
}

/** One morning open: how many cells had their value at once, and what the background sent. */
interface MorningOpen {
  /** Cells with a value (not an error) when the recalculation finished. */
  valuesAtOnce: number;
  /** Real time until the last cell had its value. @unit s */
  wallSeconds: number;
  /** Simulated time until the last cell had its value (0 when nothing waited). @unit s */
  virtualSeconds: number;
  /** Requests of the open, background revalidation included, until the queue was empty. */
  requests: number;
  /** Companies the background queue held when the cells had answered. */
  companies: number;
  /** Simulated minutes until the background queue was empty. */
  backgroundMinutes: number;
}

/**
 * A workbook opened in a new runtime over the stored answers: every cell answers from storage at
 * once (stale-while-revalidate), and what can have changed is asked again in the background, which
 * is awaited here to count it.
 */
async function morningOpen(
  cells: readonly ScaleCell[],
  wire: ReturnType<typeof timedFetch>,
  clock: VirtualClock,
  disk: StorageStandIn,
  oracle: Parameters<typeof recalculateScale>[2],
  sample: () => void,
): Promise<MorningOpen> {
  const store = storeOver(disk, clock);
  const client = makeClient(wire.fetch, clock, store);
  setClientForTesting(client, { lang: "en" }, store);
  const before = wire.counters.requests;
  const opened = await phase(cells, wire, clock, oracle, sample);
  const companies = client.revalidation().status().companies;
  const started = clock.now();
  await client.revalidation().idle();
  await store.flush();
  const requests = wire.counters.requests - before;
  // The workbook is closed until the next open: its runtime sends nothing more (a queue paused by
  // the daily budget would otherwise start again at JST midnight, on nobody's behalf).
  client.revalidation().pause();
  setClientForTesting(undefined);
  return {
    valuesAtOnce: opened.outcome.values,
    wallSeconds: opened.wallMs / 1000,
    virtualSeconds: opened.virtualMs / 1000,
    requests,
    companies,
    backgroundMinutes: (clock.now() - started) / 60_000,
  };
}
