// Model N's cold build on a real clock (time-scaled), against the worker sandbox's limiter stamping arrivals, with latency jitter and a CPU-busy phase.

import { performance } from "node:perf_hooks";
import { SANDBOX_DEFAULT_NOW } from "../sandbox/data/model";
import { DEMO_API_KEY } from "../sandbox/demo-key";
import { createClient, MemoryCacheStore, defaultSleep, type Sleep } from "../src/client";
import { setClientForTesting } from "../src/session";
import { aliasCompanies } from "./company-aliases";
import type { Facts } from "./probe";
import { companyOf, handCells, scaleCells, scaleCompaniesOf, type ScaleCell } from "./scale-cells";
import { BASE_URL, LIVE } from "./live-client";
import { cellErrorText } from "./sides";
import { startWorkerSandbox } from "./worker-sandbox";
import { warmUpCode } from "./code-warm-up";

/** The sheet the run keeps on screen (bench/scale-cells.ts spreads companies over five sheets). */
const SHEET_ON_SCREEN = "Sheet 1";
/** Companies of the sheet on screen whose completion is timed: the first 50 by row, a screen's worth. */
const VISIBLE_COMPANIES = 50;

/** What one real-clock run measured; times in seconds at the live limit (real seconds × speed). */
export interface RealClockResult {
  name: string;
  companies: number;
  cells: number;
  /** How many times faster than the live limit the run's clocks went (60 a minute × speed). */
  speed: number;
  requests: number;
  firstValueSeconds: number;
  firstCompanyCompleteSeconds: number;
  /** Companies counted for `visibleSheetCompleteSeconds`: the sheet on screen's first 50. */
  visibleCompanies: number;
  visibleSheetCompleteSeconds: number;
  lastValueSeconds: number;
  jitter429: number;
  /** Cells whose value said the call gave up waiting ("Still waiting for the API"), at any time. */
  jitterGaveUpCells: number;
  /** Of those, cells still saying so at the end: left for a manual recalculation. */
  leftForManualCells: number;
  /** The same moments in real (wall) seconds from the start. */
  wallFirstCompanySeconds: number;
  /** Real seconds Excel took to hand the add-in every cell (the clocks ran at real speed until then). */
  handOverSeconds: number;
  wallVisibleSheetSeconds: number;
  /** Cells with any other error: the data gives no value (an LTM of a half-yearly item, …). */
  otherErrorCells: number;
  errorSamples: string[];
  wallSeconds: number;
  /** How long the event loop was blocked once, at the live limit (busyMs / speed real). */
  busyMs: number;
}

/** A seeded PRNG (mulberry32): the same jitter every run. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Model `count`'s cold build with every clock (pacer, 429 pauses, call deadlines, retry sleeps and
 * the sandbox's rolling minute) at real speed while Excel hands the cells over, then `speed` times
 * faster than real (the live limit of 60 a minute becomes 60 × speed a minute in real time, in the
 * same proportions), while the network and the CPU run in real time: each request arrives 2–40 ms
 * after it is sent (3% of them 150–400 ms) and is answered as late again, and `busy.atMs` real ms
 * after the hand-over the event loop is blocked for `busy.ms` at the live limit (busy.ms / speed
 * real). Times are reported at the live limit, so CPU
 * after the hand-over counts `speed` times over: pessimistic.
 */
export async function realClockModel(
  facts: Facts,
  taken: ReadonlySet<string>,
  count: number,
  speed: number,
  busy: { atMs: number; ms: number },
  log: (line: string) => void,
): Promise<RealClockResult> {
  const name = `Model ${count}`;
  const companies = aliasCompanies(facts.codes, taken, count);
  const cells = scaleCells(
    scaleCompaniesOf(facts, companies),
    facts.pricesFrom5y,
    facts.lastTradingDay,
    true,
  );

  // `let`: the clock starts once the worker answers and the add-in's code is loaded (below).
  let t0 = performance.now();
  let warming = true;
  const startMs = Date.parse(SANDBOX_DEFAULT_NOW);
  /**
   * Real ms after t0 from which the clocks run `speed` times faster: once Excel has handed the
   * add-in its last cell. Handing 301,000 cells over is CPU work (Excel's runtime calling each
   * function) that takes as long at the live limit as here; sped up it counted 20 times over, and
   * a company whose last cell comes at the end of the hand-over (bench: its VALUATION and PRICES
   * cells on the Prices sheet) looked complete 40-120 s late, time in which the add-in, at the
   * live limit, sends a request a second.
   */
  let fastFrom = Number.POSITIVE_INFINITY;
  /** Elapsed time at the live limit (ms): real until the hand-over ends, then `speed` times faster. */
  const scaled = (): number => {
    const real = performance.now() - t0;
    return real <= fastFrom ? real : fastFrom + (real - fastFrom) * speed;
  };
  // The warm-up's requests arrive two minutes before the start: outside the build's first minute.
  const wall = (): number => (warming ? startMs - 120_000 : startMs + scaled());
  /**
   * Sleeps `ms` of the scaled clock: in slices while it runs at real speed (the hand-over may end
   * during a sleep, and a 429 pause of a minute must not then last a real minute), in one real
   * sleep of ms / speed after.
   */
  const sleep: Sleep = async (ms, signal) => {
    const until = scaled() + ms;
    for (;;) {
      const left = until - scaled();
      if (left <= 0) return;
      const fast = performance.now() - t0 > fastFrom;
      await defaultSleep(fast ? left / speed : Math.min(left, 50), signal);
    }
  };
  const sandbox = startWorkerSandbox(
    { ratePerMinute: LIVE.ratePerMinute, dailyLimit: LIVE.dailyLimit, startMs },
    companies,
    // The limiter stamps a request when it arrives (the worker reads this as it is asked).
    wall,
    () => () => undefined,
  );
  const jitter = random(count);
  const delay = (): number => (jitter() < 0.03 ? 150 + jitter() * 250 : 2 + jitter() * 38);
  let requests = 0;
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const signal = init?.signal ?? undefined;
    requests += 1;
    await defaultSleep(delay(), signal);
    const response = await sandbox.app.request(url, init);
    const body = await response.arrayBuffer();
    await defaultSleep(delay(), signal);
    return new Response(response.status === 204 ? null : body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }) as typeof globalThis.fetch;
  // Warm-up, not timed (bench/code-warm-up.ts): the worker's start (its dataset) and the add-in's
  // lazily loaded code are no part of a build; the last company's cells through a client of its
  // own, so the timed client starts with nothing stored.
  await warmUpCode(
    cells.filter((c) => companyOf(c.address).company === count - 1),
    (url, init) => sandbox.app.request(url, init),
    wall,
  );
  warming = false;
  t0 = performance.now();

  const store = new MemoryCacheStore();
  const client = createClient({
    baseUrl: BASE_URL,
    apiKey: DEMO_API_KEY,
    fetch,
    ratePerMinute: LIVE.ratePerMinute,
    cacheStore: store,
    now: wall,
    clock: scaled,
    sleep,
    lang: "en",
    checkAnswers: true,
    staleWhileRevalidate: true,
    // The 120 s bound is for the API's own slowness, which here is real time (network and CPU
    // are not sped up): the bound stays 120 s of real time.
    deadlineMs: 120_000 * speed,
  });
  setClientForTesting(client, { lang: "en" }, store);
  client.prioritize((address) => address.startsWith(`'${SHEET_ON_SCREEN}'!`));

  // Cells each company has, and those left; the sheet on screen's first companies by row.
  const left = new Map<number, number>();
  const onScreen = new Set<number>();
  for (const cell of cells) {
    const { company, sheet } = companyOf(cell.address);
    left.set(company, (left.get(company) ?? 0) + 1);
    if (sheet === SHEET_ON_SCREEN) onScreen.add(company);
  }
  const visible = new Set([...onScreen].sort((a, b) => a - b).slice(0, VISIBLE_COMPANIES));
  let visibleLeft = visible.size;
  let firstValue = NaN;
  let firstCompany = NaN;
  let visibleDone = NaN;
  let last = 0;
  const gaveUp = new Set<ScaleCell>();
  /** Cells showing "still waiting" now (by cell), and every cell by address for recalculation. */
  const waiting = new Set<ScaleCell>();
  const byAddress = new Map<string, ScaleCell[]>();
  for (const cell of cells) {
    const same = byAddress.get(cell.address);
    if (same === undefined) byAddress.set(cell.address, [cell]);
    else same.push(cell);
  }
  let otherErrors = 0;
  const samples: string[] = [];
  let wallFirstCompany = NaN;
  let wallVisible = NaN;
  const settle = (cell: ScaleCell, value: unknown): void => {
    const now = scaled();
    if (Number.isNaN(firstValue)) firstValue = now;
    last = now;
    const message = cellErrorText(value);
    if (message !== undefined) {
      if (/Still waiting for the API/.test(message)) {
        gaveUp.add(cell);
        waiting.add(cell);
        // Not complete: its company completes when the add-in's recalculation gives it a value.
        return;
      }
      otherErrors += 1;
      if (samples.length < 3 && !samples.includes(message)) samples.push(message);
    }
    waiting.delete(cell);
    const { company } = companyOf(cell.address);
    const n = (left.get(company) ?? 0) - 1;
    left.set(company, n);
    if (n !== 0) return;
    if (Number.isNaN(firstCompany)) {
      firstCompany = now;
      wallFirstCompany = performance.now() - t0;
    }
    if (visible.has(company) && (visibleLeft -= 1) === 0) {
      visibleDone = now;
      wallVisible = performance.now() - t0;
    }
  };
  // The pane's recalc-on-revalidation: a cell that gave up is recalculated when the add-in has
  // its answer (src/client/gave-up.ts); the bench calls it again as Excel would.
  let recalculating = 0;
  const offRecalc = client.revalidation().onRecalculate((addresses) => {
    for (const address of addresses)
      for (const cell of byAddress.get(address) ?? []) {
        if (!waiting.has(cell)) continue;
        recalculating += 1;
        Promise.resolve()
          .then(() => cell.call())
          .then(
            (value) => settle(cell, value),
            (error: unknown) => settle(cell, { thrown: String(error) }),
          )
          .finally(() => (recalculating -= 1));
      }
  });

  // The busy phase: the add-in's thread blocked (another add-in, Excel's own recalculation) for
  // `busy.ms` at the live limit (busy.ms / speed real: in proportion, as every other wait), once
  // `busy.atMs` real ms into the sped-up part (the rolling minute full, sending at the limit).
  let busyTimer: ReturnType<typeof setTimeout> | undefined;
  const handed = (): void => {
    fastFrom = performance.now() - t0;
    handOverMs = fastFrom;
    busyTimer = setTimeout(() => {
      const until = performance.now() + busy.ms / speed;
      while (performance.now() < until) {
        // Busy on purpose.
      }
    }, busy.atMs);
  };
  let handOverMs = NaN;

  // As recalculateScale: Excel hands the runtime its cells 1,000 per macrotask.
  await handCells(
    cells,
    settle,
    (cell, error) => settle(cell, { thrown: String(error) }),
    1_000,
    handed,
  );
  // Then until the add-in's own asks for cells that gave up are answered and those cells are
  // recalculated (the queue empty, no recalculation under way), at most 10 minutes real.
  const idleBy = performance.now() + 600_000;
  for (;;) {
    const q = client.queueStatus();
    if ((q.waiting === 0 && q.inFlight === 0 && recalculating === 0) || performance.now() > idleBy)
      break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // One more look after a quiet moment (a recalculated cell's own requests).
  await new Promise((resolve) => setTimeout(resolve, 500));
  offRecalc();
  if (busyTimer !== undefined) clearTimeout(busyTimer);
  const wallSeconds = (performance.now() - t0) / 1000;
  const count429 = await sandbox.count429();
  await sandbox.close();
  setClientForTesting(undefined);
  const s = (ms: number): number => Math.round(ms / 100) / 10;
  const result: RealClockResult = {
    name,
    companies: count,
    cells: cells.length,
    speed,
    requests,
    firstValueSeconds: s(firstValue),
    firstCompanyCompleteSeconds: s(firstCompany),
    visibleCompanies: visible.size,
    visibleSheetCompleteSeconds: s(visibleDone),
    lastValueSeconds: s(last),
    jitter429: count429,
    jitterGaveUpCells: gaveUp.size,
    leftForManualCells: waiting.size,
    wallFirstCompanySeconds: Math.round(wallFirstCompany / 100) / 10,
    wallVisibleSheetSeconds: Math.round(wallVisible / 100) / 10,
    handOverSeconds: Math.round(handOverMs / 100) / 10,
    otherErrorCells: otherErrors,
    errorSamples: samples,
    wallSeconds: Math.round(wallSeconds * 10) / 10,
    busyMs: busy.ms,
  };
  log(
    `  ${name} real clock ×${speed}: first value ${result.firstValueSeconds} s, first company complete ${result.firstCompanyCompleteSeconds} s, the sheet on screen's first ${visible.size} companies ${result.visibleSheetCompleteSeconds} s, last value ${result.lastValueSeconds} s (at 60 a minute); ${requests} requests, ${count429} × 429, ${gaveUp.size} cells gave up (${waiting.size} left for a manual recalculation), ${otherErrors} cells with a data error; ${result.wallSeconds} s wall`,
  );
  return result;
}
