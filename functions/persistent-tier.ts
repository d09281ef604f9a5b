// The persistent cache tier's code (IndexedDB backend, stored form, gzip): a lazy chunk, loaded right after the functions register.

import { PersistentCacheStore, openIdbBackend } from "../src/client";

/**
 * The persistent tier on `indexedDb`, opening (functions/addin-cache.ts creates it).
 *
 * @example openPersistentTier(indexedDB).state // "opening"
 */
export function openPersistentTier(indexedDb: IDBFactory): PersistentCacheStore {
  return new PersistentCacheStore(openIdbBackend(indexedDb));
}
