// The memory cache store (byte-bounded LRU), stable cache keys and default freshness.

import { DEFAULT_TTL_MS, isFresh, ttlFor } from "../../src/client/ttl";
import { MemoryCacheStore, cacheKey } from "../../src/client/cache";

const entry = (bytes: number, body: unknown = {}) => ({ body, storedAt: 0, bytes });

describe("MemoryCacheStore", () => {
  test("evicts least recently used entries past maxBytes", async () => {
    const store = new MemoryCacheStore({ maxBytes: 100 });
    await store.set("a", entry(40));
    await store.set("b", entry(40));
    await store.get("a"); // a is now the most recent
    await store.set("c", entry(40));
    expect((await store.keys()).sort()).toEqual(["a", "c"]);
    expect(store.bytes).toBe(80);
  });

  test("replacing an entry updates the byte count; an oversized entry is not stored", async () => {
    const store = new MemoryCacheStore({ maxBytes: 100 });
    await store.set("a", entry(40));
    await store.set("a", entry(10));
    expect(store.bytes).toBe(10);
    await store.set("huge", entry(101));
    expect(await store.get("huge")).toBeUndefined();
    await store.delete("a");
    expect(store.bytes).toBe(0);
    await store.set("x", entry(5));
    await store.clear();
    expect(await store.keys()).toEqual([]);
  });
});

describe("cacheKey", () => {
  test("path with path parameters, then sorted query: stable under key order", () => {
    expect(cacheKey("getPrices", { limit: 5, code: "7203", from: "2024-01-01" })).toBe(
      "/securities/7203/prices?from=2024-01-01&limit=5",
    );
    expect(cacheKey("getPrices", { from: "2024-01-01", code: "7203", limit: 5 })).toBe(
      cacheKey("getPrices", { code: "7203", limit: 5, from: "2024-01-01" }),
    );
    expect(cacheKey("getUsage", {})).toBe("/usage");
  });
});

describe("freshness", () => {
  test("market data is short, filings long, reference data a day", () => {
    expect(ttlFor("getRankings")).toBe(60_000);
    expect(ttlFor("getPrices")).toBe(300_000);
    expect(ttlFor("getFinancials")).toBe(12 * 3_600_000);
    expect(ttlFor("getOrganization")).toBe(24 * 3_600_000);
    expect(ttlFor("getPrices", { getPrices: 1 })).toBe(1);
    expect(Object.keys(DEFAULT_TTL_MS)).toHaveLength(21);
  });

  test("isFresh", () => {
    expect(isFresh(1000, 500, 1499)).toBe(true);
    expect(isFresh(1000, 500, 1500)).toBe(false);
    expect(isFresh(1000, 0, 1000)).toBe(false);
    expect(isFresh(1000, 500, 900)).toBe(false);
  });
});
