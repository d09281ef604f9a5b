// Reopen at warm speed: persisted answers are loaded into the memory tier in bulk before the cells ask.

import type { CacheEntry } from "./cache";
import type { StoredRecord } from "./persistent-store";
import { NOT_LOADED, type TieredCacheStore } from "./tiered-cache";

export interface WarmUpOptions {
  /** Answers decompressed at once (each an inflate and a parse). @default 4 */
  concurrency?: number;
  /**
   * Stop once this many bytes (as received) are in memory: more would evict what was just loaded.
   * @unit bytes @default 90% of the memory tier's maxBytes, else no bound
   */
  maxBytes?: number;
}

/** What the bulk load needs of the persistent tier (src/client/persistent-store.ts has it). */
interface BulkReadable {
  recentKeys(): Promise<string[]>;
  records(keys: readonly string[]): Promise<Array<StoredRecord | undefined>>;
  decode(key: string, record: StoredRecord | undefined): Promise<CacheEntry | undefined>;
}

/**
 * Records read per storage call: one IndexedDB transaction each (a transaction per record was most
 * of a reopen's storage cost), few enough that their gzip bytes stay small (~10 KB each).
 */
const RECORDS_PER_READ = 32;

function isBulkReadable(store: unknown): store is BulkReadable {
  const s = store as Partial<BulkReadable>;
  return (
    typeof s.recentKeys === "function" &&
    typeof s.records === "function" &&
    typeof s.decode === "function"
  );
}

/**
 * Loads the persistent tier's answers into the memory tier, most recently used first: records
 * read many per storage call, decompressed a few at a time. Every key is announced to the tiered
 * store first (`expect`), so a cell asking before its answer is loaded waits for this load rather
 * than reading storage itself; the reopened workbook's cells then take the warm path (one
 * synchronous memory read each). Resolves with how many answers were loaded; never throws (a
 * failed read is a miss the cell will fetch).
 *
 * @example void warmMemoryTier(store); // at start-up, before the first recalculation
 */
export async function warmMemoryTier(
  store: TieredCacheStore,
  options: WarmUpOptions = {},
): Promise<number> {
  const persistent = store.persistent;
  if (!isBulkReadable(persistent)) return 0;
  // Announced at once (the index read under way): cells arriving meanwhile wait for the keys;
  // keys already in memory or being read are not read again. A failed index read loads nothing.
  const { announced: keys, asked, handIn } = await store.expect(persistent.recentKeys());
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
  try {
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
  } finally {
    // What the load did not bring (over the budget, or a failure): a cell asking reads it itself.
    for (const key of keys) handIn(key, NOT_LOADED);
  }
  return loaded;
}
