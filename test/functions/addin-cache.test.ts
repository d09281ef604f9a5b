// The add-in's cache: IndexedDB behind a memory tier, or memory only (and the state the pane shows).

import { IDBFactory } from "fake-indexeddb";
import { cacheStorageState, createAddinCacheStore } from "../../functions/addin-cache";
import { MemoryCacheStore, type CacheEntry, TieredCacheStore } from "../../src/client";

const entry = (body: unknown): CacheEntry => ({ body, storedAt: 1_000, bytes: 100 });

/** A /financials answer as openapi.json FinancialsResponse allows it (no periods). */
const FINANCIALS = {
  fields: [],
  edinet_code: "E02144",
  periods: [],
  reason: { code: "no_results", message: "No data." },
  attribution: { source_label: "s", license_note: "l", processed_by: "p" },
};

/** An IndexedDB whose every open fails, as in a browser with site data blocked. */
function refusingIndexedDb(): IDBFactory {
  const idb = new IDBFactory();
  idb.open = () => {
    throw new DOMException("The user denied permission to access the database.", "SecurityError");
  };
  return idb;
}

async function opened(): Promise<void> {
  for (let i = 0; i < 50 && cacheStorageState().kind === "opening"; i += 1)
    await new Promise((resolve) => setTimeout(resolve, 1));
}

describe("the add-in's cache", () => {
  test("with IndexedDB: a memory tier in front of IndexedDB, and answers survive a reopen", async () => {
    const idb = new IDBFactory();
    const first = createAddinCacheStore({ indexedDb: idb, compression: true });
    expect(first).toBeInstanceOf(TieredCacheStore);
    await first.set("/financials?security_code=7203", entry(FINANCIALS));
    await (first as TieredCacheStore).flush();
    await opened();
    expect(cacheStorageState()).toEqual({ kind: "disk" });
    const reopened = createAddinCacheStore({ indexedDb: idb, compression: true });
    expect((await reopened.get("/financials?security_code=7203"))?.body).toEqual(FINANCIALS);
    // A record of another shape or version read back is checked and dropped:
    // test/client/stored-stamp.test.ts (its own, stamped records pass unwalked).
  });

  test("without IndexedDB: memory only, answers last for the session, and the state says why", async () => {
    const store = createAddinCacheStore({ indexedDb: undefined, compression: true });
    expect(store).toBeInstanceOf(MemoryCacheStore);
    expect(cacheStorageState()).toEqual({ kind: "memory", reason: "no-indexeddb" });
    await store.set("k", entry([1, 2, 3]));
    expect((await store.get("k"))?.body).toEqual([1, 2, 3]);
    // A reopen (a new runtime) starts empty: nothing was written anywhere.
    expect(
      await createAddinCacheStore({ indexedDb: undefined, compression: true }).get("k"),
    ).toBeUndefined();
  });

  test("without CompressionStream: memory only (no other stored form), IndexedDB untouched", async () => {
    const idb = new IDBFactory();
    const store = createAddinCacheStore({ indexedDb: idb, compression: false });
    expect(store).toBeInstanceOf(MemoryCacheStore);
    expect(cacheStorageState()).toEqual({ kind: "memory", reason: "no-compression" });
    await store.set("k", entry("A"));
    expect((await store.get("k"))?.body).toBe("A");
    expect(await idb.databases()).toEqual([]);
  });

  test("an IndexedDB that refuses to open: answers still come from memory, and the state says so", async () => {
    const store = createAddinCacheStore({ indexedDb: refusingIndexedDb(), compression: true });
    await opened();
    expect(cacheStorageState()).toEqual({ kind: "memory", reason: "open-failed" });
    await store.set("k", entry("A"));
    expect((await store.get("k"))?.body).toBe("A");
  });

  test("by default it asks the platform: Node has CompressionStream, and IndexedDB once a page has one", () => {
    expect(createAddinCacheStore()).toBeInstanceOf(MemoryCacheStore);
    expect(cacheStorageState()).toEqual({ kind: "memory", reason: "no-indexeddb" });
    (globalThis as { indexedDB?: unknown }).indexedDB = new IDBFactory();
    try {
      expect(createAddinCacheStore()).toBeInstanceOf(TieredCacheStore);
      expect(cacheStorageState()).toEqual({ kind: "opening" });
    } finally {
      delete (globalThis as { indexedDB?: unknown }).indexedDB;
    }
  });
});
