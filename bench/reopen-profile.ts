// Where a new-process reopen's main-thread time went: its CPU profile read over the measured window.
//
// `BENCH_ONLY=reopen REOPEN_CPU_PROF=/tmp/prof BENCH_MODELS=200 npm run bench` prints it after the
// reopens (bench/reopen-only.ts): the newest run's main-thread profile between the reopen's first
// cell and last value, not the module loading and ts-node compiling before it. Milliseconds per
// part (GC, decompression, decoding, parsing, the cells, the stand-ins) and the functions with the
// most self time.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Parts a reopen's time is told in, first match wins (a frame's function or file, in the stack). */
const PARTS: Array<[string, (fn: string, url: string) => boolean]> = [
  ["garbage collector", (fn) => fn === "(garbage collector)"],
  ["idle", (fn) => fn === "(idle)" || fn === "(program)"],
  [
    "stand-ins (storage, clock, sampler)",
    (_fn, url) => /bench\/(storage-standin|virtual-clock|reopen-child)/.test(url),
  ],
  [
    "JSON.parse + deep freeze (stored form)",
    (fn, url) => url.endsWith("stored-form.ts") || url.endsWith("deep-freeze.ts"),
  ],
  ["TextDecoder", (fn, url) => fn === "decode" && url.includes("encoding")],
  [
    "decompression (DecompressionStream)",
    (_fn, url) => /zlib|webstreams|streams\/|buffer|compress\.ts|join-chunks/.test(url),
  ],
  [
    "warm-up and tiered cache",
    (_fn, url) => /client\/(warm-up|tiered-cache|persistent-store|inflight)\.ts/.test(url),
  ],
  ["cells (functions/, src/)", (_fn, url) => /\/(functions|src)\//.test(url)],
  ["bench cells (scale-cells)", (_fn, url) => url.includes("bench/")],
];

function newest(dir: string, prefix: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.startsWith(prefix))
    .map((f) => join(dir, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
}

/**
 * Prints where the last reopen's time went: the newest main-thread profile in `dir`, read over
 * `window` (the reopen's first cell to its last value, on the profile's clock: ReopenMeasure).
 */
export function printReopenProfile(dir: string, window: readonly [number, number]): void {
  const [from, to] = window;
  // The newest main-thread profile: Node names them CPU.<date>.<time>.<pid>.<thread>.<seq>, the
  // main thread 0 (the sandbox worker's beside it is another thread's).
  const [mainFile] = newest(dir, "CPU.").filter((f) => f.split(".").at(-3) === "0");
  if (mainFile === undefined) throw new Error(`no CPU.*.cpuprofile in ${dir}`);
  const profile = JSON.parse(readFileSync(mainFile, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    const spent = profile.timeDeltas[i + 1] ?? 0;
    if (at >= from && at <= to) self.set(id, (self.get(id) ?? 0) + spent);
  });
  const parts = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const [id, micros] of self) {
    const frame = (byId.get(id) as ProfileNode).callFrame;
    const name = `${frame.functionName || "(anonymous)"} ${frame.url.split("/").slice(-2).join("/")}:${frame.lineNumber}`;
    functions.set(name, (functions.get(name) ?? 0) + micros);
    parts.set(partOf(id, byId, parent), (parts.get(partOf(id, byId, parent)) ?? 0) + micros);
  }
  const ms = (micros: number): string => (micros / 1000).toFixed(0).padStart(7);
  process.stdout.write(`${mainFile}: ${((to - from) / 1e6).toFixed(2)} s measured\n`);
  for (const [part, micros] of [...parts].sort((a, b) => b[1] - a[1]))
    process.stdout.write(`${ms(micros)} ms  ${part}\n`);
  process.stdout.write("self time:\n");
  for (const [name, micros] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, 25))
    process.stdout.write(`${ms(micros)} ms  ${name}\n`);
}

/** The part of the innermost frame on the sample's stack that names one (leaf first). */
function partOf(id: number, byId: Map<number, ProfileNode>, parent: Map<number, number>): string {
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const { functionName, url } = (byId.get(at) as ProfileNode).callFrame;
    const part = PARTS.find(([, test]) => test(functionName, url));
    if (part !== undefined) return part[0];
  }
  return "other (runtime, microtasks)";
}
