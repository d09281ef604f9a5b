// The persistent tier whose code loads lazily: calls wait for the load; a failed load is a tier that stores nothing.

import { IDBFactory } from "fake-indexeddb";
import { LazyPersistentStore } from "../../src/client/lazy-persistent-store";
import { PersistentCacheStore } from "../../src/client/persistent-store";
import { openIdbBackend } from "../../src/client/idb-backend";

const entry = { body: { code: "7203" }, storedAt: 1_000, bytes: 20 };

test("calls made while the code loads wait for it and reach the disk", async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const idb = new IDBFactory();
  const lazy = new LazyPersistentStore(async () => {
    await gate;
    return new PersistentCacheStore(openIdbBackend(idb));
  });
  expect(lazy.state).toBe("opening");
  const written = lazy.set("/securities/7203", entry);
  release();
  await written;
  await lazy.flush();
  expect(lazy.state).toBe("open");
  expect(await lazy.get("/securities/7203")).toMatchObject({ body: { code: "7203" } });
  expect(await lazy.recentKeys()).toEqual(["/securities/7203"]);
  // A new session on the same database reads what this one stored.
  const reopened = new PersistentCacheStore(openIdbBackend(idb));
  expect(await reopened.keys()).toEqual(["/securities/7203"]);
});

test("a recalculation begun before the load pins from the loaded store's first use", async () => {
  const store = new PersistentCacheStore(openIdbBackend(new IDBFactory()));
  const pin = jest.spyOn(store, "beginRecalculation");
  const lazy = new LazyPersistentStore(() => Promise.resolve(store));
  lazy.beginRecalculation();
  expect(await lazy.keys()).toEqual([]);
  expect(pin).toHaveBeenCalledTimes(1);
});

test("code that cannot be loaded leaves the tier unavailable: reads miss, writes are dropped", async () => {
  const lazy = new LazyPersistentStore(() => Promise.reject(new Error("ChunkLoadError")));
  await lazy.set("/securities/7203", entry);
  expect(lazy.state).toBe("unavailable");
  expect(await lazy.get("/securities/7203")).toBeUndefined();
  expect(await lazy.keys()).toEqual([]);
  expect(await lazy.records(["a", "b"])).toEqual([undefined, undefined]);
  expect(await lazy.decode("a", undefined)).toBeUndefined();
  await expect(lazy.clear()).resolves.toBeUndefined();
  await expect(lazy.delete("a")).resolves.toBeUndefined();
});
