// A CacheStore that answers from its primary store and mirrors every write into a shadow store, so
// the benchmark can replay a warm recalculation against an unbounded memory tier afterwards.
import type { CacheEntry, CacheStore } from "../src/client/cache";

/**
 * Reads from `primary` only (the add-in's behaviour is unchanged); `shadow` receives every write.
 * @example const tee = new TeeStore(officeStore, new MemoryCacheStore({ maxBytes: 2 ** 31 }));
 */
export class TeeStore implements CacheStore {
  constructor(
    readonly primary: CacheStore,
    readonly shadow: CacheStore,
  ) {}

  get(key: string): Promise<CacheEntry | undefined> {
    return this.primary.get(key);
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    await Promise.all([this.primary.set(key, entry), this.shadow.set(key, entry)]);
  }

  async delete(key: string): Promise<void> {
    await Promise.all([this.primary.delete(key), this.shadow.delete(key)]);
  }

  async clear(): Promise<void> {
    await Promise.all([this.primary.clear(), this.shadow.clear()]);
  }

  keys(): Promise<string[]> {
    return this.primary.keys();
  }
}
