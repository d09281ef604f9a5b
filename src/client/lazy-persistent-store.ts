// The persistent cache tier while its code is still loading: every call waits for it, the pane sees "opening".

import type { CacheEntry, CacheStore } from "./cache";
import type { PersistentCacheStore, PersistentHealth, StoredRecord } from "./persistent-store";
import { STORAGE_OPEN_TIMEOUT_MS } from "./storage-platform";

/**
 * Stands in for a PersistentCacheStore whose code is a lazy chunk (the runtime page registers the
 * functions without evaluating it). Every tier call is asynchronous already (IndexedDB), so it
 * waits for the load and goes on; the memory tier in front answers warm cells without it. A load
 * that fails leaves the tier `unavailable`, as a database that will not open does: answers then
 * last for this session (functions/addin-cache.ts says so to the pane). A load that has not
 * finished within `timeoutMs` is given up the same way (`timed-out`): every cell not in memory
 * waits for the tier, and the store itself bounds only its database's open.
 *
 * @example new LazyPersistentStore(() => import("./tier").then((m) => m.open(indexedDB)))
 */
export class LazyPersistentStore implements CacheStore {
  private store: PersistentCacheStore | undefined;
  private failed = false;
  private timedOut = false;
  /** beginRecalculation before the load: the store pins from its first use on. */
  private pinFromStart = false;
  private readonly loading: Promise<PersistentCacheStore | undefined>;

  constructor(
    load: () => Promise<PersistentCacheStore>,
    /** @unit ms @default STORAGE_OPEN_TIMEOUT_MS */
    timeoutMs = STORAGE_OPEN_TIMEOUT_MS,
  ) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const loaded = load().then(
      (store) => {
        if (this.timedOut) return undefined;
        this.store = store;
        if (this.pinFromStart) store.beginRecalculation();
        return store;
      },
      () => {
        this.failed = true;
        return undefined;
      },
    );
    const bound = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => {
        this.timedOut = this.store === undefined && !this.failed;
        resolve(undefined);
      }, timeoutMs);
    });
    this.loading = Promise.race([loaded, bound]).finally(() => clearTimeout(timer));
  }

  /**
   * PersistentCacheStore.state; `opening` while the code loads, `unavailable` if it could not,
   * `timed-out` if it did not in time.
   */
  get state(): PersistentHealth {
    if (this.timedOut) return "timed-out";
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
