// Reopen at warm speed: persisted answers loaded into memory in bulk, bounded, most recent first.

import { IDBFactory } from "fake-indexeddb";
import { MemoryCacheStore } from "../../src/client/cache";
import { openIdbBackend } from "../../src/client/idb-backend";
import { PersistentCacheStore, type PersistentBackend } from "../../src/client/persistent-store";
import { TieredCacheStore } from "../../src/client/tiered-cache";
import { warmMemoryTier } from "../../src/client/warm-up";

/** Ten answers persisted one after the other (k9 the most recently used). */
async function persisted(idb: IDBFactory): Promise<void> {
  let now = 0;
  const store = new PersistentCacheStore(openIdbBackend(idb), { now: () => (now += 1) });
  for (let i = 0; i < 10; i += 1)
    await store.set(`k${i}`, { body: { n: i }, storedAt: 1_000, bytes: 100 });
  await store.flush();
}

/** Counts reads in flight at once. */
function counting(backend: Promise<PersistentBackend>) {
  const seen = { now: 0, max: 0, reads: 0 };
  const wrapped = backend.then((b) => ({
    ...b,
    readRecord: async (key: string) => {
      seen.now += 1;
      seen.reads += 1;
      seen.max = Math.max(seen.max, seen.now);
      await new Promise((r) => setTimeout(r, 1));
      try {
        return await b.readRecord(key);
      } finally {
        seen.now -= 1;
      }
    },
  }));
  return { wrapped, seen };
}

test("a reopen loads every persisted answer into memory, a few reads at a time; cells then read memory synchronously", async () => {
  const idb = new IDBFactory();
  await persisted(idb);
  const { wrapped, seen } = counting(openIdbBackend(idb));
  const store = new TieredCacheStore(new MemoryCacheStore(), new PersistentCacheStore(wrapped));
  expect(store.peek("k3")).toBeUndefined();
  await expect(warmMemoryTier(store, { concurrency: 3 })).resolves.toBe(10);
  expect(seen.max).toBeLessThanOrEqual(3);
  expect(seen.max).toBeGreaterThan(1);
  for (let i = 0; i < 10; i += 1) expect(store.peek(`k${i}`)?.body).toEqual({ n: i });
  // A cell asking now costs no storage read.
  await store.get("k3");
  expect(seen.reads).toBe(10);
});

test("bounded by memory: the most recently used answers are loaded first, and no more than fit", async () => {
  const idb = new IDBFactory();
  await persisted(idb);
  const store = new TieredCacheStore(
    new MemoryCacheStore(),
    new PersistentCacheStore(openIdbBackend(idb)),
  );
  await expect(warmMemoryTier(store, { concurrency: 1, maxBytes: 300 })).resolves.toBe(3);
  expect(store.peek("k9")).toBeDefined();
  expect(store.peek("k7")).toBeDefined();
  expect(store.peek("k6")).toBeUndefined();
});

test("a cell asking for an answer while it is being loaded shares that read", async () => {
  const idb = new IDBFactory();
  await persisted(idb);
  const { wrapped, seen } = counting(openIdbBackend(idb));
  const store = new TieredCacheStore(new MemoryCacheStore(), new PersistentCacheStore(wrapped));
  const warming = warmMemoryTier(store, { concurrency: 10 });
  const asked = await Promise.all([store.get("k0"), store.get("k5")]);
  await warming;
  expect(asked.map((e) => e?.body)).toEqual([{ n: 0 }, { n: 5 }]);
  expect(seen.reads).toBe(10);
});
