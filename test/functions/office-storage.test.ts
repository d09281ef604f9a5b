// The persistent cache store on OfficeRuntime.storage: bounded, oldest evicted, survives a restart,
// never holds the API key.
import { OfficeStorageCacheStore, type KeyValueStorage } from "../../functions/office-storage";
import { rememberSecret } from "../../src/client/redact";

/** In-memory stand-in with OfficeRuntime.storage's async shape. */
class FakeStorage implements KeyValueStorage {
  readonly items = new Map<string, string>();
  async getItem(key: string): Promise<string | null> {
    return this.items.get(key) ?? null;
  }
  async setItem(key: string, value: string): Promise<void> {
    this.items.set(key, value);
  }
  async removeItem(key: string): Promise<void> {
    this.items.delete(key);
  }
  async getKeys(): Promise<string[]> {
    return [...this.items.keys()];
  }
  text(): string {
    return [...this.items.entries()].map(([k, v]) => `${k}=${v}`).join("\n");
  }
}

const entry = (body: unknown, storedAt = 1) => ({
  body,
  storedAt,
  bytes: JSON.stringify(body).length,
});

describe("OfficeStorageCacheStore", () => {
  test("stores, reads back, deletes and lists entries", async () => {
    const store = new OfficeStorageCacheStore(new FakeStorage());
    await store.set("https://api/v1/a", entry({ x: 1 }, 10));
    expect(await store.get("https://api/v1/a")).toEqual({ body: { x: 1 }, storedAt: 10, bytes: 7 });
    expect(await store.keys()).toEqual(["https://api/v1/a"]);
    await store.delete("https://api/v1/a");
    expect(await store.get("https://api/v1/a")).toBeUndefined();
  });

  test("a new instance on the same storage (a restart) sees the entries", async () => {
    const storage = new FakeStorage();
    await new OfficeStorageCacheStore(storage).set("k", entry([1, 2, 3]));
    expect((await new OfficeStorageCacheStore(storage).get("k"))?.body).toEqual([1, 2, 3]);
  });

  test("stays within its byte budget by evicting the oldest entries first", async () => {
    const storage = new FakeStorage();
    const store = new OfficeStorageCacheStore(storage, 1_500);
    // Incompressible text, so compression cannot make all four fit.
    let seed = 7;
    const big = Array.from({ length: 300 }, () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return String.fromCharCode(33 + (seed % 90));
    }).join("");
    for (const k of ["a", "b", "c", "d"]) await store.set(k, entry(big));
    expect(store.bytes).toBeLessThanOrEqual(1_500);
    expect(await store.get("a")).toBeUndefined();
    expect((await store.get("d"))?.body).toBe(big);
    expect(await store.keys()).toEqual(["b", "c", "d"]);
  });

  test("an entry larger than the whole budget is not stored", async () => {
    const store = new OfficeStorageCacheStore(new FakeStorage(), 100);
    await store.set("huge", entry(Array.from({ length: 200 }, (_, i) => (i * 7919) % 1000)));
    expect(await store.get("huge")).toBeUndefined();
  });

  test("never writes anything containing the API key", async () => {
    const key = `kaisakey_${"S".repeat(43)}`;
    rememberSecret(key);
    const storage = new FakeStorage();
    const store = new OfficeStorageCacheStore(storage);
    await store.set("ok", entry({ v: 1 }));
    await store.set("leak", entry({ echoed: key }));
    expect(await store.get("leak")).toBeUndefined();
    expect(storage.text()).not.toContain(key);
  });

  test("clear removes only the cache's own items", async () => {
    const storage = new FakeStorage();
    await storage.setItem("kaisha.settings", "{}");
    const store = new OfficeStorageCacheStore(storage);
    await store.set("k", entry(1));
    await store.clear();
    expect(await store.keys()).toEqual([]);
    expect(await storage.getItem("kaisha.settings")).toBe("{}");
  });

  test("an unreadable index starts clean instead of failing", async () => {
    const storage = new FakeStorage();
    await storage.setItem("kaisha.cache-index", "{not json");
    await storage.setItem("kaisha.cache:old", "{}");
    const store = new OfficeStorageCacheStore(storage);
    expect(await store.get("old")).toBeUndefined();
    expect(await storage.getItem("kaisha.cache:old")).toBeNull();
  });

  test("entries are stored gzip-compressed: repetitive API answers take a fraction of the space", async () => {
    const storage = new FakeStorage();
    const store = new OfficeStorageCacheStore(storage);
    const rows = Array.from({ length: 500 }, (_, i) => ({
      date: `2024-01-${i % 28}`,
      close: 1000 + i,
    }));
    await store.set("prices", entry({ prices: rows }));
    const raw = (await storage.getItem("kaisha.cache:prices")) ?? "";
    expect(raw.startsWith("gz1:")).toBe(true);
    expect(raw.length).toBeLessThan(JSON.stringify(rows).length / 4);
    expect((await store.get("prices"))?.body).toEqual({ prices: rows });
  });

  test("an uncompressed entry written by an older version still reads", async () => {
    const storage = new FakeStorage();
    await storage.setItem("kaisha.cache-index", JSON.stringify([["old", 40, 5]]));
    await storage.setItem("kaisha.cache:old", JSON.stringify({ body: [1], storedAt: 5, bytes: 3 }));
    expect(await new OfficeStorageCacheStore(storage).get("old")).toEqual({
      body: [1],
      storedAt: 5,
      bytes: 3,
    });
  });

  test("concurrent writes keep the index consistent", async () => {
    const store = new OfficeStorageCacheStore(new FakeStorage());
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.set(`k${i}`, entry(i))));
    expect((await store.keys()).sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => `k${i}`).sort(),
    );
  });
});
