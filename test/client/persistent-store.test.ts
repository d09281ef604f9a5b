// Persistent cache tier over IndexedDB (fake-indexeddb in Node): eviction by last use, pinning, reopen.

import { IDBFactory } from "fake-indexeddb";
import { CACHE_DB_NAME, openIdbBackend } from "../../src/client/idb-backend";
import {
  PersistentCacheStore,
  type Batch,
  type PersistentBackend,
} from "../../src/client/persistent-store";
import type { CacheEntry } from "../../src/client/cache";
import { storedSize, toStoredForm } from "../../src/client/stored-form";

/** What one of the one-letter answers below takes in storage (they all take the same). */
let UNIT = 0;
beforeAll(async () => {
  UNIT = storedSize(await toStoredForm("A"));
});

const entry = (body: unknown, bytes = 100, storedAt = 1_000): CacheEntry => ({
  body,
  bytes,
  storedAt,
});

/** A store whose batches are written only when the test says so. */
function storeOn(backend: PersistentBackend | Promise<PersistentBackend>, maxBytes: number) {
  let now = 0;
  const store = new PersistentCacheStore(backend, {
    maxBytes,
    now: () => now,
    schedule: () => undefined,
  });
  return { store, tick: (ms = 1) => (now += ms) };
}

/** Counts commits and what they carried. */
function counting(backend: PersistentBackend): PersistentBackend & { batches: Batch[] } {
  const batches: Batch[] = [];
  return {
    ...backend,
    batches,
    commit: (batch) => {
      batches.push(batch);
      return backend.commit(batch);
    },
  };
}

describe("PersistentCacheStore over IndexedDB", () => {
  test("answers come back after a reopen (new store over the same database), deep-equal", async () => {
    const idb = new IDBFactory();
    const body = {
      edinet_code: "E00001",
      periods: [
        { fiscal_year: "2024/03", sales: 1, net_income: null },
        { fiscal_year: "2025/03", sales: 2, net_income: 3 },
      ],
    };
    const first = storeOn(openIdbBackend(idb), 10_000);
    await first.store.set("/financials?security_code=7203", entry(body, 500, 42));
    await first.store.flush();
    const reopened = storeOn(openIdbBackend(idb), 10_000);
    expect(await reopened.store.keys()).toEqual(["/financials?security_code=7203"]);
    expect(await reopened.store.get("/financials?security_code=7203")).toEqual({
      body,
      bytes: 500,
      storedAt: 42,
    });
    expect(await reopened.store.get("/missing")).toBeUndefined();
  });

  test("evicts the least recently used first; a read refreshes an entry's place", async () => {
    const idb = new IDBFactory();
    const { store, tick } = storeOn(openIdbBackend(idb), 3 * UNIT);
    await store.set("a", entry("A"));
    tick();
    await store.set("b", entry("B"));
    tick();
    await store.set("c", entry("C"));
    tick();
    await store.get("a"); // a is now newer than b
    tick();
    await store.set("d", entry("D"));
    expect((await store.keys()).sort()).toEqual(["a", "c", "d"]);
    await store.flush();
    // The eviction reached the database, and the last-use order survives a reopen.
    const reopened = storeOn(openIdbBackend(idb), 3 * UNIT);
    expect((await reopened.store.keys()).sort()).toEqual(["a", "c", "d"]);
    reopened.tick(100);
    await reopened.store.set("e", entry("E"));
    expect((await reopened.store.keys()).sort()).toEqual(["a", "d", "e"]);
  });

  test("the budget counts stored (compressed) bytes, not the size received: large repetitive answers fit many times over", async () => {
    // A /financials-like answer: 30 periods of the same 60 items, ~60 KB of JSON.
    const body = {
      periods: Array.from({ length: 30 }, (_, i) => {
        const row: Record<string, unknown> = { fiscal_year: `${1995 + i}/03` };
        for (let k = 0; k < 60; k += 1) row[`item_${k}`] = (i * 1_000 + k) * 1_000_000;
        return row;
      }),
    };
    const received = JSON.stringify(body).length;
    const stored = storedSize(await toStoredForm(body));
    expect(stored).toBeLessThan(received / 3);
    // Room for ten answers as received would have kept 10; counted as stored, 30 fit.
    const { store, tick } = storeOn(openIdbBackend(new IDBFactory()), 10 * received);
    for (let i = 0; i < 30; i += 1) {
      await store.set(`k${i}`, entry(body, received));
      tick();
    }
    expect(await store.keys()).toHaveLength(30);
    expect(store.bytes).toBe(30 * stored);
  });

  test("never evicts what the current recalculation used: a new answer that does not fit is not persisted", async () => {
    const { store, tick } = storeOn(openIdbBackend(new IDBFactory()), 3 * UNIT);
    await store.set("a", entry("A"));
    tick();
    await store.set("b", entry("B"));
    tick();
    await store.set("c", entry("C"));
    tick();
    store.beginRecalculation();
    await store.get("a");
    await store.get("b");
    tick();
    await store.set("d", entry("D")); // evicts c, the only one this recalculation did not use
    expect((await store.keys()).sort()).toEqual(["a", "b", "d"]);
    tick();
    await store.set("e", entry("E")); // a, b, d are all pinned now
    expect((await store.keys()).sort()).toEqual(["a", "b", "d"]);
    expect(await store.get("e")).toBeUndefined();
    // The next recalculation unpins them.
    tick();
    store.beginRecalculation();
    await store.get("d");
    await store.set("e", entry("E"));
    expect((await store.keys()).sort()).toEqual(["b", "d", "e"]);
  });

  test("writes and last-use refreshes are batched: one commit for many answers and reads", async () => {
    const backend = counting(await openIdbBackend(new IDBFactory()));
    const { store, tick } = storeOn(backend, 1_000_000);
    for (let i = 0; i < 50; i += 1) await store.set(`k${i}`, entry(i));
    // Readable before they are written.
    expect((await store.get("k7"))?.body).toBe(7);
    await store.flush();
    expect(backend.batches).toHaveLength(1);
    expect(backend.batches[0]?.put).toHaveLength(50);
    tick();
    store.beginRecalculation();
    for (let round = 0; round < 3; round += 1)
      for (let i = 0; i < 50; i += 1) await store.get(`k${i}`);
    await store.flush();
    // One index refresh per key per recalculation, in one commit, answers not rewritten.
    expect(backend.batches).toHaveLength(2);
    expect(backend.batches[1]?.touch).toHaveLength(50);
    expect(backend.batches[1]?.put).toHaveLength(0);
  });

  test("stores the answer's JSON gzip-compressed as bytes (no text, no base64) and reads it back frozen", async () => {
    const backend = counting(await openIdbBackend(new IDBFactory()));
    const { store } = storeOn(backend, 1_000_000);
    const rows = Array.from({ length: 200 }, (_, i) => ({ date: `2024-01-${i}`, close: i * 1.5 }));
    await store.set("p", entry({ prices: rows }));
    await store.flush();
    const stored = backend.batches[0]?.put[0]?.record.body;
    expect(stored).toBeInstanceOf(Uint8Array);
    // Gzip's magic number: the record is the compressed JSON itself, in no wrapper.
    expect([stored?.[0], stored?.[1]]).toEqual([0x1f, 0x8b]);
    expect(stored?.byteLength).toBeLessThan(JSON.stringify({ prices: rows }).length / 4);
    const back = (await store.get("p"))?.body as { prices: object[] };
    expect(back).toEqual({ prices: rows });
    // Read back frozen, like every answer the client hands out.
    expect(Object.isFrozen(back.prices[0])).toBe(true);
  });

  test("a record in another form than gzip bytes (columnar, text) is a miss and is forgotten", async () => {
    const backend = await openIdbBackend(new IDBFactory());
    const columnar = { prices: { $kaishaColumns: ["date"], rows: [["2024-01-01"]] } };
    await backend.commit({
      put: ["columnar", "text"].map((key) => ({
        row: { key, bytes: 100, storedAt: 1_000, lastUsed: 1_000 },
        record: {
          body: (key === "text" ? '{"a":1}' : columnar) as unknown as Uint8Array<ArrayBuffer>,
          storedAt: 1_000,
          bytes: 100,
        },
      })),
      touch: [],
      remove: [],
    });
    const { store } = storeOn(backend, 1_000_000);
    expect((await store.keys()).sort()).toEqual(["columnar", "text"]);
    expect(await store.get("columnar")).toBeUndefined();
    expect(await store.get("text")).toBeUndefined();
    expect(await store.keys()).toEqual([]);
  });

  test("an unreadable record is a miss and is forgotten", async () => {
    const backend = await openIdbBackend(new IDBFactory());
    await backend.commit({
      put: [
        {
          row: { key: "bad", bytes: 100, storedAt: 1_000, lastUsed: 1_000 },
          record: {
            body: new Uint8Array([1, 2, 3]),
            storedAt: 1_000,
            bytes: 100,
          },
        },
      ],
      touch: [],
      remove: [],
    });
    const { store } = storeOn(backend, 1_000_000);
    expect(await store.keys()).toEqual(["bad"]);
    expect(await store.get("bad")).toBeUndefined();
    expect(await store.keys()).toEqual([]);
  });

  test("a refused write (disk full) is reported until a batch is written again, and never thrown", async () => {
    const backend = await openIdbBackend(new IDBFactory());
    let full = true;
    const { store } = storeOn(
      {
        ...backend,
        commit: (batch) =>
          full
            ? Promise.reject(new DOMException("quota", "QuotaExceededError"))
            : backend.commit(batch),
      },
      1_000_000,
    );
    await store.set("a", entry("A"));
    await store.flush();
    expect(store.state).toBe("write-failed");
    // What was not written is not claimed: a read finds no record and forgets the key.
    expect(await store.get("a")).toBeUndefined();
    full = false;
    await store.set("b", entry("B"));
    await store.flush();
    expect(store.state).toBe("open");
    expect((await store.get("b"))?.body).toBe("B");
  });

  test("a backend that fails to open stores nothing, never throws and says it is not persisting", async () => {
    const { store } = storeOn(Promise.reject(new Error("blocked")), 1_000);
    expect(store.state).toBe("opening");
    await store.set("a", entry("A"));
    expect(await store.get("a")).toBeUndefined();
    expect(await store.keys()).toEqual([]);
    expect(store.state).toBe("unavailable");
  });
});

/** Names of the databases `idb` holds. */
async function databaseNames(idb: IDBFactory): Promise<string[]> {
  return (await idb.databases()).map((d) => d.name ?? "").sort();
}

describe("the cache database's versioned name", () => {
  test("answers are kept under the current version's name", async () => {
    const idb = new IDBFactory();
    const { store } = storeOn(openIdbBackend(idb), 10_000);
    await store.set("k", entry("A"));
    await store.flush();
    expect(store.state).toBe("open");
    expect(await databaseNames(idb)).toEqual([CACHE_DB_NAME]);
  });

  // What 0.1.0 previews left behind: the same stores under the unversioned name, then the answer's
  // JSON in one line under -v2 (stored-form.ts now writes long answers in lines).
  test.each(["kaisha-cache", "kaisha-cache-v2"])(
    "an earlier version's database (%s) is not read and is deleted on open",
    async (oldName) => {
      const idb = new IDBFactory();
      const old = await openIdbBackend(idb, oldName);
      await old.commit({
        put: [
          {
            row: { key: "/financials?security_code=7203", bytes: 100, storedAt: 1, lastUsed: 1 },
            record: { body: await toStoredForm({ sales: 1 }), storedAt: 1, bytes: 100 },
          },
        ],
        touch: [],
        remove: [],
      });
      expect(await databaseNames(idb)).toEqual([oldName]);
      const { store } = storeOn(openIdbBackend(idb), 10_000);
      expect(await store.keys()).toEqual([]);
      expect(await store.get("/financials?security_code=7203")).toBeUndefined();
      // The old name goes (its connection above is closed by the delete's versionchange).
      for (let i = 0; i < 50 && (await databaseNames(idb)).includes(oldName); i += 1)
        await new Promise((resolve) => setTimeout(resolve, 1));
      expect(await databaseNames(idb)).toEqual([CACHE_DB_NAME]);
    },
  );
});
