// `npm run bench`: the add-in against a naive baseline on the in-process sandbox; writes bench/RESULTS.md.
import { runScript } from "./script-entry";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import * as TYPED from "../functions/index";

/** FINANCIALS as Excel calls it: any value for any argument (custom-enum types are suggestions). */
const FINANCIALS = TYPED.FINANCIALS as unknown as (...args: unknown[]) => Promise<unknown>;
import { createApp } from "../sandbox/app";
import { forgetDataset } from "../sandbox/data";
import { DEMO_API_KEY } from "../sandbox/demo-key";
import { tiered } from "../functions/addin-cache";
import {
  PersistentCacheStore,
  createClient,
  type KaishaClient,
  type CacheStore,
} from "../src/client";
import { setClientForTesting } from "../src/session";
import { fetchDatasetTable, fetchScreeningTable } from "../taskpane/state/datasets";
import { measureBundles } from "./bundle-sizes";
import { naiveCount, runBaseline, type BaselineResult } from "./baselines";
import { aliasCompanies } from "./company-aliases";
import { aliases, priceColumn, type AliasResult, type PriceColumnResult } from "./extra-workloads";
import { scaleCells } from "./scale-cells";
import {
  heapGrowthLimitMB,
  phasesHeapGrowthMB,
  reopenFloorTargets,
  resultsJson,
  runtimePageTarget,
  scaleNotes,
  scaleTable,
} from "./scale-report";
import { LIVE } from "./live-client";
import { runModel, type ScaleResult } from "./scale-run";
import { morningTargets } from "./morning-targets";
import { StorageStandIn } from "./storage-standin";
import { coldFloorMs, pagesFor, type LimitSettings } from "./floors";
import { inProcessFetch, type InProcessFetch } from "./in-process-fetch";
import { collectGarbage, withMemorySampling, type MemoryPeak } from "./memory-sampler";
import { createNaiveClient } from "./naive-client";
import {
  probe,
  PRICES_PAGE_DEFAULT,
  PRICES_PAGE_MAX,
  SCREENING_PAGE_DEFAULT,
  SCREENING_PAGE_MAX,
  type Facts,
} from "./probe";
import {
  headlineTable,
  resultsMarkdown,
  type BenchReport,
  type SideMeasure,
  type Target,
  type WorkloadRow,
} from "./report";
import { modelBrowserCompression } from "./native-compression";
import { realClockModel, type RealClockResult } from "./realclock-run";
import { realClockMarkdown, realClockTargets, withRealClock } from "./realclock-report";

const ROOT = join(__dirname, "..");
const BASE_URL = "http://sandbox.bench/v1";
const COMPANIES = 50;

/** Screen and Import (real time, few requests): the live per-minute limit and 20 ms latency. */
const LIMITS: LimitSettings = {
  latencyMs: Number(process.env["BENCH_LATENCY_MS"] ?? 20),
  ratePerMinute: LIVE.ratePerMinute,
};
/** Model sizes to run (BENCH_MODELS=50,200 for a quicker run). */
const MODELS = (process.env["BENCH_MODELS"] ?? "50,200,500").split(",").map(Number);
/** Models also run in headless Chromium (BENCH_BROWSER=none for none). */
const BROWSER_MODELS = new Set(
  (process.env["BENCH_BROWSER"] ?? "50,500").split(",").map(Number).filter(Number.isFinite),
);

interface Timed<T> {
  result: T;
  timeMs: number;
  memory: MemoryPeak;
  cpuMicros: number;
  /** From the start to the first request on `wire` (NaN when none was sent). */
  firstRequestMs: number;
}

async function measure<T>(wire: InProcessFetch, work: () => Promise<T>): Promise<Timed<T>> {
  const { result, memory } = await withMemorySampling(async () => {
    wire.counters.firstRequestAt = undefined;
    const cpu = process.cpuUsage();
    const start = performance.now();
    const value = await work();
    const used = process.cpuUsage(cpu);
    const first = wire.counters.firstRequestAt;
    return {
      value,
      timeMs: performance.now() - start,
      cpuMicros: used.user + used.system,
      firstRequestMs: first === undefined ? Number.NaN : first - start,
    };
  });
  return { ...result, result: result.value, memory };
}

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** A sandbox with the benchmark's latency and limit, and a metered fetch over it. */
function meteredSandbox(ratePerMinute = LIMITS.ratePerMinute): {
  sandbox: ReturnType<typeof createApp>;
  wire: InProcessFetch;
} {
  const sandbox = createApp({
    latencyMs: LIMITS.latencyMs,
    ratePerMinute,
    dailyLimit: LIVE.dailyLimit,
  });
  return { sandbox, wire: inProcessFetch(sandbox.app, { keepUrls: false }) };
}

function addInClient(wire: InProcessFetch, cacheStore: CacheStore): KaishaClient {
  return createClient({
    baseUrl: BASE_URL,
    apiKey: DEMO_API_KEY,
    fetch: wire.fetch,
    ratePerMinute: LIMITS.ratePerMinute,
    cacheStore,
    lang: "en",
  });
}

function count429(sandbox: ReturnType<typeof createApp>, from = 0): number {
  return sandbox.requestLog.slice(from).filter((e) => e.status === 429).length;
}

/** Difference of wire counters between two snapshots. */
function wireDelta(
  wire: InProcessFetch,
  before: { requests: number; bytes: number },
): { requests: number; bytes: number } {
  return {
    requests: wire.counters.requests - before.requests,
    bytes: wire.counters.bytes - before.bytes,
  };
}

function snapshot(wire: InProcessFetch): { requests: number; bytes: number } {
  return { requests: wire.counters.requests, bytes: wire.counters.bytes };
}

/** Rounds of the small workloads: each on a fresh sandbox and client; medians are reported. */
const SMALL_REPEATS = 5;

/** The small workloads' storage answers at once: they measure requests, not disk latency. */
const noWait = (): Promise<void> => Promise.resolve();

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? 0)
    : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

function peak(memories: readonly MemoryPeak[]): MemoryPeak {
  return {
    heapUsedBefore: Math.min(...memories.map((m) => m.heapUsedBefore)),
    heapUsedPeak: Math.max(...memories.map((m) => m.heapUsedPeak)),
    rssPeak: Math.max(...memories.map((m) => m.rssPeak)),
  };
}

interface SmallRun {
  cold: SideMeasure;
  warm: SideMeasure;
  /** Requests of the same work by a new client over the same persisted store (the most seen). */
  reopenRequests: number;
  rows: number;
  tooMany: number;
}

/**
 * SMALL_REPEATS rounds of: a fresh metered sandbox and a fresh client, one cold run, one warm run.
 * Times are medians (the machine is shared); requests and bytes are the largest seen.
 */
async function smallWorkload(
  side: "addIn" | "naive",
  work: (
    ctx: { client: KaishaClient; lang: "en" },
    naive: ReturnType<typeof createNaiveClient>,
  ) => Promise<unknown>,
): Promise<SmallRun> {
  type Rounds = {
    t: number[];
    r: number[];
    b: number[];
    m: MemoryPeak[];
    c: number[];
    f: number[];
  };
  const rounds = (): Rounds => ({ t: [], r: [], b: [], m: [], c: [], f: [] });
  const cold = rounds();
  const warm = rounds();
  let rows = 0;
  let tooMany = 0;
  let reopenRequests = 0;
  for (let round = 0; round < SMALL_REPEATS; round += 1) {
    const { sandbox, wire } = meteredSandbox();
    // The task pane's shared client uses the same persistent store as the functions.
    const disk = new StorageStandIn(noWait, 0);
    const store = tiered(new PersistentCacheStore(disk.open()));
    const ctx = { client: addInClient(wire, store), lang: "en" as const };
    const naive = createNaiveClient({
      baseUrl: BASE_URL,
      apiKey: DEMO_API_KEY,
      fetch: wire.fetch,
      ratePerMinute: side === "naive" ? LIMITS.ratePerMinute : 0,
    });
    for (const [target, label] of [
      [cold, "cold"],
      [warm, "warm"],
    ] as const) {
      const before = snapshot(wire);
      const run = await measure(wire, () => work(ctx, naive));
      const delta = wireDelta(wire, before);
      target.t.push(run.timeMs);
      target.r.push(delta.requests);
      target.b.push(delta.bytes);
      target.m.push(run.memory);
      target.c.push(run.cpuMicros);
      target.f.push(run.firstRequestMs);
      if (label === "cold") rows = rowCount(run.result);
    }
    if (side === "addIn") {
      // A reopen: a new client (new memory tier) over the same persisted store.
      await store.flush();
      const reopened = {
        client: addInClient(wire, tiered(new PersistentCacheStore(disk.open()))),
        lang: "en" as const,
      };
      const before = snapshot(wire);
      await work(reopened, naive);
      reopenRequests = Math.max(reopenRequests, wireDelta(wire, before).requests);
    }
    tooMany += count429(sandbox);
  }
  const measureOf = (m: typeof cold): SideMeasure => ({
    requests: Math.max(...m.r),
    timeMs: median(m.t),
    bytes: Math.max(...m.b),
    memory: peak(m.m),
    cpuMicros: median(m.c),
    firstRequestMs: median(m.f),
    note: `median of ${SMALL_REPEATS} rounds on fresh sandboxes and clients: ${m.t.map((t) => Math.round(t)).join(", ")} ms`,
  });
  return { cold: measureOf(cold), warm: measureOf(warm), reopenRequests, rows, tooMany };
}

function rowCount(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  const rows = (value as { rows?: unknown } | null)?.rows;
  return Array.isArray(rows) ? rows.length : 0;
}

async function screenAndImport(facts: Facts, notes: string[]): Promise<WorkloadRow[]> {
  const screenQuery = { ...facts.screenQuery, limit: SCREENING_PAGE_MAX };
  const importValues = { code: facts.importCode, from: facts.importFrom, to: facts.lastTradingDay };
  const addInWork = {
    Screen: (ctx: { client: KaishaClient; lang: "en" }) =>
      fetchScreeningTable(screenQuery, new Map(), ctx),
    Import: (ctx: { client: KaishaClient; lang: "en" }) =>
      fetchDatasetTable("prices", importValues, ctx),
  };
  const naiveWork = {
    Screen: (naive: ReturnType<typeof createNaiveClient>) => naive.screenAll(facts.screenQuery),
    Import: (naive: ReturnType<typeof createNaiveClient>) =>
      naive.importPrices(facts.importCode, facts.importFrom, facts.lastTradingDay),
  };

  // One unmetered run of both sides first, so no measured round pays for JIT compilation.
  {
    const warmUp = meteredSandbox(0);
    const disk = new StorageStandIn(noWait, 0);
    const ctx = {
      client: addInClient(warmUp.wire, tiered(new PersistentCacheStore(disk.open()))),
      lang: "en" as const,
    };
    const naive = createNaiveClient({
      baseUrl: BASE_URL,
      apiKey: DEMO_API_KEY,
      fetch: warmUp.wire.fetch,
      ratePerMinute: 0,
    });
    for (const kind of ["Screen", "Import"] as const) {
      await addInWork[kind](ctx);
      await naiveWork[kind](naive);
    }
  }

  // The sandbox's own work is on the critical path too: an ideal client still waits for it.
  const service = {
    Screen: await serviceTimeMs("/screening", { ...facts.screenQuery, limit: SCREENING_PAGE_MAX }),
    Import: await serviceTimeMs(`/securities/${facts.importCode}/prices`, {
      from: facts.importFrom,
      to: facts.lastTradingDay,
      limit: PRICES_PAGE_MAX,
    }),
  };
  const floors = {
    Screen: pagesFor(facts.screenTotal, SCREENING_PAGE_MAX),
    Import: pagesFor(facts.importRows, PRICES_PAGE_MAX),
  };

  const rows: WorkloadRow[] = [];
  let tooMany = { addIn: 0, naive: 0 };
  for (const kind of ["Screen", "Import"] as const) {
    log(`${kind} (add-in and naive, ${SMALL_REPEATS} rounds each)...`);
    const addIn = await smallWorkload("addIn", (ctx) => addInWork[kind](ctx));
    const naive = await smallWorkload("naive", (_ctx, client) => naiveWork[kind](client));
    log(
      `  add-in cold ${addIn.cold.requests} requests ${Math.round(addIn.cold.timeMs)} ms; warm ${addIn.warm.requests} requests`,
    );
    tooMany = { addIn: tooMany.addIn + addIn.tooMany, naive: tooMany.naive + naive.tooMany };
    const floorRequests = floors[kind];
    rows.push(
      {
        name: `${kind} cold`,
        addIn: addIn.cold,
        naive: naive.cold,
        floorRequests,
        floorTimeMs: coldFloorMs(floorRequests, floorRequests, LIMITS) + service[kind],
        remarks: [`rows: add-in ${addIn.rows}, naive ${naive.rows}`],
        addInRows: addIn.rows,
        addInStatus429: addIn.tooMany,
        addInReopenRequests: addIn.reopenRequests,
      },
      {
        name: `${kind} warm`,
        addIn: addIn.warm,
        naive: naive.warm,
        floorRequests: 0,
        floorTimeMs: 0,
        remarks: [],
        addInRows: addIn.rows,
        addInStatus429: addIn.tooMany,
      },
    );
  }
  for (const row of rows.filter((r) => r.name.endsWith("cold"))) {
    const over = row.addIn.timeMs - row.floorTimeMs;
    if (row.addIn.timeMs > 1.2 * row.floorTimeMs) {
      notes.push(
        `${row.name} misses 1.2 × floor by ${Math.round(row.addIn.timeMs - 1.2 * row.floorTimeMs)} ms: the add-in spends ${Math.round(over)} ms (${Math.round(over / Math.max(1, row.floorRequests))} ms a page) beyond latency and sandbox service time, in this process's CPU: parsing, freezing and caching each page, then shaping the table. On a floor this small that is the whole margin; the medians vary by a few ms between runs on this shared 2-core machine.`,
      );
    }
  }
  const screenService = service.Screen;
  const importService = service.Import;
  notes.push(
    `Screen: ${JSON.stringify(facts.screenQuery)}, all pages: ${facts.screenTotal} securities; the add-in asks ${SCREENING_PAGE_MAX} a page (task pane fetchScreeningTable), the naive baseline the API default ${SCREENING_PAGE_DEFAULT}.`,
    `Import: ${facts.importCode} daily prices ${facts.importFrom} to ${facts.lastTradingDay} (${facts.importRows} trading days) through the task pane's fetchDatasetTable("prices") (client.paginate, ${PRICES_PAGE_MAX} a page); naive: the API default ${PRICES_PAGE_DEFAULT} a page.`,
    `Screen/Import: after one unmetered warm-up of both sides (JIT compilation is not counted), ${SMALL_REPEATS} rounds per side, each on a fresh sandbox and client (empty cache) with a cold then a warm run; times are medians.`,
    `Screen/Import time floors = pages × ${LIMITS.latencyMs} ms latency + the sandbox's own service time for those pages, measured on an idle zero-latency sandbox (best of 3): screen ${Math.round(screenService)} ms, import ${Math.round(importService)} ms.`,
    `Screen/Import 429s: add-in ${tooMany.addIn}, naive ${tooMany.naive}.`,
  );
  for (const row of rows.filter((r) => r.name.endsWith("cold"))) {
    const kind = row.name.replace(/ cold$/, "");
    const warm = rows.find((r) => r.name === `${kind} warm`);
    const cells = Math.max(1, row.addInRows ?? 1);
    const perCell = (us: number | undefined): string => ((us ?? Number.NaN) / cells).toFixed(1);
    notes.push(
      `${kind} (add-in, ${cells} rows as cells): CPU per cell cold ${perCell(row.addIn.cpuMicros)} / warm ${perCell(warm?.addIn.cpuMicros)} µs; first request ${Math.round(row.addIn.firstRequestMs ?? Number.NaN)} ms; ${row.addInStatus429 ?? 0} × 429; heap growth cold ${((row.addIn.memory.heapUsedPeak - row.addIn.memory.heapUsedBefore) / 1048576).toFixed(1)} MB; requests cold ${row.addIn.requests}, warm ${warm?.addIn.requests ?? "?"}, after a reopen ${row.addInReopenRequests ?? "?"}.`,
    );
  }
  return rows;
}

/**
 * The sandbox's service time for every page of a cursor walk, requests sent back to back to an idle,
 * zero-latency, unlimited sandbox: the best of three walks.
 */
async function serviceTimeMs(
  path: string,
  query: Record<string, string | number>,
): Promise<number> {
  const { app } = createApp({ ratePerMinute: 0 });
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3; round += 1) {
    let total = 0;
    let cursor: string | undefined;
    do {
      const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
      if (cursor !== undefined) search.set("cursor", cursor);
      const start = performance.now();
      const response = await app.request(`${BASE_URL}${path}?${search.toString()}`, {
        headers: { Authorization: `Bearer ${DEMO_API_KEY}` },
      });
      const body = (await response.json()) as { next_cursor?: unknown };
      total += performance.now() - start;
      cursor =
        typeof body.next_cursor === "string" && body.next_cursor !== ""
          ? body.next_cursor
          : undefined;
    } while (cursor !== undefined);
    best = Math.min(best, total);
  }
  return best;
}

/**
 * FINANCIALS spills from a warm 30-year quarterly answer with every item, measured two ways: tables
 * built for the first time (each call a combination of years, layout, unit and order not asked
 * before, so nothing of the table itself is kept yet; the answer's own indexes are warm, as in a
 * model with many spills of one company), and the same spill recalculated (defineTable gives back
 * the table it kept for the same answer and arguments: what a warm recalculation costs).
 */
async function spillThroughput(code: string): Promise<BenchReport["spill"]> {
  const { app } = createApp({ ratePerMinute: 0 });
  const wire = inProcessFetch(app, { keepUrls: false });
  const client = createClient({
    baseUrl: BASE_URL,
    apiKey: DEMO_API_KEY,
    fetch: wire.fetch,
    ratePerMinute: 0,
    lang: "en",
  });
  setClientForTesting(client, { lang: "en" });
  const invocation = {} as CustomFunctions.CancelableInvocation;
  const call = (years: number, layout: string, unit: string, order: string): unknown[][] => {
    const result = FINANCIALS(
      code,
      [["*"]],
      "quarterly",
      years,
      null,
      unit,
      layout,
      null,
      order,
      invocation,
    );
    if (result instanceof Promise)
      throw new Error("spill bench: a warm FINANCIALS call gave a promise");
    return result as unknown[][];
  };
  // The answer fetched once (the full path), then every call below is warm.
  const first = (await FINANCIALS(
    code,
    [["*"]],
    "quarterly",
    30,
    null,
    null,
    null,
    null,
    null,
    invocation,
  )) as unknown[][];
  const cells = first.length * (first[0]?.length ?? 0);
  const combinations: Array<[number, string, string, string]> = [];
  for (const layout of ["items_down", "periods_down"])
    for (const unit of ["jpy", "thousand_jpy", "million_jpy", "hundred_million_jpy"])
      for (const order of ["asc", "desc"])
        for (let years = 1; years <= 30; years += 1)
          combinations.push([years, layout, unit, order]);
  let built = 0;
  let builtCells = 0;
  const buildStart = performance.now();
  for (const [years, layout, unit, order] of combinations) {
    const table = call(years, layout, unit, order);
    built += 1;
    builtCells += table.length * (table[0]?.length ?? 0);
  }
  const buildMs = performance.now() - buildStart;
  let recalcs = 0;
  const recalcStart = performance.now();
  while (performance.now() - recalcStart < 1000) {
    call(30, "items_down", "jpy", "asc");
    recalcs += 1;
  }
  const recalcMs = performance.now() - recalcStart;
  setClientForTesting(undefined);
  return {
    cells,
    tablesBuilt: built,
    builtCellsPerSecond: builtCells / (buildMs / 1000),
    microsPerBuild: (buildMs * 1000) / built,
    recalcs,
    microsPerRecalc: (recalcMs * 1000) / recalcs,
    note: `FINANCIALS(${code}, "*", "quarterly", 30): ${first.length} rows × ${first[0]?.length ?? 0} columns; ${built} first builds (years 1-30 × 2 layouts × 4 units × 2 orders) from the answer in memory; ${wire.counters.requests} request in all.`,
  };
}

function targets(
  rows: readonly WorkloadRow[],
  scale: readonly ScaleResult[],
  fair: ReadonlyMap<string, BaselineResult>,
  price: PriceColumnResult,
  alias: AliasResult,
  bundles: BenchReport["bundles"],
): Target[] {
  const out: Target[] = [];
  for (const m of scale) {
    const f = fair.get(m.name);
    out.push(
      {
        name: `${m.name} cold: requests = floor, 0 × 429`,
        pass: m.requests === m.floor && m.status429 === 0,
        detail: `${m.requests} sent, floor ${m.floor}, ${m.status429} × 429 (${m.coldVirtualMinutes.toFixed(1)} simulated min at ${m.ratePerMinute}/min, daily cap ${m.dailyLimit})`,
      },
      {
        name: `${m.name} warm recalculation: 0 requests`,
        pass: m.warmRequests.every((r) => r === 0),
        detail: `${m.warmRequests.join(", ")} requests in 3 runs`,
      },
      {
        name: `${m.name} reopen: 0 requests`,
        pass: m.reopenRequests === 0,
        detail: `${m.reopenRequests} requests`,
      },
      ...reopenFloorTargets(m),
      {
        name: `${m.name} warm CPU <= 10 µs per cell`,
        pass: m.cpuMicrosPerCell <= 10,
        detail: `${m.cpuMicrosPerCell.toFixed(1)} µs (median of ${m.warmCpuMicrosPerCell.map((c) => c.toFixed(1)).join(", ")})`,
      },
      ...warmGateTargets(m),
      {
        name: `${m.name} heap growth (cold, warm, reopen) <= ${heapGrowthLimitMB(m)} MB`,
        pass: phasesHeapGrowthMB(m) <= heapGrowthLimitMB(m),
        detail: `${phasesHeapGrowthMB(m).toFixed(0)} MB, the largest peak of ${m.phaseHeapMB.map((p) => `${p.phase} ${p.peakGrowth.toFixed(0)}`).join(", ")}; the whole run (new-process save, mornings, week, season and filing-window week too, garbage included): ${m.heapGrowthMB.toFixed(0)} MB (peak ${m.heapPeakMB.toFixed(0)} MB)`,
      },
      {
        name: `${m.name} first request <= 0.5 s after the recalculation starts`,
        pass: m.firstRequestMs <= 500,
        detail: `${Math.round(m.firstRequestMs)} ms`,
      },
    );
    if (f !== undefined)
      out.push({
        name: `${m.name}: add-in requests <= 0.25 × the per-cell baseline (each cell's own years, identical URLs once)`,
        pass: m.requests <= 0.25 * f.requests,
        detail: `${m.requests} vs ${f.requests} (${(m.requests / f.requests).toFixed(3)}×)`,
      });
  }
  out.push(
    {
      name: "Price column: 250 trading days <= 2 requests",
      pass: price.columnRequests <= 2 && price.errors === 0 && price.mismatches === 0,
      detail: `${price.columnRequests} requests, ${price.errors} errors, ${price.mismatches} wrong closes`,
    },
    {
      name: "Price column after a PRICES spill: <= 2 requests in all",
      pass: price.spillThenColumnRequests <= 2,
      detail: `${price.spillThenColumnRequests} requests (spill and column)`,
    },
    {
      name: 'Aliases: 7203, "7203", 72030 and the EDINET code share 1 request',
      pass: alias.requests === 1,
      detail: `${alias.requests} requests (${alias.detail}); values ${alias.values.map((v) => JSON.stringify(v)).join(", ")}`,
    },
  );
  for (const name of ["Screen cold", "Import cold"]) {
    const row = rows.find((r) => r.name === name);
    if (row === undefined) continue;
    out.push({
      name: `${name}: requests = floor`,
      pass: row.addIn.requests === row.floorRequests,
      detail: `${row.addIn.requests} sent, floor ${row.floorRequests}`,
    });
  }
  for (const name of ["Screen warm", "Import warm"]) {
    const row = rows.find((r) => r.name === name);
    if (row === undefined) continue;
    out.push({
      name: `${name}: no request`,
      pass: row.addIn.requests === 0,
      detail: `${row.addIn.requests} sent`,
    });
  }
  out.push(runtimePageTarget(bundles));
  return out;
}

/**
 * The real-clock cold builds (bench/realclock-run.ts): Model 50 at 10 times the live pace, Model
 * 500 at 20 times (a few minutes of wall time), each with one busy phase of 2 s at the live limit.
 */
async function realClockRuns(facts: Facts, taken: ReadonlySet<string>): Promise<RealClockResult[]> {
  const out: RealClockResult[] = [];
  for (const count of MODELS.filter((m) => m === 50 || m === 500)) {
    log(`Model ${count} cold build on a real clock (shortened)...`);
    const speed = count === 50 ? 10 : 20;
    out.push(await realClockModel(facts, taken, count, speed, { atMs: 3_000, ms: 2_000 }, log));
    collectGarbage();
  }
  return out;
}

/**
 * BENCH_ONLY=realclock: only the real-clock cold builds; their fields are merged into
 * results.json's Model entries and their section replaces RESULTS.md's (the rest of both stay
 * from the last full run).
 */
async function realClockOnly(): Promise<void> {
  const facts = await probe(COMPANIES);
  forgetDataset();
  const results = await realClockRuns(facts, new Set(facts.listedCodes));
  for (const t of realClockTargets(results))
    log(`${t.pass ? "PASS" : "FAIL"}  ${t.name}: ${t.detail}`);
  const jsonPath = join(__dirname, "results.json");
  const entries = JSON.parse(readFileSync(jsonPath, "utf8")) as object[];
  writeFileSync(jsonPath, `${JSON.stringify(withRealClock(entries, results), null, 2)}\n`);
  const mdPath = join(__dirname, "RESULTS.md");
  writeFileSync(mdPath, withSection(readFileSync(mdPath, "utf8"), realClockSection(results, true)));
  log("Wrote the real-clock runs into bench/RESULTS.md and bench/results.json");
}

const REAL_CLOCK_HEADING = "## Cold build on a real clock";

/** The real-clock section, saying when the rest of RESULTS.md is from an earlier run. */
function realClockSection(results: readonly RealClockResult[], alone: boolean): string {
  const md = realClockMarkdown(results, new Date().toISOString());
  return alone
    ? `${md}\nThis section alone was rerun (BENCH_ONLY=realclock); everything else in this file is from the run of record dated under Machine.\n`
    : md;
}

/** `markdown` with its real-clock section replaced by (or, without one, ended with) `section`. */
function withSection(markdown: string, section: string): string {
  const at = markdown.indexOf(REAL_CLOCK_HEADING);
  if (at < 0) return `${markdown.trimEnd()}\n\n${section}`;
  const next = markdown.indexOf("\n## ", at + REAL_CLOCK_HEADING.length);
  return `${markdown.slice(0, at)}${section}${next < 0 ? "" : markdown.slice(next)}`;
}

async function main(): Promise<void> {
  if (process.env["BENCH_ONLY"] === "realclock") return realClockOnly();
  // Looking into one part, nothing written into bench/: the new-process reopen alone (its CPU
  // profile with REOPEN_CPU_PROF, bench/reopen-only.ts), or one Model's warm runs profiled
  // (bench/profile-warm.ts).
  if (process.env["BENCH_ONLY"] === "reopen") return (await import("./reopen-only")).reopenOnly();
  if (process.env["BENCH_ONLY"] === "browser")
    return (await import("./browser-only")).browserOnly();
  if (process.env["BENCH_ONLY"] === "profile-warm")
    return (await import("./profile-warm")).profileWarm();
  modelBrowserCompression();
  const settings = {
    clock:
      "Model N, Price column and Aliases run on one virtual clock (bench/virtual-clock.ts) that drives the pacer, the retry sleeps and 429 pauses, the storage stand-in and the sandbox's rate limiter: the limits hold exactly in simulated time while CPU and heap are real. Screen and Import run in real time.",
    sandbox:
      "Model N: createApp() on a worker thread (bench/worker-sandbox.ts), so the API's own work and data stay out of the add-in's measured heap (the virtual clock holds while the worker answers); everything else: in-process createApp() through app.request (no socket)",
    "per-minute limit (sandbox and add-in pacer)": `${LIVE.ratePerMinute} requests per rolling minute`,
    "daily limit (sandbox)": `${LIVE.dailyLimit.toLocaleString("en-US")} per JST day, a fresh sandbox per workload`,
    "latency per request": `${LIVE.latencyMs} ms (simulated for the Models, real for Screen/Import)`,
    "storage stand-in": `bench/storage-standin.ts: V8 structured-clone serialization, ${LIVE.storageLatencyMs} ms (simulated) per call`,
    compression:
      "bench/native-compression.ts: node:zlib called directly stands in for the browser's native CompressionStream/DecompressionStream (Node's are script adapters over the same zlib); the new-process reopen is also run through Node's own streams and reported beside it (BENCH_NODE_STREAMS=1 runs everything so)",
    code: "the add-in's lazily loaded code (its chunks: the send chunk, the answer check, the persistent tier) is loaded before the measured cold build, new-process reopen and real-clock build (bench/code-warm-up.ts): ts-node compiles a module on first use, which a browser's chunk load does not",
    "cell delivery":
      "cells start 1,000 per macrotask: a model of Excel handing the runtime its invocations in batches (the real batch size is not documented); time to first request depends on it",
    "naive baseline":
      "bench/naive-client.ts: one request per cell, no cache, no coalescing, API default page sizes",
    "per-cell baseline":
      "bench/naive-client.ts with fair: true: one request per cell asking that cell's own years, identical URLs asked once, largest pages (what a user would write); the headline states the add-in's requests over it and over the naive one",
    override:
      "BENCH_MODELS (e.g. 50,200), BENCH_BROWSER (Models also run in Chromium, e.g. 50 or none), BENCH_LATENCY_MS (Screen/Import), BENCH_ONLY=realclock (only the real-clock cold builds, merged into the last run's files), BENCH_ONLY=reopen, browser or profile-warm (one part alone for looking into it, nothing written: bench/reopen-only.ts, bench/browser-only.ts, bench/profile-warm.ts)",
  };
  log("Kaisha for Excel benchmark");
  for (const [k, v] of Object.entries(settings)) log(`  ${k}: ${v}`);

  // The Chromium runs' build first, before anything is measured.
  if (BROWSER_MODELS.size > 0) buildForChromium(log);
  const facts = await probe(COMPANIES);
  // The Models' sandbox runs on a worker; its dataset leaves the measured heap (see forgetDataset).
  forgetDataset();
  const taken = new Set(facts.listedCodes);
  const notes: string[] = [];
  const scale: ScaleResult[] = [];
  const fair = new Map<string, BaselineResult>();
  const naive = new Map<string, BaselineResult>();
  for (const count of MODELS) {
    const browser = BROWSER_MODELS.has(count);
    const result = await runModel(facts, taken, count, log, { browser });
    scale.push(result);
    const companies = aliasCompanies(facts.codes, taken, count);
    const cells = scaleCells(
      companies.map((c) => ({ code: c.code, base: c.base, latestYear: 2025 })),
      facts.pricesFrom5y,
      facts.lastTradingDay,
    );
    log(`  exact-years per-cell baseline (limit off, counted)...`);
    fair.set(result.name, await runBaseline(cells, companies, true));
    forgetDataset();
    const rows = (code: string): number =>
      facts.priceRows5y.get(companies.find((c) => c.code === code)?.base ?? code) ?? 0;
    naive.set(result.name, { requests: naiveCount(cells, rows), measured: false });
    log(
      `  exact years ${fair.get(result.name)?.requests}, naive ${naive.get(result.name)?.requests} requests`,
    );
    collectGarbage();
  }

  const realClock = await realClockRuns(facts, taken);

  log("Price column...");
  const price = await priceColumn(facts.importCode, facts.recentCloses);
  log(`  ${price.columnRequests} requests; after a spill ${price.spillThenColumnRequests} in all`);
  log("Aliases...");
  const aliasCode = facts.codes.includes("7203") ? "7203" : (facts.codes[0] as string);
  const alias = await aliases(aliasCode, facts.edinetOf.get(aliasCode) ?? "");
  log(`  ${alias.requests} requests`);

  const rows = await screenAndImport(facts, notes);
  log("Spill throughput...");
  const spill = await spillThroughput(facts.importCode);
  log("Bundles...");
  const bundles = measureBundles(ROOT);
  const report: BenchReport = {
    settings,
    rows,
    spill,
    bundles,
    targets: [
      ...targets(rows, scale, fair, price, alias, bundles),
      ...scale.flatMap(morningTargets),
      ...realClockTargets(realClock),
    ],
    notes: [...scaleNotes(scale, fair, naive, price, alias), ...notes],
  };

  log("");
  log(scaleTable(scale, fair, naive));
  log("");
  log(headlineTable(rows));
  log("");
  for (const t of report.targets) log(`${t.pass ? "PASS" : "FAIL"}  ${t.name}: ${t.detail}`);
  writeFileSync(
    join(__dirname, "RESULTS.md"),
    withSection(
      resultsMarkdown(report, scaleTable(scale, fair, naive)),
      realClockSection(realClock, false),
    ),
  );
  writeFileSync(
    join(__dirname, "results.json"),
    `${JSON.stringify(withRealClock(resultsJson(scale, fair, naive, price, alias, rows), realClock), null, 2)}\n`,
  );
  log("Wrote bench/RESULTS.md and bench/results.json");
}

/**
 * The warm gates for Model 500 (the workload they are stated for): warm CPU <= 6 µs (moving
 * recalculation into functions/cells must not cost speed) and the Node morning target
 * (<= 4 µs, beside Chromium's <= 6 in morning-targets.ts). Both on the same measure as the 10 µs
 * target above: process CPU per cell, median of three warm recalculations.
 */
function warmGateTargets(m: ScaleResult): Target[] {
  if (m.companies !== 500) return [];
  const detail = `${m.cpuMicrosPerCell.toFixed(1)} µs (median of ${m.warmCpuMicrosPerCell.map((c) => c.toFixed(1)).join(", ")}; process CPU, both threads)`;
  return [
    {
      name: `${m.name} warm CPU <= 6 µs per cell (the warm gate)`,
      pass: m.cpuMicrosPerCell <= 6,
      detail,
    },
    {
      name: `${m.name}: warm recalculation in Node <= 4 µs per cell`,
      pass: m.cpuMicrosPerCell <= 4,
      detail,
    },
  ];
}

/**
 * The e2e build (sandbox defaults, the preview page) the Chromium runs open, in a process of its
 * own: webpack in this one left hundreds of MB behind that were freed during the first Model (its
 * warm CPU and heap figures then measured webpack's garbage, not the add-in's).
 */
function buildForChromium(log: (line: string) => void): void {
  log("Building the bundle for Chromium (test/e2e/global-setup.ts; skipped when up to date)...");
  const script = join(__dirname, "build-for-chromium.ts");
  const build = spawnSync(process.execPath, [require.resolve("ts-node/dist/bin"), script], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (build.status !== 0) throw new Error(`the e2e build failed (exit ${build.status})`);
}

runScript(main);
