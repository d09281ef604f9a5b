// Reopen at warm speed: persisted answers are loaded into the memory tier in bulk before the cells ask.

import type { CacheStore } from "./cache";
import type { TieredCacheStore } from "./tiered-cache";

export interface WarmUpOptions {
  /** Answers read and decompressed at once (each is a storage read, an inflate and a parse). @default 4 */
  concurrency?: number;
  /**
   * Stop once this many bytes (as received) are in memory: more would evict what was just loaded.
   * @unit bytes @default 90% of the memory tier's maxBytes, else no bound
   */
  maxBytes?: number;
}

interface RecentKeys {
  recentKeys(): Promise<string[]>;
}

/**
 * Loads the persistent tier's answers into the memory tier, most recently used first, a few at a
 * time, through the tiered store's own read (a cell asking for an answer being loaded joins that
 * read). A reopened workbook's cells then take the warm path (one synchronous memory read each)
 * instead of one storage read and decompression per answer as cells arrive. Resolves with how many
 * answers were loaded; never throws (a failed read is a miss the cell will fetch).
 *
 * @example void warmMemoryTier(store); // at start-up, before the first recalculation
 */
export async function warmMemoryTier(
  store: TieredCacheStore,
  options: WarmUpOptions = {},
): Promise<number> {
  const persistent = store.persistent as CacheStore & Partial<RecentKeys>;
  let keys: string[];
  try {
    keys = persistent.recentKeys ? await persistent.recentKeys() : await persistent.keys();
  } catch {
    return 0;
  }
  const memoryMax = (store.memory as { maxBytes?: number }).maxBytes;
  const budget =
    options.maxBytes ?? (memoryMax !== undefined ? memoryMax * 0.9 : Number.POSITIVE_INFINITY);
  let loaded = 0;
  let bytes = 0;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < keys.length && bytes < budget) {
      const key = keys[next] as string;
      next += 1;
      const entry = await store.get(key).catch(() => undefined);
      if (entry === undefined) continue;
      loaded += 1;
      bytes += entry.bytes;
    }
  };
  const n = Math.max(1, options.concurrency ?? 4);
  await Promise.all(Array.from({ length: n }, worker));
  return loaded;
}
