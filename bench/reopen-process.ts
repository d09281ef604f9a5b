// Starts bench/reopen-child.ts in a new Node process and waits for what it measured.

import { fork } from "node:child_process";
import type { FloorMeasure, ReopenJob, ReopenMeasure } from "./reopen-child";

/**
 * Reopens a Model in a child process (cold JIT, fresh module state: what a reopened workbook's
 * runtime starts from), unlike a new client in the bench's own warm process.
 */
export function reopenInNewProcess(
  job: ReopenJob,
  options: ChildOptions = {},
): Promise<ReopenMeasure> {
  return inChild(job, options);
}

/**
 * nodeStreams: Node's own compression streams instead of node:zlib standing in for the browser's
 * native ones (bench/native-compression.ts), for the comparison. parts: the reopen's CPU told in
 * parts after it (bench/reopen-child.ts partsOf, REOPEN_PARTS=1), outside its measured time.
 */
interface ChildOptions {
  nodeStreams?: boolean;
  parts?: boolean;
}

/**
 * The reopen's floor over the same saved answers, in a child process of its own as the reopen is
 * (cold JIT): read, decompress and parse every stored answer (bench/reopen-child.ts `floor`).
 */
export function reopenFloorInNewProcess(storagePath: string): Promise<FloorMeasure> {
  return inChild({ floorOf: storagePath }, {});
}

function inChild<M>(job: ReopenJob | { floorOf: string }, options: ChildOptions): Promise<M> {
  return new Promise((resolve, reject) => {
    const child = fork(require.resolve("./reopen-child.ts"), [], {
      env: {
        ...process.env,
        ...(options.nodeStreams ? { BENCH_NODE_STREAMS: "1" } : {}),
        ...(options.parts ? { REOPEN_PARTS: "1" } : {}),
      },
      // REOPEN_CPU_PROF=<dir>: a V8 CPU profile of the child, for finding where a reopen's time goes.
      execArgv: [
        "--expose-gc",
        "-r",
        "ts-node/register",
        ...cpuProfile(process.env["REOPEN_CPU_PROF"]),
        // REOPEN_NODE_FLAGS="--trace-gc": more V8 flags for the child (what its GC does, and when).
        ...(process.env["REOPEN_NODE_FLAGS"] ?? "").split(" ").filter((f) => f !== ""),
      ],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    let reply: { measure?: M; error?: string } | undefined;
    child.once("message", (message: { measure?: M; error?: string }) => (reply = message));
    // Settled at exit, not at the reply: the child's CPU profile (REOPEN_CPU_PROF) is written as
    // it exits, and bench/reopen-only.ts reads it next.
    child.once("exit", (code) => {
      if (code === 0 && reply?.measure !== undefined) resolve(reply.measure);
      else
        reject(
          new Error(
            `reopen in a new process failed (exit ${code}): ${reply?.error ?? "no answer"}`,
          ),
        );
    });
    child.send(job);
  });
}

function cpuProfile(dir: string | undefined): string[] {
  return dir === undefined || dir === "" ? [] : ["--cpu-prof", `--cpu-prof-dir=${dir}`];
}
