// The persistent cache tier while its code is still loading: every call waits for it, the pane sees "opening".

import type { CacheEntry, CacheStore } from "./cache";
import type { PersistentCacheStore, PersistentHealth, StoredRecord } from "./persistent-store";

/**
 * Stands in for a PersistentCacheStore whose code is a lazy chunk (the runtime page registers the
 * functions without evaluating it). Every tier call is asynchronous already (IndexedDB), so it
 * waits for the load and goes on; the memory tier in front answers warm cells without it. A load
 * that fails leaves the tier `unavailable`, as a database that will not open does: answers then
 * last for this session (functions/addin-cache.ts says so to the pane).
 *
 * @example new LazyPersistentStore(() => import("./tier").then((m) => m.open(indexedDB)))
 */
export class LazyPersistentStore implements CacheStore {
  private store: PersistentCacheStore | undefined;
  private failed = false;
  /** beginRecalculation before the load: the store pins from its first use on. */
  private pinFromStart = false;
  private readonly loading: Promise<PersistentCacheStore | undefined>;

  constructor(load: () => Promise<PersistentCacheStore>) {
    this.loading = load().then(
      (store) => {
        this.store = store;
        if (this.pinFromStart) store.beginRecalculation();
        return store;
      },
      () => {
        this.failed = true;
        return undefined;
      },
    );
  }

  /** PersistentCacheStore.state; `opening` while the code loads, `unavailable` if it could not. */
  get state(): PersistentHealth {
    return this.store?.state ?? (this.failed ? "unavailable" : "opening");
  }

  beginRecalculation(): void {
    if (this.store !== undefined) this.store.beginRecalculation();
    else this.pinFromStart = true;
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    return (await this.loading)?.get(key);
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    await (await this.loading)?.set(key, entry);
  }

  async delete(key: string): Promise<void> {
    await (await this.loading)?.delete(key);
  }

  async clear(): Promise<void> {
    await (await this.loading)?.clear();
  }

  async keys(): Promise<string[]> {
    return (await (await this.loading)?.keys()) ?? [];
  }

  async recentKeys(): Promise<string[]> {
    return (await (await this.loading)?.recentKeys()) ?? [];
  }

  async records(keys: readonly string[]): Promise<Array<StoredRecord | undefined>> {
    return (await (await this.loading)?.records(keys)) ?? keys.map(() => undefined);
  }

  async decode(key: string, record: StoredRecord | undefined): Promise<CacheEntry | undefined> {
    return (await this.loading)?.decode(key, record);
  }

  async flush(): Promise<void> {
    await (await this.loading)?.flush();
  }
}
