// Samples the process's memory while a workload runs, so the benchmark can report its peak.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

export interface MemoryPeak {
  /** Highest heapUsed seen, in bytes. */
  heapUsedPeak: number;
  /** heapUsed before the workload started (after a GC when available), in bytes. */
  heapUsedBefore: number;
  /** Highest resident set size seen, in bytes. */
  rssPeak: number;
}

let gc: (() => void) | undefined;

/** A full GC when the runtime allows it, so "before" numbers do not carry the previous workload. */
export function collectGarbage(): void {
  if (gc === undefined) {
    try {
      setFlagsFromString("--expose-gc");
      gc = runInNewContext("gc") as () => void;
    } catch {
      gc = () => undefined;
    }
  }
  gc();
}

/**
 * Runs `work` while sampling process.memoryUsage() every `everyMs` (and once more at the end).
 * @example const { result, memory } = await withMemorySampling(() => runModel());
 */
export async function withMemorySampling<T>(
  work: () => Promise<T>,
  everyMs = 25,
): Promise<{ result: T; memory: MemoryPeak }> {
  collectGarbage();
  const start = process.memoryUsage();
  const memory: MemoryPeak = {
    heapUsedBefore: start.heapUsed,
    heapUsedPeak: start.heapUsed,
    rssPeak: start.rss,
  };
  const sample = (): void => {
    const now = process.memoryUsage();
    memory.heapUsedPeak = Math.max(memory.heapUsedPeak, now.heapUsed);
    memory.rssPeak = Math.max(memory.rssPeak, now.rss);
  };
  const timer = setInterval(sample, everyMs);
  try {
    const result = await work();
    sample();
    return { result, memory };
  } finally {
    clearInterval(timer);
  }
}
