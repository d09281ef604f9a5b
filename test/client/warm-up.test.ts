// Reopen at warm speed: persisted answers loaded into memory in bulk, bounded, most recent first.

import { IDBFactory } from "fake-indexeddb";
import { MemoryCacheStore } from "../../src/client/cache";
import { openIdbBackend } from "../../src/client/idb-backend";
import { PersistentCacheStore, type PersistentBackend } from "../../src/client/persistent-store";
import { TieredCacheStore } from "../../src/client/tiered-cache";
import { warmMemoryTier } from "../../src/client/warm-up";

/** `count` answers persisted one after the other (the last, k9 by default, the most recently used). */
async function persisted(idb: IDBFactory, count = 10): Promise<void> {
  let now = 0;
  const store = new PersistentCacheStore(openIdbBackend(idb), { now: () => (now += 1) });
  for (let i = 0; i < count; i += 1)
    await store.set(`k${i}`, { body: { n: i }, storedAt: 1_000, bytes: 100 });
  await store.flush();
}

/** Counts storage calls and the records each reads. */
function counting(backend: Promise<PersistentBackend>) {
  const seen = { calls: 0, reads: 0, keys: [] as string[] };
  const wrapped = backend.then((b) => ({
    ...b,
    readRecord: async (key: string) => {
      seen.calls += 1;
      seen.reads += 1;
      seen.keys.push(key);
      return b.readRecord(key);
    },
    readRecords: async (keys: readonly string[]) => {
      seen.calls += 1;
      seen.reads += keys.length;
      seen.keys.push(...keys);
      return (b.readRecords as NonNullable<PersistentBackend["readRecords"]>)(keys);
    },
  }));
  return { wrapped, seen };
}

test("a reopen loads every persisted answer into memory with one storage read; cells then read memory synchronously", async () => {
  const idb = new IDBFactory();
  await persisted(idb);
  const { wrapped, seen } = counting(openIdbBackend(idb));
  const store = new TieredCacheStore(new MemoryCacheStore(), new PersistentCacheStore(wrapped));
  expect(store.peek("k3")).toBeUndefined();
  await expect(warmMemoryTier(store, { concurrency: 3 })).resolves.toBe(10);
  expect(seen.calls).toBe(1);
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
  expect(new Set(seen.keys).size).toBe(10);
});

test("cells asking once the load has begun wait for it: no storage read of their own", async () => {
  const idb = new IDBFactory();
  await persisted(idb);
  const { wrapped, seen } = counting(openIdbBackend(idb));
  const persistent = new PersistentCacheStore(wrapped);
  const store = new TieredCacheStore(new MemoryCacheStore(), persistent);
  await persistent.keys(); // the index is read: the load announces its keys at once
  const warming = warmMemoryTier(store, { concurrency: 1 });
  await Promise.resolve();
  await Promise.resolve();
  const asked = await Promise.all([store.get("k0"), store.get("k5"), store.get("k0")]);
  await warming;
  expect(asked.map((e) => e?.body)).toEqual([{ n: 0 }, { n: 5 }, { n: 0 }]);
  expect(seen.calls).toBe(1);
  expect(seen.reads).toBe(10);
});

test("answers cells wait for are loaded first, however many wait: more than one storage read's worth", async () => {
  const idb = new IDBFactory();
  await persisted(idb, 100);
  const reads: string[][] = [];
  const backend = openIdbBackend(idb).then((b) => ({
    ...b,
    readRecords: async (keys: readonly string[]) => {
      reads.push([...keys]);
      return (b.readRecords as NonNullable<PersistentBackend["readRecords"]>)(keys);
    },
  }));
  const persistent = new PersistentCacheStore(backend);
  const store = new TieredCacheStore(new MemoryCacheStore(), persistent);
  await persistent.keys();
  const warming = warmMemoryTier(store, { concurrency: 1 });
  await Promise.resolve();
  await Promise.resolve();
  // The 50 least recently used answers (last in the load's own order) are the ones cells ask for.
  const waiting = Array.from({ length: 50 }, (_, i) => store.get(`k${i}`));
  await Promise.all(waiting);
  await warming;
  const order = reads.flat();
  expect(order).toHaveLength(100);
  const askedAt = Array.from({ length: 50 }, (_, i) => order.indexOf(`k${i}`));
  // Once cells ask, their 50 keys are read before any key nobody asked for (whatever the first
  // read had already taken): one unbroken run, though it fills two storage reads.
  expect(Math.max(...askedAt) - Math.min(...askedAt)).toBe(49);
});

test("a load stopped by the memory budget leaves the rest to the cells that ask, read once each", async () => {
  const idb = new IDBFactory();
  await persisted(idb);
  const { wrapped, seen } = counting(openIdbBackend(idb));
  const persistent = new PersistentCacheStore(wrapped);
  const store = new TieredCacheStore(new MemoryCacheStore(), persistent);
  await persistent.keys();
  const warming = warmMemoryTier(store, { concurrency: 1, maxBytes: 200 });
  // Asked once the bulk read has taken it (the loop's code is a chunk of its own: how many turns
  // that takes is no part of the behaviour).
  for (let turn = 0; turn < 1000 && !seen.keys.includes("k0"); turn += 1) await Promise.resolve();
  const asked = store.get("k0"); // the least recently used: past the budget
  await expect(warming).resolves.toBe(2);
  expect((await asked)?.body).toEqual({ n: 0 });
  expect(seen.keys.filter((k) => k === "k0").length).toBe(2); // in the bulk read, then its own
  await store.get("k0");
  expect(seen.keys.filter((k) => k === "k0").length).toBe(2);
});

test("a backend without bulk reads is loaded one record at a time, with the same answers", async () => {
  const idb = new IDBFactory();
  await persisted(idb);
  const { wrapped, seen } = counting(openIdbBackend(idb));
  const single = wrapped.then(({ readRecords: _bulk, ...rest }) => rest);
  const store = new TieredCacheStore(new MemoryCacheStore(), new PersistentCacheStore(single));
  await expect(warmMemoryTier(store)).resolves.toBe(10);
  expect(seen.calls).toBe(10);
  for (let i = 0; i < 10; i += 1) expect(store.peek(`k${i}`)?.body).toEqual({ n: i });
});

test("a corrupt record in the bulk load is a miss for the cell waiting for it, and is removed", async () => {
  const idb = new IDBFactory();
  await persisted(idb);
  const backend = openIdbBackend(idb).then((b) => ({
    ...b,
    readRecords: async (keys: readonly string[]) => {
      const records = await (b.readRecords as NonNullable<PersistentBackend["readRecords"]>)(keys);
      return records.map((r, i) =>
        keys[i] === "k4" && r !== undefined ? { ...r, body: new Uint8Array([1, 2, 3]) } : r,
      );
    },
  }));
  const persistent = new PersistentCacheStore(backend);
  const store = new TieredCacheStore(new MemoryCacheStore(), persistent);
  const warming = warmMemoryTier(store);
  const asked = store.get("k4");
  await expect(warming).resolves.toBe(9);
  await expect(asked).resolves.toBeUndefined();
  expect(await persistent.keys()).not.toContain("k4");
});

test("an index that cannot be read loads nothing, and cells waiting for it read storage themselves", async () => {
  const idb = new IDBFactory();
  await persisted(idb);
  const persistent = new PersistentCacheStore(openIdbBackend(idb));
  persistent.recentKeys = () => Promise.reject(new Error("index unreadable"));
  const store = new TieredCacheStore(new MemoryCacheStore(), persistent);
  const warming = warmMemoryTier(store);
  const asked = store.get("k2");
  await expect(warming).resolves.toBe(0);
  expect((await asked)?.body).toEqual({ n: 2 });
});

test("an answer a cell waits for is loaded before the rest, whatever its place in the order", async () => {
  const idb = new IDBFactory();
  let now = 0;
  const writer = new PersistentCacheStore(openIdbBackend(idb), { now: () => (now += 1) });
  for (let i = 0; i < 70; i += 1)
    await writer.set(`k${i}`, { body: { n: i }, storedAt: 1_000, bytes: 100 });
  await writer.flush();
  const store = new TieredCacheStore(
    new MemoryCacheStore(),
    new PersistentCacheStore(openIdbBackend(idb)),
  );
  const warming = warmMemoryTier(store, { concurrency: 1 });
  // k0 is the least recently used: the last a load by recency alone would bring.
  const k0 = await store.get("k0");
  expect(k0?.body).toEqual({ n: 0 });
  expect(store.peek("k1")).toBeUndefined();
  await expect(warming).resolves.toBe(70);
  expect(store.peek("k1")?.body).toEqual({ n: 1 });
});
