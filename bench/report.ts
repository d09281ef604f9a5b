// Formats benchmark results: the headline table (ratios to the naive baseline) and bench/RESULTS.md.
import { cpus, totalmem, type as osType, release } from "node:os";
import type { BundleReport } from "./bundle-sizes";
import type { MemoryPeak } from "./memory-sampler";

/** One side's measurement of a workload. */
export interface SideMeasure {
  requests: number;
  timeMs: number;
  bytes: number;
  memory: MemoryPeak;
  /** Process CPU of the run (median of the rounds). @unit µs */
  cpuMicros?: number;
  /** From the start to the first request (median of the rounds; NaN when none was sent). */
  firstRequestMs?: number;
  /** How the number was obtained when it was not a plain measured run under the same limit. */
  note?: string;
}

export interface WorkloadRow {
  name: string;
  addIn: SideMeasure;
  naive: SideMeasure;
  /** Distinct resources the workload needs (undefined for warm rows, whose floor is 0). */
  floorRequests: number;
  floorTimeMs: number;
  /** Cells with errors or wrong values, retries and 429s: anything a reader must know. */
  remarks: string[];
  /** Rows the add-in's table had, and the 429s the sandbox answered it (all rounds). */
  addInRows?: number;
  addInStatus429?: number;
  /** The add-in's requests for the same work after a reopen (new client, same persisted store). */
  addInReopenRequests?: number;
}

export interface Target {
  name: string;
  pass: boolean;
  detail: string;
}

export interface BenchReport {
  settings: Record<string, string | number>;
  rows: WorkloadRow[];
  spill: {
    /** Cells of the full 30-year spill. */
    cells: number;
    /** Tables built for the first time (argument combinations not asked before). */
    tablesBuilt: number;
    builtCellsPerSecond: number;
    /** @unit µs */
    microsPerBuild: number;
    /** Calls of the same spill, answered with the table kept for it. */
    recalcs: number;
    /** @unit µs */
    microsPerRecalc: number;
    note: string;
  };
  bundles: BundleReport;
  targets: Target[];
  notes: string[];
}

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
const mb = (bytes: number): string => `${(bytes / 1048576).toFixed(1)} MB`;
const ms = (value: number): string =>
  value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`;
const num = (value: number): string => value.toLocaleString("en-US");
/** Peak heapUsed and, in brackets, its growth over the heap at the start of the workload. */
const heap = (m: MemoryPeak): string =>
  `${mb(m.heapUsedPeak)} (+${mb(Math.max(0, m.heapUsedPeak - m.heapUsedBefore))})`;

/** "0.016×" — how the add-in compares with the naive baseline (smaller is better). */
function ratio(addIn: number, naive: number): string {
  if (naive === 0) return addIn === 0 ? "1×" : "n/a";
  const r = addIn / naive;
  return `${r < 0.01 && r > 0 ? r.toExponential(1) : r.toFixed(r < 1 ? 3 : 2)}×`;
}

/** The headline table, as Markdown (also readable in a terminal). */
export function headlineTable(rows: readonly WorkloadRow[]): string {
  const head =
    "| Workload | Requests add-in / floor / naive | Req. ratio | Time add-in / floor / naive | Time ratio | Bytes add-in / naive | Bytes ratio | Peak heap (growth) add-in / naive |";
  const rule = "|---|---|---|---|---|---|---|---|";
  const lines = rows.map((row) =>
    [
      row.name,
      `${num(row.addIn.requests)} / ${num(row.floorRequests)} / ${num(row.naive.requests)}`,
      ratio(row.addIn.requests, row.naive.requests),
      `${ms(row.addIn.timeMs)} / ${ms(row.floorTimeMs)} / ${ms(row.naive.timeMs)}`,
      ratio(row.addIn.timeMs, row.naive.timeMs),
      `${kb(row.addIn.bytes)} / ${kb(row.naive.bytes)}`,
      ratio(row.addIn.bytes, row.naive.bytes),
      `${heap(row.addIn.memory)} / ${heap(row.naive.memory)}`,
    ].join(" | "),
  );
  return [head, rule, ...lines.map((l) => `| ${l} |`)].join("\n");
}

function machine(): string[] {
  const list = cpus();
  const model = list[0]?.model ?? "unknown CPU";
  return [
    `- Date: ${new Date().toISOString()}`,
    `- CPU: ${list.length} × ${model}`,
    `- Memory: ${mb(totalmem())}`,
    `- OS: ${osType()} ${release()}`,
    `- Node: ${process.version}`,
  ];
}

/** The full RESULTS.md text. */
export function resultsMarkdown(report: BenchReport, scaleTable = ""): string {
  const out: string[] = [
    "# Benchmark results",
    "",
    "Written by `npm run bench` (bench/run.ts). Numbers are from one run on the machine below; rerun to refresh.",
    "",
    "## Machine",
    "",
    ...machine(),
    "",
    "## Settings",
    "",
    ...Object.entries(report.settings).map(([k, v]) => `- ${k}: ${v}`),
    "",
    ...(scaleTable === ""
      ? []
      : ["## Scale: Model N at the live limits", "", scaleTable, "", "\\* counted, not run.", ""]),
    "## Headline: add-in vs naive baseline (ratio = add-in / naive; smaller is better)",
    "",
    headlineTable(report.rows),
    "",
    "Peak heap is process.memoryUsage().heapUsed sampled every 25 ms; the growth in brackets is over the heap at the workload's start (after a GC), which includes the in-process sandbox and its dataset. Peak rss below is process-wide and rarely shrinks, so it is only comparable for the first workload.",
    "",
    "Peak memory (rss) add-in / naive:",
    "",
    ...report.rows.map(
      (r) => `- ${r.name}: ${mb(r.addIn.memory.rssPeak)} / ${mb(r.naive.memory.rssPeak)}`,
    ),
    "",
    "## Remarks per workload",
    "",
  ];
  for (const row of report.rows) {
    const notes = [
      ...row.remarks,
      ...(row.addIn.note === undefined ? [] : [`add-in: ${row.addIn.note}`]),
      ...(row.naive.note === undefined ? [] : [`naive: ${row.naive.note}`]),
    ];
    out.push(`- **${row.name}**${notes.length === 0 ? "" : ":"}`);
    for (const note of notes) out.push(`  - ${note}`);
  }
  out.push(
    "",
    "## Spill building",
    "",
    `- First build: ${num(Math.round(report.spill.builtCellsPerSecond))} cells/s, ${report.spill.microsPerBuild.toFixed(0)} µs per table (${num(report.spill.tablesBuilt)} tables). ${report.spill.note}`,
    `- Recalculation of the same spill (the table kept for its answer and arguments): ${report.spill.microsPerRecalc.toFixed(2)} µs per call (${num(report.spill.recalcs)} calls; ${num(report.spill.cells)} cells each).`,
    "",
    "## Bundles (gzip -9)",
    "",
    `- Status: ${report.bundles.status} (${report.bundles.note})`,
  );
  for (const p of report.bundles.page)
    out.push(
      `- loaded by taskpane.html (the shared runtime page): ${p.file} ${p.gzipBytes === undefined ? "(not in dist)" : `${kb(p.gzipBytes)} gzip`}${p.officeJs ? " (Office.js)" : ""}`,
    );
  for (const f of report.bundles.functions)
    out.push(`- functions: ${f.file} ${kb(f.bytes)} raw, ${kb(f.gzipBytes)} gzip`);
  for (const f of report.bundles.taskpane)
    out.push(`- task pane: ${f.file} ${kb(f.bytes)} raw, ${kb(f.gzipBytes)} gzip`);
  const copied = report.bundles.copied;
  if (copied.length > 0) {
    const gzip = copied.reduce((a, f) => a + f.gzipBytes, 0);
    out.push(
      `- copied, not built (Office.js from node_modules under dist/assets/, loaded per host): ${copied.length} files, ${kb(gzip)} gzip in all`,
    );
  }
  out.push("", "## Targets", "", "| Target | Result | Detail |", "|---|---|---|");
  for (const t of report.targets)
    out.push(`| ${t.name} | ${t.pass ? "PASS" : "FAIL"} | ${t.detail} |`);
  if (report.notes.length > 0) out.push("", "## Notes", "", ...report.notes.map((n) => `- ${n}`));
  out.push("");
  return out.join("\n");
}
