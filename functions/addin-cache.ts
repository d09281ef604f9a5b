// The add-in's cache: a memory tier in front of IndexedDB (gzip bytes), or memory only, and which one.

import {
  MemoryCacheStore,
  type CacheStore,
  hasCompression,
  platformIndexedDb,
  loadStoredCheck,
  TieredCacheStore,
  LazyPersistentStore,
} from "../src/client";

/**
 * Memory tier budget, answers as received: a 500-company model (about 290 MB) fits, so its warm
 * recalculations never read answers back from storage (bench: at 256 MB they did, at 2× the CPU).
 */
const MEMORY_TIER_MAX_BYTES = 384 * 1024 * 1024;

/**
 * Where answers are kept, for the task pane: on this computer (IndexedDB), still opening, or in
 * memory only and why (no IndexedDB in this host, no CompressionStream to store the one gzip form,
 * the database refused to open (private browsing, storage blocked), did not open within
 * STORAGE_OPEN_TIMEOUT_MS (WebKit has left the open unsettled), or refused the last write (disk
 * full, storage cleared; answers are saved again once a write succeeds)).
 */
export type CacheStorageState =
  { kind: "disk" } | { kind: "opening" } | { kind: "memory"; reason: MemoryOnlyReason };

type MemoryOnlyReason =
  "no-indexeddb" | "no-compression" | "open-failed" | "open-timeout" | "write-failed";

/** What the cache needs of the platform (injectable for tests). */
export interface CachePlatform {
  indexedDb: IDBFactory | undefined;
  /** CompressionStream and DecompressionStream are there (src/client/storage-platform.ts hasCompression). */
  compression: boolean;
}

let memoryOnlyReason: "no-indexeddb" | "no-compression" | undefined;
let installed: LazyPersistentStore | undefined;

/**
 * The add-in's cache: a memory tier (answers of this session) in front of a persistent tier that
 * survives a restart, IndexedDB holding each answer as gzip bytes (src/client/stored-form.ts).
 * The shared runtime is a browser context (web iframe, WebView2, WKWebView), so IndexedDB
 * is there and far larger than OfficeRuntime.storage's 10 MB, which the cache therefore never uses
 * (Microsoft Learn "Runtimes in Office Add-ins": custom functions outside a shared runtime run in a
 * JavaScript-only runtime; this add-in's manifest asks for the shared one). Microsoft Learn "Persist
 * add-in state and settings": some browsers or user settings block browser storage. So where
 * IndexedDB or CompressionStream is missing, or the database will not open, the cache is the memory
 * tier alone: answers last for this session, and the pane says so (`cacheStorageState`).
 *
 * @example setCacheStore(createAddinCacheStore());
 */
export function createAddinCacheStore(
  platform: CachePlatform = { indexedDb: platformIndexedDb(), compression: hasCompression() },
): TieredCacheStore | MemoryCacheStore {
  const { indexedDb, compression } = platform;
  if (indexedDb === undefined || !compression) {
    memoryOnlyReason = indexedDb === undefined ? "no-indexeddb" : "no-compression";
    installed = undefined;
    return new MemoryCacheStore({ maxBytes: MEMORY_TIER_MAX_BYTES });
  }
  memoryOnlyReason = undefined;
  // The tier's code is a chunk of its own, fetched now: the runtime page registers the functions
  // without evaluating it, and warm cells read the memory tier, which never waits for it.
  installed = new LazyPersistentStore(() =>
    import(/* webpackChunkName: "cache-disk" */ "./persistent-tier").then((m) =>
      m.openPersistentTier(indexedDb),
    ),
  );
  return tiered(installed);
}

/** Where the cache created last keeps answers (the pane's usage panel shows it). */
export function cacheStorageState(): CacheStorageState {
  if (memoryOnlyReason !== undefined) return { kind: "memory", reason: memoryOnlyReason };
  if (installed === undefined) return { kind: "opening" };
  const state = installed.state;
  if (state === "opening") return { kind: "opening" };
  if (state === "open") return { kind: "disk" };
  const reason =
    state === "unavailable"
      ? "open-failed"
      : state === "timed-out"
        ? "open-timeout"
        : "write-failed";
  return { kind: "memory", reason };
}

/**
 * The memory tier in front of a given persistent tier (the bench passes its storage stand-in).
 * @internal The bench and tests build the add-in's cache over a stand-in persistent tier.
 */
export function tiered(persistent: CacheStore): TieredCacheStore {
  // What storage gives back passes the contract check answers from the network pass.
  return new TieredCacheStore(
    new MemoryCacheStore({ maxBytes: MEMORY_TIER_MAX_BYTES }),
    persistent,
    async (key, body) => (await loadStoredCheck()).storedAnswerPasses(key, body),
  );
}
