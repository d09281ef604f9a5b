// The Model N table, notes and bench/results.json (one object per workload, for scripts).

import type { BenchReport, Target, WorkloadRow } from "./report";
import type { BaselineResult } from "./baselines";
import { RUNTIME_PAGE_GZIP_TARGET_BYTES } from "./bundle-sizes";
import type { AliasResult, PriceColumnResult, SmallPhases } from "./extra-workloads";
import { LIVE } from "./live-client";
import type { ScaleResult } from "./scale-run";
import { topFailures } from "./failure-tally";

const n = (x: number): string => x.toLocaleString("en-US");

/**
 * The heap figure the Models' targets were defined on: peak growth over the Model's start during
 * the cold run, the warm recalculations and the same-day reopen (the largest of the per-phase
 * peaks). The whole-run figure (heapGrowthMB) also spans the new-process save, the mornings, the
 * week and the season, which came later.
 */
export function phasesHeapGrowthMB(m: ScaleResult): number {
  return Math.max(...m.phaseHeapMB.map((p) => p.peakGrowth));
}

/** The heap gate: Model 500's heap growth (cold, warm, reopen) <= 400 MB; 500 MB for the others. */
export function heapGrowthLimitMB(m: ScaleResult): number {
  return m.companies >= 500 ? 400 : 500;
}

/** The reopen's bound over its floor (read, decompress and parse of every stored answer). */
const REOPEN_FLOOR_RATIO = 1.5;

/** A reopen's wall time over the floor measured in the same run (bench/reopen-child.ts `floor`). */
function reopenToFloorRatio(m: ScaleResult, seconds: number): number {
  return seconds / m.reopenFloor.seconds;
}

/**
 * The reopen's CPU in parts (measured apart after it, JIT warm: bench/reopen-child.ts partsOf) and
 * what they bound it by: decoding every answer at the floor's own CPU plus one warm recalculation
 * of its cells, with nothing else, over the floor's CPU (reopenBoundRatio).
 */
function partsText(m: ScaleResult): string {
  const p = m.newProcessReopen.parts;
  const bound = reopenBoundRatio(m);
  if (p === undefined || bound === undefined) return "";
  return `; its CPU in parts, each measured apart: every stored answer read into memory ${p.decode.toFixed(2)} s, the cells' first recalculation from memory ${p.firstCells.toFixed(2)} s, a warm one ${p.warmCells.toFixed(2)} s, against the floor's ${m.reopenFloor.cpuSeconds.toFixed(2)} s: the floor's CPU plus a warm recalculation alone is ${bound.toFixed(2)} × the floor's CPU`;
}

/**
 * The least a reopen that decodes every answer it reads can take over its floor, in CPU: the
 * floor's own CPU plus a warm recalculation of the cells (no first-time work, no other cost)
 * over the floor's CPU; undefined when the parts were not measured.
 */
function reopenBoundRatio(m: ScaleResult): number | undefined {
  const p = m.newProcessReopen.parts;
  const floor = m.reopenFloor.cpuSeconds;
  return p === undefined || !(floor > 0) ? undefined : (floor + p.warmCells) / floor;
}

/** The reopen near its floor: the new process's and Chromium's, each <= 1.5 × the floor. */
export function reopenFloorTargets(m: ScaleResult): Target[] {
  const floor = `floor ${m.reopenFloor.seconds.toFixed(2)} s (read, decompress and parse ${n(m.reopenFloor.answers)} stored answers, ${m.reopenFloor.jsonMB.toFixed(0)} MB of JSON, in a new process)`;
  const node = reopenToFloorRatio(m, m.newProcessReopen.wallSeconds);
  const out: Target[] = [
    {
      name: `${m.name} reopen in a new process <= ${REOPEN_FLOOR_RATIO} × its floor`,
      pass: node <= REOPEN_FLOOR_RATIO,
      detail: `${m.newProcessReopen.wallSeconds.toFixed(2)} s, ${node.toFixed(2)} × the ${floor}${partsText(m)}`,
    },
  ];
  if (m.browser !== undefined) {
    const b = reopenToFloorRatio(m, m.browser.reopenWallSeconds);
    out.push({
      name: `${m.name} Chromium reopen (from navigation to the last cell's value) <= ${REOPEN_FLOOR_RATIO} × the floor`,
      pass: b <= REOPEN_FLOOR_RATIO,
      detail: `${m.browser.reopenWallSeconds.toFixed(2)} s, ${b.toFixed(2)} × the ${floor}`,
    });
  }
  return out;
}

/** The scale table, measured: one row per Model N. */
export function scaleTable(
  scale: readonly ScaleResult[],
  fair: ReadonlyMap<string, BaselineResult>,
  naive: ReadonlyMap<string, BaselineResult>,
): string {
  const head =
    "| Workload (companies × 60 items × 10 years + VALUATION + PRICES) | cells | cold requests / floor / per-cell (own years) / naive | add-in ÷ per-cell, ÷ naive | 429 | warm recalcs (3 runs) | reopen | warm CPU per cell | cold / reopen CPU per cell | heap growth: cold, warm, reopen (whole run) | first request | cold, simulated |";
  const rule = "|---|---|---|---|---|---|---|---|---|---|---|---|";
  const lines = scale.map((m) => {
    const f = fair.get(m.name);
    const v = naive.get(m.name);
    const ratios = `${f ? ratio(m.requests, f.requests) : "-"}, ${v ? ratio(m.requests, v.requests) : "-"}`;
    return `| ${m.name} | ${n(m.cells)} | ${n(m.requests)} / ${n(m.floor)} / ${f ? n(f.requests) : "-"} / ${v ? `${n(v.requests)}${v.measured ? "" : "*"}` : "-"} | ${ratios} | ${m.status429} | ${m.warmRequests.join(", ")} | ${m.reopenRequests} | ${m.cpuMicrosPerCell.toFixed(1)} µs | ${m.coldCpuMicrosPerCell.toFixed(1)} / ${m.reopenCpuMicrosPerCell.toFixed(1)} µs | ${phasesHeapGrowthMB(m).toFixed(0)} MB (${m.heapGrowthMB.toFixed(0)} MB) | ${Math.round(m.firstRequestMs)} ms | ${m.coldVirtualMinutes.toFixed(1)} min |`;
  });
  return [head, rule, ...lines].join("\n");
}

/** What a reader needs to read the Model rows right. */
export function scaleNotes(
  scale: readonly ScaleResult[],
  fair: ReadonlyMap<string, BaselineResult>,
  naive: ReadonlyMap<string, BaselineResult>,
  price: PriceColumnResult,
  alias: AliasResult,
): string[] {
  const out = [
    "Model N: FINANCIAL cells in comparables order (item-major, neighbouring cells are different companies), kinds rotating per cell: annual relative (twice as often), quarterly Q2, LTM (annual in 百万円 for items without LTM), a fixed fiscal year, annual in 億円; the code typed as a number or text; addresses on five sheets. Plus one VALUATION and one five-year PRICES spill per company.",
    "The sandbox has 50 sample companies: beyond them (Model 200, 500) each company is a dataset company under another code and EDINET code (bench/company-aliases.ts maps requests back and answers forward), so every one is a distinct company to the add-in and costs its own requests.",
    "floor = distinct requests the cold run needed (each answer asked once: a retry, a 429 or a repeat would be extra); per-cell (own years) = the client a user would write: one request per cell asking that cell's own years (`back + 1`), identical URLs asked once, the largest pages (run with the limit off, counted): the baseline the add-in is held to; naive* = one request per cell plus price pages at 100 rows, counted from the cells, not run. Ratios: the add-in's cold requests over each (smaller is better). A per-cell client with one fixed `years` for every /financials request is not reported: it asks the add-in's own set of URLs, so it equals the add-in by construction.",
    "CPU per cell = process CPU (user + system, both threads) of the whole recalculation divided by its cells, the bench's own per-cell bookkeeping included; the cold run and the reopen include persisting what they received (the persistent tier's background writes, awaited); warm = median of three warm recalculations. Heap growth = peak heapUsed (sampled every 25 ms, garbage not yet collected included) over the heap after a GC before the Model: the target's figure is the largest peak of its cold run, warm recalculations and same-day reopen; in brackets, the whole run's (also the new-process save, the mornings, the week, the season and the filing-window week, each calendar run with a cold run of its own; garbage included: after a calendar run a forced GC brings the heap back to where it started, checked by hand with Model 50 over three runs).",
    "What the heap is measured over: the add-in's, not the stand-ins'. The sandbox answers from a worker thread (its own heap, as the API is another machine; the virtual clock holds while it works) and its dataset is dropped from the main heap after the probe; the storage stand-in keeps its data in Buffers outside the heap, as a database keeps it on disk; the bench's cells are compact (indexes and an address; Excel keeps formulas outside the add-in's heap) and each call gets a new invocation object, as Excel passes one per call; the old runtime is dropped before the reopen (a reopened workbook starts a new one). One forced GC between phases: two in a row leave V8 no allocation rate to size its next limit with, and it then lets the heap grow fourfold before collecting (trace-gc), a peak no real runtime would see.",
    "Excel's runtime as the bench models it (bench/scale-cells.ts ScaleCell.call, after custom-functions-runtime.js): per call a new arguments array with a new invocation object pushed last (`_batchInvocationEntries`: `message.parameterValues.push(invocationContext)`, which regrows the array there too), the function found by its name and applied to that same array, a result that is not a thenable taken at once and a thenable's (a promise, or a waiting cell) through its `then` when it settles (`_invokeFunctionAndSetResult`); nothing of the bench's own per call (no pair, closure or promise). Not modelled: the runtime's own per-call objects (message, invocation context, batch entry, result record) and its result buffer, which holds every result until it sends them (`_setResultWithOutboundData`, 50 ms `_setResultsDelayMillis`): warm CPU is the add-in's work plus the arguments Excel hands it.",
    "first request = real time from the start of the cold recalculation to the first fetch.",
    "Reopen in a new process (bench/reopen-child.ts): after the same-day reopen the stored answers are saved to a file and a forked Node process (cold JIT, fresh module state) opens the same Model over them with its own sandbox worker (started and answering before the clock starts); wall time from the first cell's call to the last cell's value; heap and ArrayBuffers growth are peaks over the loaded runtime after a GC.",
    "Chromium (bench/browser-run.ts, BENCH_BROWSER): the e2e build's preview page (the functions bundle with the CustomFunctions stand-in, test/e2e/harness.ts) in Debian's headless Chromium; its IndexedDB is seeded with the answers the Node run stored (keys moved to the page's partition), the page's clock fixed at the Node run's instant (so nothing is due), then a new page calls the registered implementations for every cell, 1,000 per task. Reopen = first call to last value; warm = median of three recalculations, wall time in the page's one thread; heap = JS heap (CDP Runtime.getHeapUsage) peak over the page before the reopen, after a GC. Seeding stands in for the cold run: at 60 requests a minute in real time it would take an hour for Model 500.",
    "Live PRICES: the Model's PRICES spills ask \"up to latest\" (no `to`). A five-year spill is three pages of 500 rows when first asked; after a close it asks only the days since its last stored day (one request per company, src/domain/price-latest.ts), and the whole window again only when that day's row shows a split re-based adj_close.",
    "Earnings-season morning (bench/season-run.ts): a sandbox of its own whose data clock follows the bench clock; a tenth of the Model's dataset companies (with their aliases, so a tenth of the companies) file their latest results at 16:00 JST on Wednesday 11 November 2026 (inside the 45-day window of the quarter ended 30 September), visible 24 hours later (openapi.json info.description); every other company filed by the day before. The evening's cold run at 17:00 cannot see them; the morning open is Friday 08:00 JST (after Thursday's close), its background revalidation awaited and counted.",
    "Filing-window week (bench/window-week.ts, on bench/calendar-run.ts like the season): a sandbox of its own whose data clock follows the bench clock; the evening session (cold run) on Thursday 1 October 2026, the day after the quarter ended 30 September, then seven mornings (Friday 2 to Thursday 8 October, 08:00 JST), each a new runtime over the stored answers with live \"up to latest\" PRICES, its background awaited until the queue is empty or the daily budget (the add-in's default, 800) is spent; the runtime is then closed (its queue paused). Every company's quarterly results are due in the window, and the dataset's own filing dates come later, so each morning checks the unfiled companies on their check days (src/client/freshness.ts windowCheckDay) besides the prices after a close.",
    `Price column: PRICE(${price.days} trading days): ${price.detail}.`,
    smallFiguresLine("Price column (the column alone)", price.phases, price.days),
    `Aliases (${alias.forms.join(", ")}): ${alias.requests} requests: ${alias.detail}; values ${alias.values.map((v) => JSON.stringify(v)).join(", ")}. src/excel/company-ref.ts reads the four forms without a request; src/domain/company-resolver.ts asks /financials by security code and the client's code registry learns the EDINET pair from the answer, so the EDINET-code cell waits for it instead of asking again.`,
    smallFiguresLine("Aliases", alias.phases, alias.forms.length),
    SMALL_FIGURES_NOTE,
  ];
  for (const m of scale) {
    out.push(
      `${m.name} heap over its start (peak during / retained after, MB): ${m.phaseHeapMB.map((p) => `${p.phase} ${p.peakGrowth.toFixed(0)} / ${p.retainedGrowth.toFixed(0)}`).join("; ")}. Retained = the memory tier's decoded answers, the client's indexes and functions/cells' per-answer indexes and tables (a PRICES spill packed, 8 bytes a cell); the rest of a peak is garbage V8 has not collected yet. A cell whose answer another cell is fetching waits as one record in that fetch's list (functions/cells/define-cell.ts), not a chain of calls.`,
    );
    if (phasesHeapGrowthMB(m) > heapGrowthLimitMB(m)) {
      const warmPhase = m.phaseHeapMB.find((p) => p.phase === "warm 1");
      out.push(
        `${m.name} heap growth ${phasesHeapGrowthMB(m).toFixed(0)} MB misses ${heapGrowthLimitMB(m)} MB. Retained after a GC is ${warmPhase?.retainedGrowth.toFixed(0) ?? "?"} MB; the rest of the peak is garbage V8 had not collected when sampled (its next collection comes at a multiple of what was live after the last). A heap cap on the bench process would lower the number without changing the add-in, so none is set.`,
      );
    }
    if (m.cpuMicrosPerCell > 10)
      out.push(
        `${m.name} warm CPU ${m.cpuMicrosPerCell.toFixed(1)} µs per cell misses 10 µs.${m.memoryTierEntries < m.storageEntries ? ` The memory tier held ${m.memoryTierEntries} of ${m.storageEntries} answers, so warm cells of the others read them back from the persistent tier (no request, more CPU).` : ""}`,
      );
    out.push(phaseTimesLine(m));
    out.push(
      `${m.name}: memory tier ${m.memoryTierEntries} answers (${m.memoryTierMB.toFixed(0)} MB as received); persistent store ${m.storageEntries} answers in ${m.storageMB.toFixed(0)} MB serialized (stored form: gzip of the JSON, as bytes).${m.notes.length > 0 ? ` ${m.notes.join("; ")}.` : ""}`,
    );
    const f = fair.get(m.name);
    const v = naive.get(m.name);
    if (f !== undefined && v !== undefined)
      out.push(
        `${m.name} baselines: per-cell (own years) ${n(f.requests)} requests (${(f.requests / LIVE_DAILY).toFixed(1)} days of the 5,000 cap, the add-in ${ratio(m.requests, f.requests)} of it), naive ${n(v.requests)} (the add-in ${ratio(m.requests, v.requests)}).`,
      );
  }
  return out;
}

const LIVE_DAILY = 5_000;

/** `a` over `b` as the headline states it ("0.224×"). */
function ratio(a: number, b: number): string {
  return b > 0 ? `${(a / b).toPrecision(3)}×` : "-";
}

const sec = (x: number): string => `${x.toFixed(1)} s`;
const min = (x: number): string => `${x.toFixed(1)} min`;

/**
 * Every phase's real (wall) time beside its simulated time: the virtual clock advances only while
 * the add-in waits (pacing, storage latency), so a phase's simulated time is what the analyst
 * would wait for the API at the live limits and its wall time is the add-in's own work.
 */
function phaseTimesLine(m: ScaleResult): string {
  const w = m.wallSeconds;
  const v = m.simulatedSeconds;
  const ww = m.windowWeek;
  const parts = [
    `cold ${sec(w.cold)} wall / ${min(v.cold / 60)} simulated`,
    `warm ${w.warm.map(sec).join(", ")} wall / ${v.warm.map(sec).join(", ")} simulated`,
    `same-day reopen ${sec(w.reopen)} / ${sec(v.reopen)}`,
    `new-process reopen ${sec(m.newProcessReopen.wallSeconds)} wall (its simulated storage waits inside)`,
    `next morning ${sec(m.morning.wallSeconds)} to the last cell / ${sec(m.morning.virtualSeconds)} simulated, then ${min(m.morning.backgroundMinutes)} simulated in the background`,
    `week mornings ${m.weekMornings.map((d) => sec(d.wallSeconds)).join(", ")} wall, backgrounds ${m.weekMornings.map((d) => min(d.backgroundMinutes)).join(", ")} simulated`,
    `season evening ${sec(m.season.eveningWallSeconds)} wall / ${min(m.season.eveningSimulatedMinutes)} simulated, morning ${sec(m.season.wallSeconds)} wall, background ${min(m.season.backgroundMinutes)} simulated`,
    `filing-window evening ${sec(ww.eveningWallSeconds)} wall / ${min(ww.eveningSimulatedMinutes)} simulated, mornings ${ww.wallSeconds.map(sec).join(", ")} wall, backgrounds ${ww.backgroundMinutes.map(min).join(", ")} simulated`,
  ];
  return `${m.name} wall and simulated time per phase: ${parts.join("; ")}.`;
}

/** bench/results.json: one object per workload. */
export function resultsJson(
  scale: readonly ScaleResult[],
  fair: ReadonlyMap<string, BaselineResult>,
  naive: ReadonlyMap<string, BaselineResult>,
  price: PriceColumnResult,
  alias: AliasResult,
  rows: readonly WorkloadRow[],
): object[] {
  const out: object[] = scale.map((m) => ({
    name: m.name,
    companies: m.companies,
    cells: m.cells,
    ratePerMinute: m.ratePerMinute,
    dailyLimit: m.dailyLimit,
    requests: m.requests,
    floor: m.floor,
    exactYearsBaselineRequests: fair.get(m.name)?.requests ?? null,
    naiveBaselineRequests: naive.get(m.name)?.requests ?? null,
    status429: m.status429,
    warmRequests: m.warmRequests,
    reopenRequests: m.reopenRequests,
    cpuMicrosPerCell: round(m.cpuMicrosPerCell),
    coldCpuMicrosPerCell: round(m.coldCpuMicrosPerCell),
    reopenCpuMicrosPerCell: round(m.reopenCpuMicrosPerCell),
    heapGrowthMB: round(m.heapGrowthMB),
    heapPeakMB: round(m.heapPeakMB),
    phasesHeapGrowthMB: round(phasesHeapGrowthMB(m)),
    phaseHeapMB: m.phaseHeapMB.map((p) => ({
      phase: p.phase,
      peakGrowth: round(p.peakGrowth),
      retainedGrowth: round(p.retainedGrowth),
    })),
    firstRequestMs: round(m.firstRequestMs),
    coldSimulatedMinutes: round(m.coldVirtualMinutes),
    errorCells: m.outcomes.cold.errors,
    wrongValues: m.outcomes.cold.wrong + m.outcomes.reopen.wrong,
    // Wall time of each phase; the reopen in a new process (bench/reopen-child.ts).
    coldWallSeconds: round(m.wallSeconds.cold),
    warmWallSeconds: m.wallSeconds.warm.map(round),
    sameProcessReopenWallSeconds: round(m.wallSeconds.reopen),
    reopenWallSeconds: round(m.newProcessReopen.wallSeconds),
    reopenFloorSeconds: Number(m.reopenFloor.seconds.toFixed(2)),
    reopenToFloorRatio: Number(reopenToFloorRatio(m, m.newProcessReopen.wallSeconds).toFixed(2)),
    // The reopen's CPU in parts (s), and the floor's CPU plus a warm recalculation over the floor's.
    reopenPartsCpuSeconds: m.newProcessReopen.parts ?? null,
    reopenBoundRatio: ((b) => (b === undefined ? null : Number(b.toFixed(2))))(reopenBoundRatio(m)),
    reopenNewProcessRequests: m.newProcessReopen.requests,
    reopenNewProcessValues: m.newProcessReopen.values,
    // The cells without a value, by message (the most frequent few; bench/failure-tally.ts).
    reopenNewProcessFailures: topFailures(m.newProcessReopen.failures),
    reopenHeapGrowthMB: round(m.newProcessReopen.heapGrowthMB),
    reopenArrayBuffersGrowthMB: round(m.newProcessReopen.arrayBuffersGrowthMB),
    reopenNewProcessCpuMicrosPerCell: round(m.newProcessReopen.cpuMicrosPerCell),
    // Headless Chromium (bench/browser-run.ts): wall time in the page's one thread; null: not run.
    browserCpuMicrosPerCell: m.browser === undefined ? null : round(m.browser.warmMicrosPerCell),
    browserReopenWallSeconds: m.browser === undefined ? null : round(m.browser.reopenWallSeconds),
    browserReopenToFloorRatio:
      m.browser === undefined
        ? null
        : Number(reopenToFloorRatio(m, m.browser.reopenWallSeconds).toFixed(2)),
    browserReopenHeapGrowthMB: m.browser === undefined ? null : round(m.browser.reopenHeapGrowthMB),
    browserRequests: m.browser?.requests ?? null,
    browserReopenValues: m.browser?.values ?? null,
    browserReopenFailures: m.browser === undefined ? null : topFailures(m.browser.failures),
    morningRequests: m.morning.requests,
    morningValuesAtOnce: m.morning.valuesAtOnce,
    morningWallSeconds: round(m.morning.wallSeconds),
    weekRequests: Math.max(0, ...m.weekDailyRequests),
    weekDailyRequests: m.weekDailyRequests,
    seasonRequests: m.season.requests,
    seasonFilingCompanies: m.season.filingCompanies,
    seasonChangedAnswers: m.season.changedAnswers,
    seasonValuesAtOnce: m.season.valuesAtOnce,
    // bench/results-morning.ts: the desktop host model (no cell called at open).
    resultsMorningStaleUnmarked: m.resultsMorning.staleUnmarked,
    desktopMorningRequests: m.desktopMorning.requests,
    desktopMorningWallSeconds: round(m.desktopMorning.wallSeconds),
    perCellRatio: (() => {
      const f = fair.get(m.name);
      return f === undefined ? null : Number((m.requests / f.requests).toFixed(4));
    })(),
    naiveRatio: (() => {
      const v = naive.get(m.name);
      return v === undefined ? null : Number((m.requests / v.requests).toFixed(4));
    })(),
    simulatedSeconds: {
      cold: round(m.simulatedSeconds.cold),
      warm: m.simulatedSeconds.warm.map(round),
      reopen: round(m.simulatedSeconds.reopen),
    },
    morningSimulatedSeconds: round(m.morning.virtualSeconds),
    morningBackgroundMinutes: round(m.morning.backgroundMinutes),
    weekMornings: m.weekMornings.map((d) => ({
      wallSeconds: round(d.wallSeconds),
      backgroundMinutes: round(d.backgroundMinutes),
    })),
    seasonWallSeconds: round(m.season.wallSeconds),
    seasonBackgroundMinutes: round(m.season.backgroundMinutes),
    seasonEvening: {
      wallSeconds: round(m.season.eveningWallSeconds),
      simulatedMinutes: round(m.season.eveningSimulatedMinutes),
    },
    resultsMorning: {
      staleUnmarked: m.resultsMorning.staleUnmarked,
      staleMarked: m.resultsMorning.staleMarked,
      requests: m.resultsMorning.requests,
      deferred: m.resultsMorning.deferred,
      unchecked: m.resultsMorning.unchecked,
      changedCells: m.resultsMorning.changedCells,
      wallSeconds: round(m.resultsMorning.wallSeconds),
      eveningBackgroundRequests: m.resultsMorning.eveningBackgroundRequests,
    },
    desktopMorning: {
      recalculatedAtOpen: m.desktopMorning.recalculated,
      changedCells: m.desktopMorning.changedCells,
      eveningBackgroundRequests: m.desktopMorning.eveningBackgroundRequests,
    },
    windowWeek: {
      dailyRequests: m.windowWeek.dailyRequests,
      deferred: m.windowWeek.deferred,
      changedAnswers: m.windowWeek.changedAnswers,
      dailyBudget: m.windowWeek.dailyBudget ?? null,
      wallSeconds: m.windowWeek.wallSeconds.map(round),
      backgroundMinutes: m.windowWeek.backgroundMinutes.map(round),
      evening: {
        wallSeconds: round(m.windowWeek.eveningWallSeconds),
        simulatedMinutes: round(m.windowWeek.eveningSimulatedMinutes),
        backgroundRequests: m.windowWeek.eveningBackgroundRequests,
      },
    },
  }));
  out.push(
    {
      name: "Price column",
      companies: 1,
      cells: price.days,
      ratePerMinute: LIVE.ratePerMinute,
      dailyLimit: LIVE.dailyLimit,
      requests: price.columnRequests,
      requestsAfterSpill: price.spillThenColumnRequests,
      floor: 1,
      ...smallFigures(price.phases, price.days),
      errors: price.errors,
      mismatches: price.mismatches,
    },
    {
      name: "Aliases",
      companies: 1,
      cells: alias.forms.length,
      ratePerMinute: LIVE.ratePerMinute,
      dailyLimit: LIVE.dailyLimit,
      requests: alias.requests,
      floor: 1,
      ...smallFigures(alias.phases, alias.forms.length),
      forms: alias.forms,
    },
  );
  // The task pane's workloads (the old table, real time): cells = the table's rows; warm = the
  // same work again on the same client; reopen = a new client over the same persisted store.
  const warmOf = new Map(rows.map((r) => [r.name, r]));
  for (const row of rows.filter((r) => r.name.endsWith(" cold"))) {
    const warm = warmOf.get(row.name.replace(/ cold$/, " warm"));
    const cells = Math.max(1, row.addInRows ?? 1);
    out.push({
      name: row.name.replace(/ cold$/, ""),
      companies: 1,
      cells,
      ratePerMinute: LIVE.ratePerMinute,
      dailyLimit: LIVE.dailyLimit,
      requests: row.addIn.requests,
      floor: row.floorRequests,
      naiveBaselineRequests: row.naive.requests,
      status429: row.addInStatus429 ?? null,
      warmRequests: warm === undefined ? [] : [warm.addIn.requests],
      reopenRequests: row.addInReopenRequests ?? null,
      cpuMicrosPerCell: round((warm?.addIn.cpuMicros ?? Number.NaN) / cells),
      coldCpuMicrosPerCell: round((row.addIn.cpuMicros ?? Number.NaN) / cells),
      heapGrowthMB: round(
        Math.max(growthMB(row.addIn.memory), warm === undefined ? 0 : growthMB(warm.addIn.memory)),
      ),
      firstRequestMs: round(row.addIn.firstRequestMs ?? Number.NaN),
      timeMs: round(row.addIn.timeMs),
      warmTimeMs: warm === undefined ? null : round(warm.addIn.timeMs),
    });
  }
  return out;
}

function growthMB(memory: { heapUsedPeak: number; heapUsedBefore: number }): number {
  return (memory.heapUsedPeak - memory.heapUsedBefore) / 1048576;
}

/** The Models' figures for a small workload (cold, one warm repeat, a reopen). */
function smallFigures(p: SmallPhases, cells: number) {
  return {
    status429: p.status429,
    warmRequests: [p.warm.requests],
    reopenRequests: p.reopen.requests,
    cpuMicrosPerCell: round(p.warm.cpuMicros / cells),
    coldCpuMicrosPerCell: round(p.cold.cpuMicros / cells),
    reopenCpuMicrosPerCell: round(p.reopen.cpuMicros / cells),
    heapGrowthMB: round(Math.max(p.cold.heapGrowthMB, p.warm.heapGrowthMB, p.reopen.heapGrowthMB)),
    firstRequestMs: round(p.cold.firstRequestMs),
  };
}

/** How to read the small workloads' CPU and heap (they have request targets only). */
const SMALL_FIGURES_NOTE =
  "Price column and Aliases CPU and heap: a few hundred cells, so one-time costs dominate the cold figures (compiling the code path, V8 collecting what the Models before them left); warm and reopen are the steady figures. They have request targets only.";

/** One line of the small workload's figures for RESULTS.md. */
function smallFiguresLine(name: string, p: SmallPhases, cells: number): string {
  const f = smallFigures(p, cells);
  return `${name}: cold ${p.cold.requests} requests, warm ${p.warm.requests}, reopen ${p.reopen.requests}, ${p.status429} × 429; CPU per cell cold ${f.coldCpuMicrosPerCell} / warm ${f.cpuMicrosPerCell} / reopen ${f.reopenCpuMicrosPerCell} µs; heap growth ${f.heapGrowthMB} MB; first request ${f.firstRequestMs} ms.`;
}

function round(x: number): number {
  return Math.round(x * 10) / 10;
}

/** The runtime page: our scripts evaluated before the functions register, gzipped. */
export function runtimePageTarget(bundles: BenchReport["bundles"]): Target {
  const ours = bundles.page.filter((p) => !p.officeJs);
  const gzip = ours.reduce((a, p) => a + (p.gzipBytes ?? 0), 0);
  const list = bundles.page
    .map(
      (p) =>
        `${p.file} ${p.gzipBytes === undefined ? "(not in dist)" : `${(p.gzipBytes / 1024).toFixed(1)} KB`}${p.officeJs ? " (Office.js, not counted)" : ""}`,
    )
    .join(", ");
  return {
    name: "Runtime page: our JavaScript before the functions register <= 60 KB gzip",
    pass: bundles.status === "built" && ours.length > 0 && gzip <= RUNTIME_PAGE_GZIP_TARGET_BYTES,
    detail:
      bundles.status === "built"
        ? `${(gzip / 1024).toFixed(1)} KB gzip; taskpane.html loads: ${list || "no scripts found"}`
        : `not built: ${bundles.note}`,
  };
}
