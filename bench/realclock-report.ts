// The real-clock cold builds in results.json and RESULTS.md, and their targets (first company, the sheet on screen, 429s, cells that gave up).

import { cpus, loadavg } from "node:os";
import type { RealClockResult } from "./realclock-run";

/** A bench target as run.ts prints it. */
interface RealClockTarget {
  name: string;
  pass: boolean;
  detail: string;
}

/** The targets for Model 500's cold build (Model 50's figures are reported, not held to them). */
export function realClockTargets(results: readonly RealClockResult[]): RealClockTarget[] {
  return results
    .filter((r) => r.companies === 500)
    .flatMap((r) => [
      {
        name: `${r.name}: first complete company <= 15 s (real clock, shortened)`,
        pass: r.firstCompanyCompleteSeconds <= 15,
        detail: `${r.firstCompanyCompleteSeconds} s`,
      },
      {
        name: `${r.name}: the sheet on screen's first ${r.visibleCompanies} companies complete <= 6 min`,
        pass: r.visibleSheetCompleteSeconds <= 360,
        detail: `${(r.visibleSheetCompleteSeconds / 60).toFixed(1)} min`,
      },
      {
        name: `${r.name}: 0 × 429 and 0 cells left for a manual recalculation under jitter and load`,
        pass: r.jitter429 === 0 && r.leftForManualCells === 0,
        detail: `${r.jitter429} × 429, ${r.jitterGaveUpCells} cells gave up, ${r.leftForManualCells} left for a manual recalculation`,
      },
    ]);
}

/** Adds each real-clock run's fields to its Model's entry of results.json (by name). */
export function withRealClock(entries: object[], results: readonly RealClockResult[]): object[] {
  return entries.map((entry) => {
    const r = results.find((x) => x.name === (entry as { name?: unknown }).name);
    if (r === undefined) return entry;
    return {
      ...entry,
      firstCompanyCompleteSeconds: r.firstCompanyCompleteSeconds,
      visibleSheetCompleteSeconds: r.visibleSheetCompleteSeconds,
      jitter429: r.jitter429,
      jitterGaveUpCells: r.jitterGaveUpCells,
      jitterLeftForManualCells: r.leftForManualCells,
      realClock: r,
    };
  });
}

/** The machine a run was on, for the section's heading. */
function machine(): string {
  const cpu = cpus()[0]?.model ?? "unknown CPU";
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(", ");
  return `${cpus().length} × ${cpu}, load average ${load} (1, 5, 15 min) at the end of the run`;
}

/** The RESULTS.md section of the real-clock runs. */
export function realClockMarkdown(results: readonly RealClockResult[], when: string): string {
  const lines = [
    "## Cold build on a real clock (bench/realclock-run.ts)",
    "",
    `Run ${when} on ${machine()}.`,
    "",
    "Shortened: every clock (the add-in's pacer, 429 pauses, call deadlines and retry sleeps, the worker sandbox's rolling minute) runs at real speed while the cells are handed over (Excel's runtime calling each cell's function, 1,000 per macrotask: CPU work that takes as long at the live limit), then `speed` times faster than real, so the live limit of 60 a minute is 60 × speed a minute in real time, in the same proportions (the pacer's margin, Retry-After, the 120 s bound). The network and the CPU run in real time: each request arrives 2–40 ms after it is sent (3% of them 150–400 ms) and its answer comes as late again; the sandbox's limiter stamps each request when it arrives; the event loop is blocked once for the busy phase, 3 s real after the hand-over (the rolling minute full), for its time at the live limit (2 s: 2 s ÷ speed real, in proportion like every other wait; a block of 2 s real would stand for 40 s at ×20). Times are stated at the live limit: the hand-over's real seconds, then real seconds × speed, so CPU time after the hand-over counts speed times over (pessimistic); in brackets the same moment in real seconds, a lower bound. A company is complete only once its last cell, on the Prices sheet at the end of the bench's cell order, has been handed over. The clock starts once the sandbox worker answers and the add-in's code is loaded (one cell of each kind of the last company, through a client of its own, before the timed client starts with nothing stored). The 120 s bound is kept at 120 s of real time (it is for the API's own slowness, which is not sped up). A cell that gave up is called again when the add-in has its answer (as the pane's recalc-on-revalidation does), and the run ends when the queue is empty. The sheet on screen is `Sheet 1` (bench/scale-cells.ts puts every fifth company there); its first 50 companies by row (Model 50: its 10) are the ones timed.",
    "",
    "| Workload | speed | requests | first value | first complete company (wall) | sheet on screen complete (wall) | last value | 429 | cells gave up / left for a manual recalculation | cells with a data error | hand-over | busy phase | wall |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...results.map(
      (r) =>
        `| ${r.name} | ×${r.speed} | ${r.requests.toLocaleString("en-US")} | ${r.firstValueSeconds} s | ${r.firstCompanyCompleteSeconds} s (${r.wallFirstCompanySeconds} s) | ${(r.visibleSheetCompleteSeconds / 60).toFixed(1)} min, ${r.visibleCompanies} companies (${r.wallVisibleSheetSeconds} s) | ${(r.lastValueSeconds / 60).toFixed(1)} min | ${r.jitter429} | ${r.jitterGaveUpCells} / ${r.leftForManualCells} | ${r.otherErrorCells} | ${r.handOverSeconds} s real | ${r.busyMs} ms (${Math.round(r.busyMs / r.speed)} ms real) | ${r.wallSeconds} s |`,
    ),
    "",
    "Cells with a data error: the API's data does not give the value (e.g. an LTM of a half-yearly item: fewer than four consecutive quarters), the same cells in every run; none is a pacing or waiting error.",
    "",
    "Targets (Model 500):",
    "",
    ...realClockTargets(results).map((t) => `- ${t.pass ? "PASS" : "FAIL"} ${t.name}: ${t.detail}`),
    "",
  ];
  return lines.join("\n");
}
