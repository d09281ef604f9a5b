// Reopen at warm speed: persisted answers cells ask for loaded into memory in bulk reads, decoded only when asked, bounded.

import { IDBFactory } from "fake-indexeddb";
import { MemoryCacheStore } from "../../src/client/cache";
import { openIdbBackend } from "../../src/client/idb-backend";
import { PersistentCacheStore, type PersistentBackend } from "../../src/client/persistent-store";
import { TieredCacheStore } from "../../src/client/tiered-cache";
import { warmMemoryTier } from "../../src/client/warm-up";

/** The load ends this soon after the last ask (real timers: a few turns of IndexedDB's fake). */
const IDLE_MS = 50;

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

/** The keys a persistent store decodes (inflate and parse), in order. */
function decodes(persistent: PersistentCacheStore): string[] {
  const keys: string[] = [];
  const decode = persistent.decode.bind(persistent);
  persistent.decode = (key, record) => {
    keys.push(key);
    return decode(key, record);
  };
  return keys;
}

/** A few turns of the event loop (fake IndexedDB answers on timers). */
const turns = () => new Promise((resolve) => setTimeout(resolve, 10));

test("a reopen decodes an answer when a cell first asks for it, and cells asking together share one storage read; memory then answers synchronously", async () => {
  const idb = new IDBFactory();
  await persisted(idb);
  const { wrapped, seen } = counting(openIdbBackend(idb));
  const persistent = new PersistentCacheStore(wrapped);
  const decoded = decodes(persistent);
  const store = new TieredCacheStore(new MemoryCacheStore(), persistent);
  const warming = warmMemoryTier(store, { concurrency: 3, idleMs: IDLE_MS });
  await turns();
  // Loading has begun (the index is read), and nothing is decoded before a cell asks.
  expect(decoded).toEqual([]);
  expect(seen.reads).toBe(0);
  const asked = await Promise.all([store.get("k3"), store.get("k7"), store.get("k3")]);
  expect(asked.map((e) => e?.body)).toEqual([{ n: 3 }, { n: 7 }, { n: 3 }]);
  expect(decoded.sort()).toEqual(["k3", "k7"]);
  expect(seen.calls).toBe(1);
  expect(store.peek("k3")?.body).toEqual({ n: 3 });
  await expect(warming).resolves.toBe(2);
});

test("nothing is decoded that no cell asks for: the load ends after a quiet spell, and an answer asked later is read by itself", async () => {
  const idb = new IDBFactory();
  await persisted(idb);
  const { wrapped, seen } = counting(openIdbBackend(idb));
  const persistent = new PersistentCacheStore(wrapped);
  const decoded = decodes(persistent);
  const store = new TieredCacheStore(new MemoryCacheStore(), persistent);
  const warming = warmMemoryTier(store, { idleMs: IDLE_MS });
  await store.get("k1");
  await expect(warming).resolves.toBe(1);
  expect(decoded).toEqual(["k1"]);
  expect(seen.keys).toEqual(["k1"]);
  for (const key of ["k0", "k2", "k9"]) expect(store.peek(key)).toBeUndefined();
  // Still stored, read and decoded when a cell asks (once).
  expect((await store.get("k9"))?.body).toEqual({ n: 9 });
  await store.get("k9");
  expect(decoded).toEqual(["k1", "k9"]);
  expect(seen.keys).toEqual(["k1", "k9"]);
});

test("a record that fails the stored-answer check is refused when a cell first asks for it, removed, and never shown", async () => {
  const idb = new IDBFactory();
  await persisted(idb);
  const persistent = new PersistentCacheStore(openIdbBackend(idb));
  // As the add-in's check (stored-check.ts) refuses an answer of another shape.
  const store = new TieredCacheStore(
    new MemoryCacheStore(),
    persistent,
    async (key) => key !== "k4",
  );
  const warming = warmMemoryTier(store, { idleMs: IDLE_MS });
  await turns();
  // Not decoded, so not checked yet: still stored.
  expect(await persistent.keys()).toContain("k4");
  await expect(store.get("k4")).resolves.toBeUndefined();
  expect(store.peek("k4")).toBeUndefined();
  expect(await persistent.keys()).not.toContain("k4");
  expect((await store.get("k5"))?.body).toEqual({ n: 5 });
  await warming;
});

test("a corrupt record is a miss for the cell asking for it, and is removed", async () => {
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
  const warming = warmMemoryTier(store, { idleMs: IDLE_MS });
  const asked = await Promise.all([store.get("k4"), store.get("k6")]);
  expect(asked.map((e) => e?.body)).toEqual([undefined, { n: 6 }]);
  await expect(warming).resolves.toBe(1);
  expect(await persistent.keys()).not.toContain("k4");
});

test("bounded by memory: once the answers loaded fill the budget, the load stops and later cells read storage themselves, once each", async () => {
  const idb = new IDBFactory();
  await persisted(idb);
  const { wrapped, seen } = counting(openIdbBackend(idb));
  const persistent = new PersistentCacheStore(wrapped);
  const store = new TieredCacheStore(new MemoryCacheStore(), persistent);
  const warming = warmMemoryTier(store, { concurrency: 1, maxBytes: 200, idleMs: IDLE_MS });
  const first = await Promise.all(["k0", "k1", "k2"].map((k) => store.get(k)));
  expect(first.map((e) => e?.body)).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }]);
  await expect(warming).resolves.toBe(2);
  expect((await store.get("k5"))?.body).toEqual({ n: 5 });
  await store.get("k5");
  expect(seen.keys.filter((k) => k === "k5")).toHaveLength(1);
});

test("answers cells ask for together are read many per storage call, however many ask", async () => {
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
  const warming = warmMemoryTier(store, { concurrency: 1, idleMs: IDLE_MS });
  const values = await Promise.all(Array.from({ length: 50 }, (_, i) => store.get(`k${i}`)));
  expect(values.map((e) => e?.body)).toEqual(Array.from({ length: 50 }, (_, n) => ({ n })));
  await expect(warming).resolves.toBe(50);
  // 50 keys, 32 a read at most: two storage calls, none for a key nobody asked for.
  expect(reads).toHaveLength(2);
  expect(new Set(reads.flat())).toEqual(new Set(Array.from({ length: 50 }, (_, i) => `k${i}`)));
});

test("a backend without bulk reads is read one record at a time, with the same answers", async () => {
  const idb = new IDBFactory();
  await persisted(idb);
  const { wrapped, seen } = counting(openIdbBackend(idb));
  const single = wrapped.then(({ readRecords: _bulk, ...rest }) => rest);
  const store = new TieredCacheStore(new MemoryCacheStore(), new PersistentCacheStore(single));
  const warming = warmMemoryTier(store, { idleMs: IDLE_MS });
  const values = await Promise.all(Array.from({ length: 10 }, (_, i) => store.get(`k${i}`)));
  expect(values.map((e) => e?.body)).toEqual(Array.from({ length: 10 }, (_, n) => ({ n })));
  await expect(warming).resolves.toBe(10);
  expect(seen.calls).toBe(10);
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

test("a bulk read that fails is no answer missing: the cells asking read their records themselves (none is asked of the API)", async () => {
  const idb = new IDBFactory();
  await persisted(idb);
  const persistent = new PersistentCacheStore(openIdbBackend(idb));
  const records = persistent.records.bind(persistent);
  let failures = 1;
  persistent.records = (keys) =>
    failures-- > 0 ? Promise.reject(new Error("transaction aborted")) : records(keys);
  const store = new TieredCacheStore(new MemoryCacheStore(), persistent);
  const warming = warmMemoryTier(store, { idleMs: IDLE_MS });
  const asked = await Promise.all([store.get("k3"), store.get("k7")]);
  expect(asked.map((e) => e?.body)).toEqual([{ n: 3 }, { n: 7 }]);
  await warming;
  expect(store.peek("k3")?.body).toEqual({ n: 3 });
});
