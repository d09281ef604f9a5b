// Storage that cannot hang or lie: an IndexedDB open that never settles, index rows of the wrong
// type, Forget while an answer is being compressed, and two workbooks sharing one disk budget.
import { randomBytes } from "node:crypto";
import { IDBFactory } from "fake-indexeddb";
import { createApp } from "../../sandbox/app";
import { cacheStorageState, createAddinCacheStore, tiered } from "../../functions/addin-cache";
import {
  type CacheEntry,
  type FetchLike,
  CACHE_DB_NAME,
  openIdbBackend,
  LazyPersistentStore,
  PersistentCacheStore,
  STORAGE_OPEN_TIMEOUT_MS,
  storedSize,
  toStoredForm,
} from "../../src/client";
import { sandboxFetch, sandboxKaishaClient } from "../client/helpers";

jest.setTimeout(60_000);

const entry = (body: unknown, storedAt = 1_000): CacheEntry => ({ body, storedAt, bytes: 100 });

/** The in-process sandbox as the client's fetch, counting what reaches it. */
function countedSandbox(): { fetch: FetchLike; sent: () => number } {
  const sandbox = createApp({ ratePerMinute: 0 });
  return { fetch: sandboxFetch(sandbox), sent: () => sandbox.requestLog.length };
}

/** A store whose batches are written when the test flushes, on a clock the test moves. */
function storeOver(idb: IDBFactory, maxBytes: number) {
  let now = 1_000;
  const store = new PersistentCacheStore(openIdbBackend(idb), {
    maxBytes,
    now: () => now,
    schedule: () => undefined,
  });
  return { store, tick: (ms = 1) => (now += ms) };
}

/** The index rows on disk, read as a third party would (a workbook opened later). */
async function diskRows(idb: IDBFactory): Promise<Map<string, unknown>> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = idb.open(CACHE_DB_NAME);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  const index = db.transaction("index", "readonly").objectStore("index");
  const [keys, values] = await Promise.all(
    [index.getAllKeys(), index.getAll()].map(
      (r) =>
        new Promise<unknown[]>((resolve) => {
          r.onsuccess = () => resolve(r.result as unknown[]);
        }),
    ),
  );
  db.close();
  return new Map((keys ?? []).map((k, i) => [String(k), values?.[i]]));
}

async function diskRecords(idb: IDBFactory): Promise<string[]> {
  const db = await new Promise<IDBDatabase>((resolve) => {
    const open = idb.open(CACHE_DB_NAME);
    open.onsuccess = () => resolve(open.result);
  });
  const request = db.transaction("records", "readonly").objectStore("records").getAllKeys();
  const keys = await new Promise<IDBValidKey[]>((resolve) => {
    request.onsuccess = () => resolve(request.result);
  });
  db.close();
  return keys.map(String).sort();
}

describe("an IndexedDB open that never settles (WebKit)", () => {
  /** An IndexedDB whose open neither succeeds nor fails, as WKWebView's has. */
  function hangingIndexedDb(): IDBFactory {
    const idb = new IDBFactory();
    idb.open = () => ({}) as IDBOpenDBRequest;
    return idb;
  }

  afterEach(() => {
    jest.useRealTimers();
  });

  test("cells are answered after the bound, from the API and then from memory; the pane says memory only and why", async () => {
    jest.useFakeTimers({ doNotFake: ["setImmediate", "nextTick", "queueMicrotask"] });
    const store = createAddinCacheStore({ indexedDb: hangingIndexedDb(), compression: true });
    const { fetch, sent } = countedSandbox();
    const client = sandboxKaishaClient(fetch, store);
    let answer: unknown;
    const cell = client.valuations({ security_code: "7203", years: 5 }).then((body) => {
      answer = body;
    });
    // The lazy tier's code loads, and the open is started (real promises, no timer).
    for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(answer).toBeUndefined();
    expect(cacheStorageState()).toEqual({ kind: "opening" });
    await jest.advanceTimersByTimeAsync(STORAGE_OPEN_TIMEOUT_MS);
    jest.useRealTimers();
    await cell;
    expect(answer).toMatchObject({ security_code: "7203" });
    expect(cacheStorageState()).toEqual({ kind: "memory", reason: "open-timeout" });
    // Asked again: from memory, nothing more sent.
    const before = sent();
    await client.valuations({ security_code: "7203", years: 5 });
    expect(sent()).toBe(before);
  });

  test("an open that succeeds after the bound is closed: the session stays in memory, nothing half-written", async () => {
    jest.useFakeTimers({ doNotFake: ["setImmediate", "nextTick", "queueMicrotask"] });
    const idb = new IDBFactory();
    let release: () => void = () => undefined;
    const late = new Promise<void>((resolve) => {
      release = resolve;
    }).then(() => openIdbBackend(idb));
    const store = new PersistentCacheStore(late, { schedule: () => undefined });
    const read = store.get("k");
    await jest.advanceTimersByTimeAsync(STORAGE_OPEN_TIMEOUT_MS);
    expect(await read).toBeUndefined();
    expect(store.state).toBe("timed-out");
    jest.useRealTimers();
    release();
    await late;
    await store.set("k", entry("A"));
    await store.flush();
    expect(store.state).toBe("timed-out");
    expect(await diskRecords(idb)).toEqual([]);
  });
  test("the tier's code that never loads is given up the same way: reads miss, writes are dropped", async () => {
    jest.useFakeTimers({ doNotFake: ["setImmediate", "nextTick", "queueMicrotask"] });
    const lazy = new LazyPersistentStore(() => new Promise<PersistentCacheStore>(() => undefined));
    const read = lazy.get("k");
    expect(lazy.state).toBe("opening");
    await jest.advanceTimersByTimeAsync(STORAGE_OPEN_TIMEOUT_MS);
    expect(await read).toBeUndefined();
    expect(lazy.state).toBe("timed-out");
    await lazy.set("k", entry("A"));
    expect(await lazy.keys()).toEqual([]);
  });
});

describe("index rows are checked when read", () => {
  test("rows whose size is NaN, undefined or text are dropped with their records: the total stays a number and a write evicts one answer, not all", async () => {
    const idb = new IDBFactory();
    const unit = storedSize(await toStoredForm("A"));
    const first = storeOver(idb, 10 * unit);
    for (const key of ["a", "b", "c", "bad-nan", "bad-undefined", "bad-text"]) {
      await first.store.set(key, entry(key.toUpperCase()));
      first.tick();
    }
    await first.store.flush();
    // The three bad rows, as another version or a damaged disk may leave them.
    await new Promise<void>((resolve) => {
      const open = idb.open(CACHE_DB_NAME);
      open.onsuccess = () => {
        const tx = open.result.transaction("index", "readwrite");
        const index = tx.objectStore("index");
        index.put([Number.NaN, 1_000, 1_010], "bad-nan");
        index.put([undefined, 1_000, 1_011], "bad-undefined");
        index.put(["12", 1_000, 1_012], "bad-text");
        tx.oncomplete = () => {
          open.result.close();
          resolve();
        };
      };
    });
    const { store, tick } = storeOver(idb, 3 * unit);
    expect(Number.isFinite(store.bytes)).toBe(true);
    expect((await store.keys()).sort()).toEqual(["a", "b", "c"]);
    expect(store.bytes).toBe(3 * unit);
    tick(100);
    await store.set("d", entry("D"));
    await store.flush();
    // One answer made room (the least recently used), not every unpinned one.
    expect((await store.keys()).sort()).toEqual(["b", "c", "d"]);
    expect(await diskRecords(idb)).toEqual(["b", "c", "d"]);
    expect([...(await diskRows(idb)).keys()].sort()).toEqual(["b", "c", "d"]);
  });
});

describe("Forget", () => {
  test("an answer still waiting to be written or being compressed is not written after Forget", async () => {
    const idb = new IDBFactory();
    const persistent = new PersistentCacheStore(openIdbBackend(idb));
    const store = tiered(persistent);
    const { fetch } = countedSandbox();
    const client = sandboxKaishaClient(fetch, store);
    // Several answers: the first is being compressed when Forget runs, the others wait their turn.
    await Promise.all(
      [3, 5, 10].map((years) => client.valuations({ security_code: "7203", years })),
    );
    await client.forgetKey();
    await store.flush();
    expect(await persistent.keys()).toEqual([]);
    expect(await diskRecords(idb)).toEqual([]);
    // A new session over the same disk finds nothing of the forgotten key.
    const reopened = new PersistentCacheStore(openIdbBackend(idb));
    expect(await reopened.keys()).toEqual([]);
  });

  test("through the lazily loaded tier (its code still loading): answers saved before Forget are not written after it", async () => {
    const idb = new IDBFactory();
    let loaded!: (store: PersistentCacheStore) => void;
    const lazy = new LazyPersistentStore(() => new Promise((resolve) => (loaded = resolve)));
    const store = tiered(lazy);
    const writes = [3, 5, 10].map((n) =>
      store.set(`k${n}`, entry({ rows: Array.from({ length: n * 500 }, (_, i) => i) })),
    );
    const forgetting = store.clear();
    loaded(new PersistentCacheStore(openIdbBackend(idb)));
    await Promise.all([...writes, forgetting]);
    await store.flush();
    expect(lazy.state).not.toBe("timed-out");
    expect(await lazy.keys()).toEqual([]);
    expect(await diskRecords(idb)).toEqual([]);
    expect(await new PersistentCacheStore(openIdbBackend(idb)).keys()).toEqual([]);
  });

  test("a store cleared while an answer is compressed keeps nothing of it", async () => {
    const idb = new IDBFactory();
    const persistent = new PersistentCacheStore(openIdbBackend(idb));
    await persistent.keys();
    const writing = persistent.set(
      "k",
      entry({ rows: Array.from({ length: 5_000 }, (_, i) => i) }),
    );
    await persistent.clear();
    await writing;
    await persistent.flush();
    expect(await persistent.keys()).toEqual([]);
    expect(await diskRecords(idb)).toEqual([]);
  });
});

describe("the disk budget is shared by every open workbook", () => {
  test("two workbooks over one database never store more than the budget between them; the least recently used go", async () => {
    const idb = new IDBFactory();
    // Answers that do not compress: each takes about 26 KB on disk.
    const answers = Array.from({ length: 4 }, () => randomBytes(26_000).toString("base64"));
    const size = storedSize(await toStoredForm(answers[0]));
    const budget = Math.floor(2.3 * size);
    const a = storeOver(idb, budget);
    const b = storeOver(idb, budget);
    await a.store.keys();
    await b.store.keys();
    b.tick(1_000);
    await a.store.set("a1", entry(answers[0]));
    a.tick();
    await a.store.set("a2", entry(answers[1]));
    await a.store.flush();
    await b.store.set("b1", entry(answers[2]));
    b.tick();
    await b.store.set("b2", entry(answers[3]));
    await b.store.flush();
    const rows = await diskRows(idb);
    const total = [...rows.values()].reduce<number>((sum, r) => sum + (r as number[])[0]!, 0);
    expect(total).toBeLessThanOrEqual(budget);
    // Workbook B's new answers stay; A's, used least recently, made room (records too).
    expect([...rows.keys()].sort()).toEqual(["b1", "b2"]);
    expect(await diskRecords(idb)).toEqual(["b1", "b2"]);
    // Workbook A reads one of its evicted answers: a miss, and its count lets it go.
    expect(await a.store.get("a1")).toBeUndefined();
    expect((await a.store.keys()).sort()).toEqual(["a2"]);
  });
});
