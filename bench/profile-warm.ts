// BENCH_ONLY=profile-warm (bench/run.ts): Model N (BENCH_MODELS, default 50) alone; PROFILE_OUT=file.cpuprofile records its warm recalculations.
import { Session } from "node:inspector";
import { writeFileSync } from "node:fs";
import { getHeapSpaceStatistics, writeHeapSnapshot } from "node:v8";
import { forgetDataset } from "../sandbox/data";
import { probe } from "./probe";
import { runModel } from "./scale-run";
import { modelBrowserCompression } from "./native-compression";

const out = process.env["PROFILE_OUT"];
/** HEAP=1: a sampling allocation profile of the warm runs instead (written to PROFILE_OUT). */
const heap = process.env["HEAP"] === "1";

/**
 * Heap over the Model's start per phase (PHASES=1: the same figures as the bench's phase table,
 * printed as each phase ends, and the script stops after the reopen); SNAPSHOT=file: a heap
 * snapshot after the second warm recalculation (everything the runtime retains then; SNAPSHOT_AT), then stop.
 */
const snapshot = process.env["SNAPSHOT"];
const phasesOnly = process.env["PHASES"] === "1";
/** SNAPSHOT_AT=3: the snapshot after that warm recalculation instead (3: after the workbook closed). */
const snapshotAt = process.env["SNAPSHOT_AT"] ?? "2";
let heapStart = 0;
let heapPeak = 0;
/** The heap's spaces when the phase's peak was sampled (PHASES=1). */
let peakSpaces = "";
let sampler: ReturnType<typeof setInterval> | undefined;
const mb = (bytes: number): string => (bytes / 1048576).toFixed(0);

/** True when the line ended what this run was for (then the rest of the Model is not waited for). */
function phases(line: string): boolean {
  const used = (): number => process.memoryUsage().heapUsed;
  if (/ cold\.\.\.$/.test(line)) {
    // Logged right after runModel's GC and its own "before" reading.
    heapStart = used();
    heapPeak = heapStart;
    if (phasesOnly)
      sampler = setInterval(() => {
        const now = used();
        if (now <= heapPeak) return;
        heapPeak = now;
        // Where the peak sits (new space, old space, large objects): what kind of garbage it is.
        peakSpaces = getHeapSpaceStatistics()
          .map((s) => `${s.space_name.replace("_space", "")} ${mb(s.space_used_size)}`)
          .join(", ");
      }, 25);
    return false;
  }
  // Each phase's line comes after its closing GC: heapUsed is what it retained.
  if (/ distinct\), |^ {2}warm \d:|^ {2}reopen:/.test(line)) {
    if (phasesOnly) {
      process.stdout.write(
        `    heap over start: peak ${mb(heapPeak - heapStart)} MB, retained ${mb(used() - heapStart)} MB; at the peak (MB): ${peakSpaces}\n`,
      );
      heapPeak = used();
    }
    if (snapshot !== undefined && new RegExp(`^ {2}warm ${snapshotAt}:`).test(line)) {
      process.stdout.write(`snapshot: ${writeHeapSnapshot(snapshot)}\n`);
      process.exit(0);
    }
    if (phasesOnly && /^ {2}reopen:/.test(line)) {
      clearInterval(sampler);
      process.exit(0);
    }
  }
  return false;
}

/** Runs Model N alone with the profiling asked for (bench/run.ts, BENCH_ONLY=profile-warm). */
export async function profileWarm(): Promise<void> {
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object): Promise<unknown> =>
    new Promise((resolve, reject) =>
      session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))),
    );
  modelBrowserCompression();
  const facts = await probe(50);
  forgetDataset();
  const taken = new Set(facts.listedCodes);
  for (const count of (process.env["BENCH_MODELS"] ?? "50").split(",").map(Number)) {
    const r = await runModel(facts, taken, count, (line) => {
      process.stdout.write(`${line}\n`);
      if (phases(line)) return;
      // COLD_MS=n: a live-heap sample of the cold run n ms (real time) after it starts.
      const coldMs = Number(process.env["COLD_MS"] ?? 0);
      // COLD_ALLOC=1: every allocation of the cold run (collected ones too), stopped when it ends.
      // COLD_ALLOC=reopen: the same for the reopen.
      if (out !== undefined && process.env["COLD_ALLOC"] === "reopen") {
        if (/^ {2}warm 3:/.test(line))
          void post("HeapProfiler.enable").then(() =>
            post("HeapProfiler.startSampling", {
              samplingInterval: 16384,
              includeObjectsCollectedByMajorGC: true,
              includeObjectsCollectedByMinorGC: true,
            }),
          );
        if (/^ {2}reopen:/.test(line))
          void post("HeapProfiler.stopSampling").then((res) =>
            writeFileSync(out, JSON.stringify((res as { profile: unknown }).profile)),
          );
        return;
      }
      if (out !== undefined && process.env["COLD_ALLOC"] === "1") {
        if (/ cold\.\.\.$/.test(line))
          void post("HeapProfiler.enable").then(() =>
            post("HeapProfiler.startSampling", {
              samplingInterval: 16384,
              includeObjectsCollectedByMajorGC: true,
              includeObjectsCollectedByMinorGC: true,
            }),
          );
        if (/ distinct\), /.test(line))
          void post("HeapProfiler.stopSampling").then((res) =>
            writeFileSync(out, JSON.stringify((res as { profile: unknown }).profile)),
          );
        return;
      }
      if (out !== undefined && coldMs > 0 && / cold\.\.\.$/.test(line)) {
        void post("HeapProfiler.enable").then(() => post("HeapProfiler.startSampling"));
        setTimeout(() => {
          void post("HeapProfiler.stopSampling").then((res) =>
            writeFileSync(out, JSON.stringify((res as { profile: unknown }).profile)),
          );
        }, coldMs);
      }
      if (coldMs > 0) return;
      // The cold run's summary line comes right before the warm runs; "warm 3" ends them.
      if (out !== undefined && / distinct\), /.test(line))
        void (heap
          ? post("HeapProfiler.enable").then(() =>
              post("HeapProfiler.startSampling", {
                samplingInterval: 4096,
                includeObjectsCollectedByMajorGC: true,
                includeObjectsCollectedByMinorGC: true,
              }),
            )
          : post("Profiler.enable").then(() => post("Profiler.start")));
      // PROFILE_UNTIL=n: stop after warm recalculation n (1 profiles the first one alone).
      const until = process.env["PROFILE_UNTIL"] ?? "3";
      if (out !== undefined && new RegExp(`^ {2}warm ${until}:`).test(line))
        void post(heap ? "HeapProfiler.stopSampling" : "Profiler.stop").then((res) =>
          writeFileSync(out, JSON.stringify((res as { profile: unknown }).profile)),
        );
    });
    process.stdout.write(
      `heap growth ${Math.round(r.heapGrowthMB)} MB; phases ${JSON.stringify(r.phaseHeapMB)}; memory tier ${Math.round(r.memoryTierMB)} MB in ${r.memoryTierEntries}\n`,
    );
  }
  session.disconnect();
}
