// BENCH_ONLY=browser (bench/run.ts): only the Chromium reopen of Model N, over the storage BENCH_ONLY=reopen saved.
//
// `BENCH_ONLY=reopen BENCH_MODELS=50 npm run bench` first (its cold run's storage and job are kept
// in $TMPDIR/kaisha-reopen-<N>.bin[.json]); then `BENCH_ONLY=browser BENCH_MODELS=50 npm run bench`
// builds the e2e bundle when out of date, measures the floor in a new process and reopens in
// Chromium, printing the wall ratio and the page's CPU (CDP Profiler) over the floor's CPU.
// BROWSER_CPU_PROF=<file.cpuprofile> keeps the reopen's profile (bench/browser-run.ts).

import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { browserRun } from "./browser-run";
import { BASE_URL } from "./live-client";
import type { ReopenJob } from "./reopen-child";
import { reopenFloorInNewProcess } from "./reopen-process";
import { scaleCells } from "./scale-cells";
import { failuresText } from "./failure-tally";

/** Runs the Chromium reopen alone (bench/run.ts, BENCH_ONLY=browser); writes nothing into bench/. */
export async function browserOnly(): Promise<void> {
  const count = Number((process.env["BENCH_MODELS"] ?? "50").split(",")[0]);
  const storagePath = join(tmpdir(), `kaisha-reopen-${count}.bin`);
  const jobPath = `${storagePath}.json`;
  if (!existsSync(jobPath))
    throw new Error(`${jobPath} is missing: run BENCH_ONLY=reopen BENCH_MODELS=${count} first`);
  const job = JSON.parse(readFileSync(jobPath, "utf8")) as ReopenJob;
  const build = spawnSync(
    process.execPath,
    [require.resolve("ts-node/dist/bin"), join(__dirname, "build-for-chromium.ts")],
    { cwd: join(__dirname, ".."), stdio: "inherit" },
  );
  if (build.status !== 0) throw new Error(`the e2e build failed (exit ${build.status})`);
  const floor = await reopenFloorInNewProcess(storagePath);
  process.stdout.write(
    `Model ${count} reopen's floor: ${floor.seconds.toFixed(2)} s, ${floor.cpuSeconds.toFixed(2)} s CPU (${floor.answers} answers)\n`,
  );
  const cells = scaleCells(job.companies, job.pricesFrom, job.pricesTo, true);
  const runs = Number(process.env["REOPEN_RUNS"] ?? 1);
  for (let i = 0; i < runs; i += 1) {
    const b = await browserRun(cells, storagePath, BASE_URL, job.nowMs);
    const cpu =
      b.reopenCpuSeconds === undefined
        ? ""
        : `, page CPU ${b.reopenCpuSeconds.toFixed(2)} s (${(b.reopenCpuSeconds / floor.cpuSeconds).toFixed(2)} × the floor's CPU)`;
    process.stdout.write(
      `Model ${count} Chromium reopen: ${b.reopenWallSeconds.toFixed(2)} s wall (${(b.reopenWallSeconds / floor.seconds).toFixed(2)} × the floor)${cpu}, Chromium's own floor ${b.pageFloor.seconds.toFixed(2)} s (read ${b.pageFloor.readSeconds.toFixed(2)}, gunzip ${b.pageFloor.gunzipSeconds.toFixed(2)}, parse ${b.pageFloor.parseSeconds.toFixed(2)}; the reopen ${(b.reopenWallSeconds / b.pageFloor.seconds).toFixed(2)} × it), ${b.values}/${b.cells} values, ${b.requests} requests, heap +${b.reopenHeapGrowthMB.toFixed(0)} MB${failuresText(b.failures)}\n`,
    );
  }
}
