// The reopen's bulk load's options and what it needs of the persistent tier: shared by warm-up.ts (which starts it) and warm-up-load.ts (the load, in the cache-disk chunk).

import type { CacheEntry } from "./cache";
import type { StoredRecord } from "./persistent-store";

export interface WarmUpOptions {
  /** Answers decompressed at once (each an inflate and a parse). @default 4 */
  concurrency?: number;
  /**
   * Stop once this many bytes (as received) are in memory: more would evict what was just loaded.
   * @unit bytes @default 90% of the memory tier's maxBytes, else no bound
   */
  maxBytes?: number;
  /**
   * The load ends once no cell has asked for an answer for this long (a cell asking later reads
   * storage itself). @unit ms @default 30000
   */
  idleMs?: number;
}

/** What the bulk load needs of the persistent tier (src/client/persistent-store.ts has it). */
export interface BulkReadable {
  recentKeys(): Promise<string[]>;
  records(keys: readonly string[]): Promise<Array<StoredRecord | undefined>>;
  decode(key: string, record: StoredRecord | undefined): Promise<CacheEntry | undefined>;
}
