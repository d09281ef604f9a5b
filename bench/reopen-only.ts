// BENCH_ONLY=reopen (bench/run.ts): only the new-process reopen of Model N (cold run once, its storage saved, then reopens).
//
// `BENCH_ONLY=reopen BENCH_MODELS=50 npm run bench`: the cold run's storage is kept in
// $TMPDIR/kaisha-reopen-<N>.bin (with its job beside it) and reused by later runs; REOPEN_RUNS
// (default 1) reopens in a row; REOPEN_FRESH=1 redoes the cold run (a saved storage is read by any
// later version: one of another version's stamp is checked on reading, stored-stamp.ts, and the run
// warns of it, bench/saved-storage-stamp.ts). Prints the
// reopen's floor (read, decompress and parse of every stored answer, in a new process) and, per
// reopen, its wall and process CPU as multiples of the floor's (on a loaded machine, CPU over CPU
// is the steadier of the two).
// Looking into one: REOPEN_CPU_PROF=<dir> (CPU profiles, and where the last reopen's time went,
// printed by bench/reopen-profile.ts), REOPEN_ALLOC_PROF=<file> (what the reopen allocates,
// garbage included), REOPEN_NODE_FLAGS="--trace-gc" (V8 flags for the child), REOPEN_PARTS=1 (the
// CPU of its parts measured apart after it: decoding every answer, the cells' first recalculation
// from memory and a warm one; bench/reopen-child.ts partsOf).

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { forgetDataset } from "../sandbox/data";
import { setClientForTesting } from "../src/session";
import { aliasCompanies } from "./company-aliases";
import { probe } from "./probe";
import type { ReopenJob } from "./reopen-child";
import { reopenFloorInNewProcess, reopenInNewProcess } from "./reopen-process";
import { recalculateScale, scaleCells, scaleCompaniesOf } from "./scale-cells";
import { LIVE, makeClient, storeOver, timedFetch } from "./live-client";
import { cellErrorText } from "./sides";
import { StorageStandIn } from "./storage-standin";
import { VirtualClock } from "./virtual-clock";
import { startWorkerSandbox } from "./worker-sandbox";
import { SANDBOX_DEFAULT_NOW } from "../sandbox/data/model";
import { modelBrowserCompression } from "./native-compression";
import { printReopenProfile } from "./reopen-profile";
import { failuresText } from "./failure-tally";
import { otherVersionWarning } from "./saved-storage-stamp";

async function coldJob(count: number, storagePath: string): Promise<ReopenJob> {
  const facts = await probe(50);
  forgetDataset();
  const aliased = aliasCompanies(facts.codes, new Set(facts.listedCodes), count);
  const companies = scaleCompaniesOf(facts, aliased);
  const clock = new VirtualClock(Date.parse(SANDBOX_DEFAULT_NOW));
  clock.start();
  const sandbox = startWorkerSandbox(
    { ratePerMinute: LIVE.ratePerMinute, dailyLimit: LIVE.dailyLimit, startMs: clock.now() },
    aliased,
    clock.now,
    clock.hold,
  );
  const wire = timedFetch(sandbox.app, clock, LIVE.latencyMs);
  const disk = new StorageStandIn(clock.sleep, LIVE.storageLatencyMs);
  const store = storeOver(disk, clock);
  const client = makeClient(wire.fetch, clock, store);
  setClientForTesting(client, { lang: "en" }, store);
  const cells = scaleCells(companies, facts.pricesFrom5y, facts.lastTradingDay, true);
  const outcome = await recalculateScale(cells, cellErrorText, undefined);
  const cellRequests = wire.counters.requests;
  // The background's work left after the cells (results-day histories of companies whose results
  // are near, at the lowest priority) is done before the workbook closes, as in the full bench's
  // cold phase (bench/scale-run.ts): the storage saved then has nothing due, so the reopen sends
  // nothing. Saved straight after the cells, the reopen sent those look-ups (36-50 at Model 500).
  await client.revalidation().idle();
  await store.flush();
  client.revalidation().pause();
  process.stdout.write(
    `cold: ${outcome.values}/${outcome.cells} values, ${cellRequests} requests, then ${wire.counters.requests - cellRequests} in the background\n`,
  );
  disk.save(storagePath);
  const job = {
    aliased,
    companies,
    pricesFrom: facts.pricesFrom5y,
    pricesTo: facts.lastTradingDay,
    storagePath,
    nowMs: clock.now(),
  };
  clock.stop();
  await sandbox.close();
  setClientForTesting(undefined);
  return job;
}

/** Runs the reopen alone (bench/run.ts, BENCH_ONLY=reopen); writes nothing into bench/. */
export async function reopenOnly(): Promise<void> {
  modelBrowserCompression();
  const count = Number((process.env["BENCH_MODELS"] ?? "50").split(",")[0]);
  const storagePath = join(tmpdir(), `kaisha-reopen-${count}.bin`);
  const jobPath = `${storagePath}.json`;
  const reused = existsSync(jobPath) && process.env["REOPEN_FRESH"] !== "1";
  const job: ReopenJob = reused
    ? (JSON.parse(readFileSync(jobPath, "utf8")) as ReopenJob)
    : await coldJob(count, storagePath);
  if (reused) process.stdout.write(otherVersionWarning(storagePath));
  writeFileSync(jobPath, JSON.stringify(job));
  const runs = Number(process.env["REOPEN_RUNS"] ?? 1);
  const floor = await reopenFloorInNewProcess(storagePath);
  process.stdout.write(
    `Model ${count} reopen's floor: ${floor.seconds.toFixed(2)} s to read, decompress and parse ${floor.answers} answers (${floor.jsonMB.toFixed(0)} MB of JSON), ${floor.cpuSeconds.toFixed(2)} s CPU\n`,
  );
  const profiles = process.env["REOPEN_CPU_PROF"];
  let window: [number, number] | undefined;
  for (let i = 0; i < runs; i += 1) {
    const m = await reopenInNewProcess(job);
    window = m.windowMicros;
    // CPU against CPU: under other processes' load, steadier than wall against wall.
    const cpuRatio = (m.cpuMicrosPerCell * m.cells) / 1e6 / floor.cpuSeconds;
    process.stdout.write(
      `Model ${count} reopen: ${m.wallSeconds.toFixed(2)} s wall (${(m.wallSeconds / floor.seconds).toFixed(2)} × the floor), ${m.values}/${m.cells} values, ${m.requests} requests, heap +${m.heapGrowthMB.toFixed(0)} MB, ArrayBuffers +${m.arrayBuffersGrowthMB.toFixed(0)} MB, ${m.cpuMicrosPerCell.toFixed(1)} µs CPU per cell (${cpuRatio.toFixed(2)} × the floor's CPU)${failuresText(m.failures)}\n`,
    );
    const p = m.parts;
    if (p !== undefined)
      process.stdout.write(
        `  parts, JIT warm (s CPU): every answer read into memory ${p.decode.toFixed(2)}, the cells' first recalculation from memory ${p.firstCells.toFixed(2)}, a warm one ${p.warmCells.toFixed(2)}; the reopen less these ${((m.cpuMicrosPerCell * m.cells) / 1e6 - p.decode - p.firstCells).toFixed(2)}\n`,
      );
  }
  if (profiles !== undefined && profiles !== "" && window !== undefined)
    printReopenProfile(profiles, window);
}
