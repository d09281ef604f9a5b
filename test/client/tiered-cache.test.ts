// The two-level cache: memory first, persistent second, writes to both, survives a "restart".

import { MemoryCacheStore, type CacheEntry, type CacheStore } from "../../src/client/cache";
import { TieredCacheStore } from "../../src/client/tiered-cache";

const entry = (body: unknown, storedAt = 1): CacheEntry => ({ body, storedAt, bytes: 10 });

/** A persistent tier that counts reads and can be made to fail. */
class CountingStore extends MemoryCacheStore {
  reads = 0;
  failing = false;
  override async get(key: string) {
    this.reads += 1;
    if (this.failing) throw new Error("storage unavailable");
    return super.get(key);
  }
  override async set(key: string, e: CacheEntry) {
    if (this.failing) throw new Error("storage unavailable");
    return super.set(key, e);
  }
}

describe("TieredCacheStore", () => {
  test("a write lands in both tiers; reads are served by memory without touching storage", async () => {
    const disk = new CountingStore();
    const store = new TieredCacheStore(new MemoryCacheStore(), disk);
    await store.set("k", entry({ v: 1 }));
    await store.flush();
    expect(await disk.get("k")).toEqual(entry({ v: 1 }));
    disk.reads = 0;
    expect(await store.get("k")).toEqual(entry({ v: 1 }));
    expect(disk.reads).toBe(0);
  });

  test("after a restart (new memory tier) answers come from storage and are copied forward", async () => {
    const disk = new CountingStore();
    const first = new TieredCacheStore(new MemoryCacheStore(), disk);
    await first.set("k", entry("x"));
    await first.flush();
    const memory = new MemoryCacheStore();
    const second = new TieredCacheStore(memory, disk);
    expect(await second.get("k")).toEqual(entry("x"));
    expect(await memory.get("k")).toEqual(entry("x"));
  });

  test("a failing persistent tier costs only persistence, never a read or write", async () => {
    const disk = new CountingStore();
    disk.failing = true;
    const store: CacheStore = new TieredCacheStore(new MemoryCacheStore(), disk);
    await store.set("k", entry(1));
    expect(await store.get("k")).toEqual(entry(1));
    expect(await store.get("missing")).toBeUndefined();
    expect(await store.keys()).toEqual(["k"]);
  });

  test("clear and delete empty both tiers; keys lists the union", async () => {
    const disk = new CountingStore();
    const store = new TieredCacheStore(new MemoryCacheStore(), disk);
    await disk.set("only-on-disk", entry(0));
    await store.set("a", entry(1));
    await store.flush();
    expect((await store.keys()).sort()).toEqual(["a", "only-on-disk"]);
    await store.delete("a");
    expect(await disk.get("a")).toBeUndefined();
    await store.clear();
    expect(await store.keys()).toEqual([]);
  });
});

test("concurrent misses of one key share a single persistent read (a restart's first recalculation)", async () => {
  const disk = new CountingStore();
  await disk.set("k", entry({ big: true }));
  const store = new TieredCacheStore(new MemoryCacheStore(), disk);
  const answers = await Promise.all(Array.from({ length: 1000 }, () => store.get("k")));
  expect(answers.every((a) => a !== undefined && (a.body as { big: boolean }).big)).toBe(true);
  expect(disk.reads).toBe(1);
  await store.get("k");
  expect(disk.reads).toBe(1);
});
