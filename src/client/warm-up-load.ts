// The reopen's bulk load itself (warm-up.ts starts it): in the cache-disk chunk, with the persistent tier's code.

import type { CacheEntry } from "./cache";
import type { NOT_LOADED, TieredCacheStore } from "./tiered-cache";
import type { BulkReadable, WarmUpOptions } from "./warm-up";

/**
 * Records read per storage call: one IndexedDB transaction each (a transaction per record was most
 * of a reopen's storage cost), few enough that their gzip bytes stay small (~10 KB each).
 */
const RECORDS_PER_READ = 32;

/**
 * Loads the announced `keys` (what cells ask for, `asked`, first) into memory, handing each in;
 * resolves with how many answers were loaded. What it does not hand in (over the budget, or a
 * failure), the caller hands in as not loaded.
 */
export async function loadAnnounced(
  store: TieredCacheStore,
  persistent: BulkReadable,
  keys: readonly string[],
  asked: string[],
  handIn: (key: string, entry: CacheEntry | undefined | typeof NOT_LOADED) => void,
  options: WarmUpOptions,
): Promise<number> {
  const memoryMax = (store.memory as { maxBytes?: number }).maxBytes;
  const budget =
    options.maxBytes ?? (memoryMax !== undefined ? memoryMax * 0.9 : Number.POSITIVE_INFINITY);
  let loaded = 0;
  let bytes = 0;
  const concurrency = Math.max(1, options.concurrency ?? 4);
  /** Still to load, most recently used first; what cells wait for is taken first. */
  const pending = new Set(keys);
  /** How far `asked` has been taken: what a chunk has no room for stays first for the next. */
  let askedTaken = 0;
  const nextChunk = (): string[] => {
    const chunk: string[] = [];
    while (askedTaken < asked.length && chunk.length < RECORDS_PER_READ) {
      const key = asked[askedTaken] as string;
      askedTaken += 1;
      if (pending.delete(key)) chunk.push(key);
    }
    if (askedTaken === asked.length) {
      // Taken whole: emptied in place (the tiered store keeps appending to this array).
      asked.length = 0;
      askedTaken = 0;
    }
    for (const key of pending) {
      if (chunk.length === RECORDS_PER_READ) break;
      pending.delete(key);
      chunk.push(key);
    }
    return chunk;
  };
  while (pending.size > 0 && bytes < budget) {
    const chunk = nextChunk();
    const records = await persistent.records(chunk).catch(() => chunk.map(() => undefined));
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < chunk.length && bytes < budget) {
        const at = next;
        next += 1;
        const key = chunk[at] as string;
        const entry = await persistent.decode(key, records[at]).catch(() => undefined);
        handIn(key, entry);
        if (entry === undefined) continue;
        loaded += 1;
        bytes += entry.bytes;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  }
  return loaded;
}
