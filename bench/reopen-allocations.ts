// What a reopen allocates, garbage included (REOPEN_ALLOC_PROF=<file>): V8's sampling heap profile.

import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";

/**
 * Starts V8's sampling heap profiler keeping the samples of objects a GC has already collected
 * (what a heap snapshot or `--heap-prof` no longer shows: the garbage that makes a reopen's GC
 * time and its heap peak). Returns what stops it and writes the profile (Chrome DevTools' Memory
 * tab opens it), or undefined without `path`.
 */
export async function profileAllocations(
  path: string | undefined,
): Promise<(() => Promise<void>) | undefined> {
  if (path === undefined || path === "") return undefined;
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object): Promise<unknown> =>
    new Promise((resolve, reject) =>
      session.post(method, params, (error, result) =>
        error === null ? resolve(result) : reject(error),
      ),
    );
  await post("HeapProfiler.startSampling", {
    samplingInterval: 64 * 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  return async () => {
    const { profile } = (await post("HeapProfiler.stopSampling")) as { profile: unknown };
    writeFileSync(path, JSON.stringify(profile));
    session.disconnect();
  };
}
