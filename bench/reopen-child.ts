// A new Node process that reopens a Model over the answers the bench saved: cold JIT, fresh module
// state, measured until the last cell has its value (started by bench/reopen-process.ts).

import { errorText } from "./script-entry";
import { performance } from "node:perf_hooks";
import { setClientForTesting } from "../src/session";
import type { AliasedCompany } from "./company-aliases";
import { collectGarbage } from "./memory-sampler";
import {
  companyOf,
  handCells,
  recalculateScale,
  scaleCells,
  type ScaleCell,
  type ScaleCompany,
} from "./scale-cells";
import { warmUpCode } from "./code-warm-up";
import { LIVE, makeClient, storeOver, timedFetch } from "./live-client";
import { cellErrorText } from "./sides";
import { FailureTally, type FailureCount } from "./failure-tally";
import { StorageStandIn } from "./storage-standin";
import { loadResultsDays, warmMemoryTier, parseStoredForm, type StoredRecord } from "../src/client";
import { profileAllocations } from "./reopen-allocations";
import { VirtualClock } from "./virtual-clock";
import { startWorkerSandbox } from "./worker-sandbox";
import { modelBrowserCompression } from "./native-compression";
import { readFileSync } from "node:fs";
import { deserialize } from "node:v8";

/** What the parent sends: the Model's companies and cells' inputs, the saved storage, the clock. */
export interface ReopenJob {
  aliased: AliasedCompany[];
  companies: ScaleCompany[];
  pricesFrom: string;
  pricesTo: string;
  storagePath: string;
  nowMs: number;
}

/** What the child answers. */
export interface ReopenMeasure {
  /** Real time from the first cell's call to the last cell's value. @unit s */
  wallSeconds: number;
  cells: number;
  values: number;
  /** The cells without a value, by message (a recurring fault is then diagnosable from the log). */
  failures: FailureCount[];
  requests: number;
  /** Peak over the start (after a GC, the runtime loaded) of heapUsed, and of arrayBuffers. @unit MB */
  heapGrowthMB: number;
  arrayBuffersGrowthMB: number;
  /** Process CPU (user + system, both threads) per cell. @unit µs */
  cpuMicrosPerCell: number;
  /**
   * The measured stretch on the monotonic clock V8's CPU profiles time their samples with, for
   * bench/reopen-profile.ts to read only it (not the module loading before it). @unit µs
   */
  windowMicros: [number, number];
  /** REOPEN_PARTS=1: where a reopen's CPU goes, measured apart after it (`partsOf`). */
  parts?: ReopenParts;
}

/** A reopen's CPU told in parts, each measured alone in the reopened (JIT-warm) process. @unit s */
interface ReopenParts {
  /** Every stored answer read into memory by a new runtime (read, gunzip, parse, freeze, GC). */
  decode: number;
  /** Then its cells, all answers in memory: the first recalculation from memory. */
  firstCells: number;
  /** The same cells again: a warm recalculation. */
  warmCells: number;
}

/** Process CPU of `work` (user + system, every thread). @unit s */
async function cpuOf(work: () => Promise<unknown>): Promise<number> {
  collectGarbage();
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1e6;
}

/**
 * The reopen's parts apart, in this process after the measured reopen (its code compiled and
 * optimised, so JIT warm-up is in none of them: the reopen's CPU less their sum is about it): a new
 * runtime (`open`) reads every stored answer into memory, then its cells recalculate twice. The
 * first recalculation less the second is what cells do once per answer (indexes, lifetimes, tables
 * built, the full path of each answer's first cell).
 */
async function partsOf(
  cells: readonly ScaleCell[],
  open: () => ReturnType<typeof storeOver>,
): Promise<ReopenParts> {
  const store = open();
  const decode = await cpuOf(async () => {
    for (const key of await store.keys()) await store.get(key);
  });
  const firstCells = await cpuOf(() => recalculateScale(cells, cellErrorText, undefined));
  const warmCells = await cpuOf(() => recalculateScale(cells, cellErrorText, undefined));
  setClientForTesting(undefined);
  return { decode, firstCells, warmCells };
}

/** Now on the monotonic clock of `--cpu-prof` profiles (libuv's hrtime, CLOCK_MONOTONIC). */
function monotonicMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/**
 * The cells recalculated as recalculateScale does (bench/scale-cells.ts handCells), those without
 * a value counted by message and address: an error value, or what a call threw or rejected with.
 */
async function tallied(
  cells: readonly ScaleCell[],
): Promise<{ values: number; failures: FailureTally }> {
  const failures = new FailureTally();
  let values = 0;
  const settle = (cell: ScaleCell, value: unknown): void => {
    const message = cellErrorText(value);
    if (message === undefined) values += 1;
    else failures.add(message, cell.address);
  };
  // A cell error rejected with reads as one given as a value; anything else by its message.
  const thrown = (error: unknown): string =>
    cellErrorText(error) ?? `thrown: ${error instanceof Error ? error.message : String(error)}`;
  await handCells(cells, settle, (cell, error) => failures.add(thrown(error), cell.address));
  return { values, failures };
}

async function reopen(job: ReopenJob): Promise<ReopenMeasure> {
  // A rolling minute before the reopen's instant: the warm-up below runs in it.
  const clock = new VirtualClock(job.nowMs - WARM_UP_MS);
  clock.start();
  // The API is another machine: a worker thread, started before the measurement.
  const sandbox = startWorkerSandbox(
    { ratePerMinute: LIVE.ratePerMinute, dailyLimit: LIVE.dailyLimit, startMs: clock.now() },
    job.aliased,
    clock.now,
    clock.hold,
  );
  // Its start (ts-node compiling the sandbox) must not share the measured seconds: wait for it.
  await sandbox.count429();
  const wire = timedFetch(sandbox.app, clock, LIVE.latencyMs);
  const disk = new StorageStandIn(clock.sleep, LIVE.storageLatencyMs).load(job.storagePath);
  const cells = scaleCells(job.companies, job.pricesFrom, job.pricesTo, true);
  await warmUpReopenCode(cells, job.companies.length, sandbox.app, clock);
  await clock.sleep(job.nowMs - clock.now());
  collectGarbage();
  const before = process.memoryUsage();
  let heapPeak = before.heapUsed;
  let buffersPeak = before.arrayBuffers;
  const sample = (): void => {
    const now = process.memoryUsage();
    heapPeak = Math.max(heapPeak, now.heapUsed);
    buffersPeak = Math.max(buffersPeak, now.arrayBuffers);
  };
  const sampler = setInterval(sample, 25);
  const allocations = await profileAllocations(process.env["REOPEN_ALLOC_PROF"]);
  const cpu = process.cpuUsage();
  const windowStart = monotonicMicros();
  const start = performance.now();
  // The workbook opens: a new runtime (store, client) over the stored answers, then its cells.
  const store = storeOver(disk, clock);
  // As the add-in's start-up does (functions/startup.ts): the stored answers go to memory in bulk
  // while the cells arrive; a cell whose answer is still on its way waits for it.
  void warmMemoryTier(store);
  setClientForTesting(makeClient(wire.fetch, clock, store), { lang: "en" }, store);
  const outcome = await tallied(cells);
  const wallMs = performance.now() - start;
  const windowEnd = monotonicMicros();
  const used = process.cpuUsage(cpu);
  clearInterval(sampler);
  sample();
  await allocations?.();
  await store.flush();
  const parts =
    process.env["REOPEN_PARTS"] === "1"
      ? await partsOf(cells, () => {
          const again = storeOver(disk, clock);
          setClientForTesting(makeClient(wire.fetch, clock, again), { lang: "en" }, again);
          return again;
        })
      : undefined;
  clock.stop();
  await sandbox.close();
  return {
    ...(parts === undefined ? {} : { parts }),
    wallSeconds: wallMs / 1000,
    cells: cells.length,
    values: outcome.values,
    failures: outcome.failures.counts(),
    requests: wire.counters.requests,
    heapGrowthMB: (heapPeak - before.heapUsed) / 1048576,
    arrayBuffersGrowthMB: (buffersPeak - before.arrayBuffers) / 1048576,
    cpuMicrosPerCell: (used.user + used.system) / cells.length,
    windowMicros: [windowStart, windowEnd],
  };
}

/** The warm-up's rolling minute before the reopen (its requests out of the reopen's). @unit ms */
const WARM_UP_MS = 61_000;

/**
 * Loads the reopen's code before it is measured, as the floor's is (bench/code-warm-up.ts): the
 * last company's cells through storage of their own, written once and then read back by a new
 * runtime as a reopen reads (the persistent tier, the bulk load, the stored-answer check).
 */
async function warmUpReopenCode(
  cells: readonly ScaleCell[],
  companies: number,
  api: { request: (url: string, init?: RequestInit) => Response | Promise<Response> },
  clock: VirtualClock,
): Promise<void> {
  // The last company's (scaleCells numbers companies in order): not a spread of every cell's
  // number, which overflows the stack at Model 500.
  const last = companies - 1;
  const own = cells.filter((c) => companyOf(c.address).company === last);
  const request = (url: string, init?: RequestInit): Response | Promise<Response> =>
    api.request(url, init);
  const disk = new StorageStandIn(clock.sleep, LIVE.storageLatencyMs);
  const written = storeOver(disk, clock);
  await warmUpCode(own, request, clock.now, written);
  await written.flush();
  const reopened = storeOver(disk, clock);
  const loading = warmMemoryTier(reopened, { idleMs: 1_000 });
  await warmUpCode(own, request, clock.now, reopened);
  await loading;
  // The results-day look-up's module (the send chunk): the last company's answers may need no
  // look-up at the warm-up's instant, while the reopen's do (bench: ts-node compiled it inside
  // the measured seconds, 0.1-0.18 s of a Model 200 reopen).
  await loadResultsDays();
}

/** What the child answers for a floor job. */
export interface FloorMeasure {
  /** Real time to read, decompress and parse every stored answer, one after another. @unit s */
  seconds: number;
  answers: number;
  /** Their JSON as parsed (UTF-8 bytes after gunzip). @unit MB */
  jsonMB: number;
  /**
   * Process CPU (user + system, every thread) over those seconds: on a machine others load, the
   * reopen's CPU over this is steadier than the ratio of wall times. @unit s
   */
  cpuSeconds: number;
}

/**
 * The reopen's floor: every stored answer read (a structured-clone deserialize, as the storage
 * stand-in's reads are), decompressed and parsed (parseStoredForm: the stored form's lines), one
 * after another in this fresh process, nothing else: no check, no freeze, no cell. A reopen that
 * decodes every answer whole costs at least this.
 */
async function floor(storagePath: string): Promise<FloorMeasure> {
  const saved = deserialize(readFileSync(storagePath)) as { records: [string, Uint8Array][] };
  const records = saved.records.map(([, bytes]) => Buffer.from(bytes));
  collectGarbage();
  let jsonBytes = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (const bytes of records) {
    const record = deserialize(bytes) as StoredRecord;
    jsonBytes += record.bytes;
    await parseStoredForm(record.body);
  }
  const seconds = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  return {
    seconds,
    answers: records.length,
    jsonMB: jsonBytes / 1048576,
    cpuSeconds: (used.user + used.system) / 1e6,
  };
}

modelBrowserCompression();
process.once("message", (job: ReopenJob | { floorOf: string }) => {
  if ("floorOf" in job) {
    floor(job.floorOf).then(
      (measure) => process.send?.({ measure }, () => process.exit(0)),
      (error: unknown) => process.send?.({ error: errorText(error) }, () => process.exit(1)),
    );
    return;
  }
  reopen(job).then(
    (measure) => process.send?.({ measure }, () => process.exit(0)),
    (error: unknown) => process.send?.({ error: errorText(error) }, () => process.exit(1)),
  );
});
