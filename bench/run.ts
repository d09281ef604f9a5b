// `npm run bench`: the add-in against a naive baseline on the in-process sandbox; writes bench/RESULTS.md.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import * as TYPED from "../functions/index";

/** FINANCIALS as Excel calls it: any value for any argument (custom-enum types are suggestions). */
const FINANCIALS = TYPED.FINANCIALS as unknown as (...args: unknown[]) => Promise<unknown>;
import { createApp } from "../sandbox/app";
import { DEMO_API_KEY } from "../sandbox/demo-key";
import { createAddinCacheStore, OfficeStorageCacheStore } from "../functions/office-storage";
import { createClient, MemoryCacheStore, type CacheStore, type KaishaClient } from "../src/client";
import { setClientForTesting } from "../src/session";
import { fetchDatasetTable, fetchScreeningTable } from "../taskpane/state/datasets";
import { FUNCTIONS_GZIP_TARGET_BYTES, measureBundles } from "./bundle-sizes";
import { FileStorage } from "./file-storage";
import { coldFloorMs, pagesFor, type LimitSettings } from "./floors";
import { inProcessFetch, type InProcessFetch } from "./in-process-fetch";
import { withMemorySampling, type MemoryPeak } from "./memory-sampler";
import { createNaiveClient } from "./naive-client";
import {
  addInPricePages,
  expectedFinancial,
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
import { addInSide, cellErrorText, naiveSide } from "./sides";
import {
  cellCount,
  modelCells,
  MODEL_ITEMS,
  MODEL_YEARS,
  recalculate,
  type ModelCells,
  type RecalcOutcome,
} from "./workloads";

const ROOT = join(__dirname, "..");
const BASE_URL = "http://sandbox.bench/v1";
const COMPANIES = 50;

/**
 * Latency and the rolling-minute limit. The pacer and the sandbox both allow `rate` requests at
 * once, so the limit only binds when a workload needs more than `rate` requests: 200/min binds the
 * Model (about 250 requests) and still keeps the run near two minutes.
 */
const LIMITS: LimitSettings = {
  latencyMs: Number(process.env["BENCH_LATENCY_MS"] ?? 20),
  ratePerMinute: Number(process.env["BENCH_RATE_PER_MINUTE"] ?? 200),
};

interface Timed<T> {
  result: T;
  timeMs: number;
  memory: MemoryPeak;
}

async function measure<T>(work: () => Promise<T>): Promise<Timed<T>> {
  const { result, memory } = await withMemorySampling(async () => {
    const start = performance.now();
    const value = await work();
    return { value, timeMs: performance.now() - start };
  });
  return { result: result.value, timeMs: result.timeMs, memory };
}

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** A sandbox with the benchmark's latency and limit, and a metered fetch over it. */
function meteredSandbox(ratePerMinute = LIMITS.ratePerMinute): {
  sandbox: ReturnType<typeof createApp>;
  wire: InProcessFetch;
} {
  const sandbox = createApp({ latencyMs: LIMITS.latencyMs, ratePerMinute, dailyLimit: 1_000_000 });
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

/** Requests the sandbox answered between two log positions, by endpoint and status. */
function breakdown(
  sandbox: ReturnType<typeof createApp>,
  from: number,
  to = sandbox.requestLog.length,
): string {
  const counts = new Map<string, number>();
  for (const entry of sandbox.requestLog.slice(from, to)) {
    const endpoint = entry.path
      .replace(/^\/v1/, "")
      .replace(/\/securities\/[^/]+\//, "/securities/{code}/");
    const key = `${endpoint} ${entry.status}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${k} × ${n}`).join(", ") || "none";
}

function outcomeRemarks(label: string, outcome: RecalcOutcome): string[] {
  const out = [
    `${label}: ${outcome.cells.toLocaleString("en-US")} cells, ${outcome.values.toLocaleString("en-US")} values, ${outcome.errors} errors, ${outcome.wrong} wrong FINANCIAL values`,
  ];
  if (outcome.errorSamples.length > 0)
    out.push(`${label} error samples: ${outcome.errorSamples.map((s) => `"${s}"`).join("; ")}`);
  return out;
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

async function modelWorkloads(
  facts: Facts,
  cells: ModelCells,
  notes: string[],
): Promise<WorkloadRow[]> {
  const oracle = (code: string, item: string, relative: number, value: unknown): boolean => {
    const expected = expectedFinancial(facts, code, item, relative);
    return expected === null ? value === "" || value === null : value === expected;
  };
  const pricePages = addInPricePages(facts);
  const floorRequests = facts.codes.length * 2 + pricePages.reduce((a, b) => a + b, 0);
  const depth = Math.max(...pricePages);
  const floorTimeMs = coldFloorMs(floorRequests, depth, LIMITS);

  // --- add-in: cold, warm, restart over the persisted store ---
  // The add-in's own persistent store (functions/office-storage.ts, bounded in bytes) over a file
  // standing in for OfficeRuntime.storage: what startFunctions() gives the shared client in Excel.
  const dir = mkdtempSync(join(tmpdir(), "kaisha-bench-"));
  const storePath = join(dir, "office-runtime-storage.json");
  const { sandbox, wire } = meteredSandbox();
  const storage = new FileStorage(storePath);
  // Exactly what startFunctions() gives the shared client in Excel: a memory tier in front of the
  // compressed, byte-bounded persistent store on OfficeRuntime.storage.
  const store = createAddinCacheStore(storage);
  const persistent = store.persistent as OfficeStorageCacheStore;
  const client = addInClient(wire, store);
  setClientForTesting(client, { lang: "en" });

  log(`Model cold (add-in): ${cellCount(cells).toLocaleString("en-US")} cells started at once...`);
  const cold = await measure(() => recalculate(cells, addInSide, cellErrorText, oracle));
  const coldWire = snapshot(wire);
  const coldStats = client.stats();
  const cold429 = count429(sandbox);
  const coldLog = breakdown(sandbox, 0);
  await store.flush(); // persistent writes run in the background
  const keptAfterCold = (await persistent.keys()).length;
  const totalAnswers = (await store.memory.keys()).length;
  const memoryBytes = (store.memory as MemoryCacheStore).bytes;
  log(`  ${coldWire.requests} requests, ${Math.round(cold.timeMs)} ms`);

  log("Model warm recalculation (add-in)...");
  const logMark = sandbox.requestLog.length;
  const warm = await measure(() => recalculate(cells, addInSide, cellErrorText, oracle));
  const warmWire = wireDelta(wire, coldWire);
  const warmLog = breakdown(sandbox, logMark);
  log(`  ${warmWire.requests} requests, ${Math.round(warm.timeMs)} ms`);

  await store.flush();
  storage.flush();
  const persistedBytes = storage.size;
  const wire2 = inProcessFetch(sandbox.app, { keepUrls: false });
  const reopened = new FileStorage(storePath);
  const restarted = addInClient(wire2, createAddinCacheStore(reopened));
  setClientForTesting(restarted, { lang: "en" });
  log("Model after restart over the persisted cache (add-in)...");
  const restartMark = sandbox.requestLog.length;
  const restart = await measure(() => recalculate(cells, addInSide, cellErrorText, oracle));
  const restartLog = breakdown(sandbox, restartMark);
  const restartReads = reopened.reads;
  log(`  ${wire2.counters.requests} requests, ${Math.round(restart.timeMs)} ms`);
  setClientForTesting(undefined);
  rmSync(dir, { recursive: true, force: true });

  // --- naive baseline ---
  // Its request count is exact; running 15,000+ requests under the same rolling-minute limit
  // would take over an hour, so it runs once with the limit off (same latency) for bytes, memory
  // and CPU time, and its time under the limit is reported as the limit's floor for that many
  // requests (a lower bound, in the baseline's favour).
  const naiveApp = meteredSandbox(0);
  const naive = createNaiveClient({
    baseUrl: BASE_URL,
    apiKey: DEMO_API_KEY,
    fetch: naiveApp.wire.fetch,
    ratePerMinute: 0,
  });
  log("Model (naive baseline, limit off; time projected under the limit)...");
  const naiveRun = await measure(() => recalculate(cells, naiveSide(naive), cellErrorText, oracle));
  const naiveDepth = Math.max(
    ...facts.codes.map((c) => pagesFor(facts.priceRows5y.get(c) ?? 0, PRICES_PAGE_DEFAULT)),
  );
  const naiveFloor = coldFloorMs(naiveApp.wire.counters.requests, naiveDepth, LIMITS);
  const naiveTime = Math.max(naiveRun.timeMs, naiveFloor);
  log(
    `  ${naiveApp.wire.counters.requests} requests, ${Math.round(naiveRun.timeMs)} ms with the limit off`,
  );
  const naiveNote = `${naiveApp.wire.counters.requests.toLocaleString("en-US")} requests measured with the limit off in ${Math.round(naiveRun.timeMs).toLocaleString("en-US")} ms; time shown = max(that, the limit's floor for those requests) = a lower bound`;
  const naiveCold: SideMeasure = {
    requests: naiveApp.wire.counters.requests,
    timeMs: naiveTime,
    bytes: naiveApp.wire.counters.bytes,
    memory: naiveRun.memory,
    note: naiveNote,
  };
  const naiveRepeat: SideMeasure = {
    ...naiveCold,
    note: "no cache: every recalculation repeats the cold run (numbers of the cold run, not re-run)",
  };

  notes.push(
    `Model: ${facts.codes.length} operating companies (of ${facts.securitiesListed} listed securities) × ${MODEL_ITEMS.length} items × ${MODEL_YEARS} fiscal years = ${cells.financial.length.toLocaleString("en-US")} FINANCIAL cells, plus ${cells.valuation.length} VALUATION and ${cells.prices.length} PRICES spills (${facts.pricesFrom5y} to ${facts.lastTradingDay}).`,
    `Model floor: ${facts.codes.length} /financials (one widest window per company) + ${facts.codes.length} /valuations + ${pricePages.reduce((a, b) => a + b, 0)} price pages at ${PRICES_PAGE_MAX} rows = ${floorRequests} requests; longest cursor chain ${depth} pages.`,
    `Cache: createAddinCacheStore() as in Excel (functions/office-storage.ts: memory tier + compressed OfficeStorageCacheStore bounded at ${(persistent.maxBytes / 1048576).toFixed(0)} MB) over bench/file-storage.ts standing in for OfficeRuntime.storage; ${(persistedBytes / 1048576).toFixed(1)} M characters persisted after the warm run.`,
  );
  // Why targets fail, read from this run's numbers (each only when it happened).
  if (cold429 > 0) {
    notes.push(
      `Model cold met ${cold429} × 429 from the sandbox, each retried after Retry-After (client stats: ${coldStats.retries} retries): the client's Pacer (src/client/pacer.ts) stamps a token when the request is sent, the sandbox counts it when it arrives (after the injected latency and the event-loop backlog of 15,000 cells), so at the end of the first minute the pacer releases tokens a little before the sandbox's window frees them. Stamping at response time, or keeping a margin of about a second, would remove these extra requests.`,
    );
  }
  if (restartReads > 2 * totalAnswers) {
    notes.push(
      `After the restart the ${cellCount(cells).toLocaleString("en-US")} cells read the persistent store ${restartReads.toLocaleString("en-US")} times for ${totalAnswers} answers (${Math.round(restart.timeMs)} ms, heap +${((restart.memory.heapUsedPeak - restart.memory.heapUsedBefore) / 1048576).toFixed(0)} MB, against ${Math.round(warm.timeMs)} ms warm): the memory tier starts empty, and cells that miss it at the same moment each read, decompress and parse the same entry, because cache reads are not shared the way in-flight requests are. Sharing one pending read per key (in TieredCacheStore.get or before the client's cache lookup) would make the first recalculation after opening a workbook cost one read per answer.`,
    );
  }
  if (keptAfterCold < totalAnswers) {
    notes.push(
      `The persistent store (${(persistent.maxBytes / 1048576).toFixed(0)} MB budget) kept ${keptAfterCold} of the ${totalAnswers} answers the Model needs, evicting the oldest: after a restart those are fetched again (${wire2.counters.requests} requests here).`,
    );
  }
  if (facts.codes.length < COMPANIES) {
    notes.push(
      `The dataset has only ${facts.codes.length} operating companies: the Model uses all of them instead of ${COMPANIES}.`,
    );
  }

  const coldRemarks = [
    ...outcomeRemarks("cells", cold.result),
    `client stats: ${JSON.stringify(coldStats)}`,
    `sandbox answered ${cold429} × 429 during the cold run`,
    `requests by endpoint and status: ${coldLog}`,
    `after the cold run: memory tier ${totalAnswers} answers (${(memoryBytes / 1048576).toFixed(1)} MB as received); persistent store ${keptAfterCold} answers in ${(persistent.bytes / 1048576).toFixed(1)} MB of ${(persistent.maxBytes / 1048576).toFixed(0)} MB (compressed)`,
  ];
  return [
    {
      name: "Model cold",
      addIn: {
        requests: coldWire.requests,
        timeMs: cold.timeMs,
        bytes: coldWire.bytes,
        memory: cold.memory,
      },
      naive: naiveCold,
      floorRequests,
      floorTimeMs,
      remarks: [...coldRemarks, ...outcomeRemarks("naive cells", naiveRun.result)],
    },
    {
      name: "Model warm recalc",
      addIn: {
        requests: warmWire.requests,
        timeMs: warm.timeMs,
        bytes: warmWire.bytes,
        memory: warm.memory,
      },
      naive: naiveRepeat,
      floorRequests: 0,
      floorTimeMs: 0,
      remarks: [
        ...outcomeRemarks("cells", warm.result),
        `requests by endpoint and status: ${warmLog}`,
      ],
    },
    {
      name: "Model after restart",
      addIn: {
        requests: wire2.counters.requests,
        timeMs: restart.timeMs,
        bytes: wire2.counters.bytes,
        memory: restart.memory,
      },
      naive: naiveRepeat,
      floorRequests: 0,
      floorTimeMs: 0,
      remarks: [
        ...outcomeRemarks("cells", restart.result),
        `persistent store reads (OfficeRuntime.storage getItem): ${restartReads.toLocaleString("en-US")}`,
        `requests by endpoint and status: ${restartLog}`,
      ],
    },
  ];
}

/** Rounds of the small workloads: each on a fresh sandbox and client; medians are reported. */
const SMALL_REPEATS = 5;

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
  const cold: { t: number[]; r: number[]; b: number[]; m: MemoryPeak[] } = {
    t: [],
    r: [],
    b: [],
    m: [],
  };
  const warm: { t: number[]; r: number[]; b: number[]; m: MemoryPeak[] } = {
    t: [],
    r: [],
    b: [],
    m: [],
  };
  let rows = 0;
  let tooMany = 0;
  for (let round = 0; round < SMALL_REPEATS; round += 1) {
    const { sandbox, wire } = meteredSandbox();
    // The task pane's shared client uses the same persistent store as the functions.
    const storage = new FileStorage(
      join(tmpdir(), `kaisha-bench-pane-${process.pid}-${round}.json`),
    );
    const ctx = {
      client: addInClient(wire, createAddinCacheStore(storage)),
      lang: "en" as const,
    };
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
      const run = await measure(() => work(ctx, naive));
      const delta = wireDelta(wire, before);
      target.t.push(run.timeMs);
      target.r.push(delta.requests);
      target.b.push(delta.bytes);
      target.m.push(run.memory);
      if (label === "cold") rows = rowCount(run.result);
    }
    tooMany += count429(sandbox);
  }
  const measureOf = (m: typeof cold): SideMeasure => ({
    requests: Math.max(...m.r),
    timeMs: median(m.t),
    bytes: Math.max(...m.b),
    memory: peak(m.m),
    note: `median of ${SMALL_REPEATS} rounds on fresh sandboxes and clients: ${m.t.map((t) => Math.round(t)).join(", ")} ms`,
  });
  return { cold: measureOf(cold), warm: measureOf(warm), rows, tooMany };
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
    const storage = new FileStorage(join(tmpdir(), `kaisha-bench-warmup-${process.pid}.json`));
    const ctx = {
      client: addInClient(warmUp.wire, createAddinCacheStore(storage)),
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
      },
      {
        name: `${kind} warm`,
        addIn: addIn.warm,
        naive: naive.warm,
        floorRequests: 0,
        floorTimeMs: 0,
        remarks: [],
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

/** Cells per second FINANCIALS shapes from a warm 30-year quarterly answer with every item. */
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
  const call = (): Promise<unknown> =>
    FINANCIALS(code, [["*"]], "quarterly", 30, null, null, null, null, null, invocation);
  const first = (await call()) as unknown[][];
  const cells = first.length * (first[0]?.length ?? 0);
  let iterations = 0;
  const start = performance.now();
  while (performance.now() - start < 2000) {
    await call();
    iterations += 1;
  }
  const elapsed = performance.now() - start;
  setClientForTesting(undefined);
  return {
    cells,
    iterations,
    cellsPerSecond: (cells * iterations) / (elapsed / 1000),
    note: `FINANCIALS(${code}, "*", "quarterly", 30): ${first.length} rows × ${first[0]?.length ?? 0} columns, answered from the warm cache (cache read + narrowing + shaping), ${wire.counters.requests} request in all.`,
  };
}

function targets(rows: readonly WorkloadRow[], bundles: BenchReport["bundles"]): Target[] {
  const out: Target[] = [];
  for (const name of ["Model cold", "Screen cold", "Import cold"]) {
    const row = rows.find((r) => r.name === name);
    if (row === undefined) continue;
    out.push({
      name: `${name}: requests = floor`,
      pass: row.addIn.requests === row.floorRequests,
      detail: `${row.addIn.requests} sent, floor ${row.floorRequests}`,
    });
  }
  for (const name of ["Model warm recalc", "Model after restart", "Screen warm", "Import warm"]) {
    const row = rows.find((r) => r.name === name);
    if (row === undefined) continue;
    out.push({
      name: `${name}: no request`,
      pass: row.addIn.requests === 0,
      detail: `${row.addIn.requests} sent`,
    });
  }
  for (const name of ["Model cold", "Screen cold", "Import cold"]) {
    const row = rows.find((r) => r.name === name);
    if (row === undefined) continue;
    const r = row.addIn.timeMs / row.floorTimeMs;
    out.push({
      name: `${name}: time <= 1.2 × floor`,
      pass: r <= 1.2,
      detail: `${Math.round(row.addIn.timeMs)} ms vs floor ${Math.round(row.floorTimeMs)} ms (${r.toFixed(2)}×)`,
    });
  }
  if (bundles.status === "built" && bundles.functions.length > 0) {
    const gzip = bundles.functions.reduce((a, f) => a + f.gzipBytes, 0);
    out.push({
      name: "functions bundle <= 150 KB gzip",
      pass: gzip <= FUNCTIONS_GZIP_TARGET_BYTES,
      detail: `${(gzip / 1024).toFixed(1)} KB gzip (${bundles.functions.map((f) => f.file).join(", ")})`,
    });
  } else {
    out.push({
      name: "functions bundle <= 150 KB gzip",
      pass: false,
      detail:
        bundles.status === "built"
          ? "no dist/functions*.js in the build"
          : `not built: ${bundles.note}`,
    });
  }
  return out;
}

async function main(): Promise<void> {
  const settings = {
    sandbox: "in-process createApp() through app.request (no socket)",
    "latency per request": `${LIMITS.latencyMs} ms (sandbox latencyMs)`,
    "per-minute limit (sandbox and add-in pacer)": `${LIMITS.ratePerMinute} requests per rolling minute`,
    "daily limit": "1,000,000 (not binding)",
    "naive baseline":
      "bench/naive-client.ts: one request per cell, no cache, no coalescing, API default page sizes",
    override: "BENCH_LATENCY_MS, BENCH_RATE_PER_MINUTE",
  };
  log("Kaisha for Excel benchmark");
  for (const [k, v] of Object.entries(settings)) log(`  ${k}: ${v}`);

  const facts = await probe(COMPANIES);
  const cells = modelCells(facts.codes, facts.pricesFrom5y, facts.lastTradingDay);
  const notes: string[] = [];
  const rows = [
    ...(await modelWorkloads(facts, cells, notes)),
    ...(await screenAndImport(facts, notes)),
  ];
  log("Spill throughput...");
  const spill = await spillThroughput(facts.importCode);
  log("Bundles...");
  const bundles = measureBundles(ROOT);
  const report: BenchReport = {
    settings,
    rows,
    spill,
    bundles,
    targets: targets(rows, bundles),
    notes,
  };

  log("");
  log(headlineTable(rows));
  log("");
  for (const t of report.targets) log(`${t.pass ? "PASS" : "FAIL"}  ${t.name}: ${t.detail}`);
  log(`Spill: ${Math.round(spill.cellsPerSecond).toLocaleString("en-US")} cells/s`);
  writeFileSync(join(__dirname, "RESULTS.md"), resultsMarkdown(report));
  log("Wrote bench/RESULTS.md");
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
