// Persistent cache stores: IndexedDB when present, else OfficeRuntime.storage (compressed, bounded, no key).

import { packText, unpackText } from "../src/client/compress";
import { containsSecret } from "../src/client/redact";
import { MemoryCacheStore, type CacheEntry, type CacheStore } from "../src/client/cache";
import { TieredCacheStore } from "../src/client/tiered-cache";
import { PersistentCacheStore } from "../src/client/persistent-store";
import { openIdbBackend, platformIndexedDb } from "../src/client/idb-backend";

/** The subset of `OfficeRuntime.storage` used (injectable for tests). */
export interface KeyValueStorage {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
  removeItems?(keys: string[]): Promise<void>;
  getKeys(): Promise<string[]>;
}

/** REFERENCE: 10 MB per origin; keep 2 MB for the task pane's own settings and the index. */
const DEFAULT_MAX_BYTES = 8 * 1024 * 1024;

const PREFIX = "kaisha.cache:";
const INDEX_KEY = "kaisha.cache-index";

/** Index row: cache key, stored size, time stored. Kept oldest first. */
type IndexRow = [key: string, bytes: number, storedAt: number];

const encoder = new TextEncoder();

/**
 * CacheStore over OfficeRuntime.storage. Sizes are UTF-8 bytes of what is written; when a new
 * entry would pass `maxBytes`, the oldest entries go first. An entry whose text contains a
 * remembered API key is never written (the key must not reach unencrypted storage).
 *
 * @example setCacheStore(new OfficeStorageCacheStore(OfficeRuntime.storage));
 */
export class OfficeStorageCacheStore implements CacheStore {
  readonly maxBytes: number;
  private index: IndexRow[] | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly storage: KeyValueStorage,
    maxBytes: number = DEFAULT_MAX_BYTES,
  ) {
    this.maxBytes = maxBytes;
  }

  /** Summed bytes of the stored entries (after the index is loaded). */
  get bytes(): number {
    return (this.index ?? []).reduce((sum, [, b]) => sum + b, 0);
  }

  /** Operations run one at a time so the index and the entries stay consistent. */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async loadIndex(): Promise<IndexRow[]> {
    if (this.index !== undefined) return this.index;
    let rows: IndexRow[] | undefined;
    try {
      const raw = await this.storage.getItem(INDEX_KEY);
      const parsed: unknown = raw === null ? [] : JSON.parse(raw);
      if (
        Array.isArray(parsed) &&
        parsed.every(
          (r) => Array.isArray(r) && typeof r[0] === "string" && typeof r[1] === "number",
        )
      ) {
        rows = parsed as IndexRow[];
      }
    } catch {
      rows = undefined;
    }
    if (rows === undefined) {
      // Unreadable index: start clean rather than keep entries of unknown size.
      const keys = (await this.storage.getKeys()).filter((k) => k.startsWith(PREFIX));
      await this.removeMany(keys);
      rows = [];
    }
    this.index = rows;
    return rows;
  }

  private async saveIndex(): Promise<void> {
    await this.storage.setItem(INDEX_KEY, JSON.stringify(this.index ?? []));
  }

  private async removeMany(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    if (this.storage.removeItems) await this.storage.removeItems(keys);
    else for (const k of keys) await this.storage.removeItem(k);
  }

  get(key: string): Promise<CacheEntry | undefined> {
    return this.serial(async () => {
      const index = await this.loadIndex();
      if (!index.some(([k]) => k === key)) return undefined;
      const raw = await this.storage.getItem(PREFIX + key);
      if (raw === null) {
        this.index = index.filter(([k]) => k !== key);
        await this.saveIndex();
        return undefined;
      }
      try {
        const parsed = JSON.parse(await unpackText(raw)) as {
          body: unknown;
          storedAt: number;
          bytes: number;
        };
        return { body: parsed.body, storedAt: parsed.storedAt, bytes: parsed.bytes };
      } catch {
        return undefined;
      }
    });
  }

  set(key: string, entry: CacheEntry): Promise<void> {
    return this.serial(async () => {
      const text = JSON.stringify({
        body: entry.body,
        storedAt: entry.storedAt,
        bytes: entry.bytes,
      });
      if (containsSecret(text) || containsSecret(key)) return;
      // Stored gzip-compressed where the platform can (src/client/compress.ts): ~10x more answers fit.
      const stored = await packText(text);
      const size = encoder.encode(stored).length + encoder.encode(key).length;
      let index = (await this.loadIndex()).filter(([k]) => k !== key);
      if (size > this.maxBytes) {
        this.index = index;
        await this.storage.removeItem(PREFIX + key);
        await this.saveIndex();
        return;
      }
      let total = index.reduce((sum, [, b]) => sum + b, 0);
      const evicted: string[] = [];
      while (total + size > this.maxBytes && index.length > 0) {
        const [oldKey, oldBytes] = index[0] as IndexRow;
        index = index.slice(1);
        total -= oldBytes;
        evicted.push(PREFIX + oldKey);
      }
      await this.removeMany(evicted);
      await this.storage.setItem(PREFIX + key, stored);
      index.push([key, size, entry.storedAt]);
      this.index = index;
      await this.saveIndex();
    });
  }

  delete(key: string): Promise<void> {
    return this.serial(async () => {
      const index = await this.loadIndex();
      this.index = index.filter(([k]) => k !== key);
      await this.storage.removeItem(PREFIX + key);
      await this.saveIndex();
    });
  }

  clear(): Promise<void> {
    return this.serial(async () => {
      const keys = (await this.storage.getKeys()).filter((k) => k.startsWith(PREFIX));
      await this.removeMany(keys);
      this.index = [];
      await this.saveIndex();
    });
  }

  keys(): Promise<string[]> {
    return this.serial(async () => (await this.loadIndex()).map(([k]) => k));
  }
}

/**
 * Memory tier budget, answers as received: a 500-company model (about 290 MB) fits, so its warm
 * recalculations never read answers back from storage (bench: at 256 MB they did, at 2× the CPU).
 */
const MEMORY_TIER_MAX_BYTES = 384 * 1024 * 1024;

/**
 * The add-in's cache: a memory tier (answers of this session) in front of a persistent tier that
 * survives a restart: IndexedDB where the runtime has it (hundreds of MB, src/client/idb-backend.ts),
 * else the compressed OfficeRuntime.storage store (8 MB).
 */
export function createAddinCacheStore(
  storage: KeyValueStorage | undefined,
  indexedDb: IDBFactory | undefined = platformIndexedDb(),
): TieredCacheStore | undefined {
  let persistent: CacheStore;
  if (indexedDb !== undefined) persistent = new PersistentCacheStore(openIdbBackend(indexedDb));
  else if (storage !== undefined) persistent = new OfficeStorageCacheStore(storage);
  else return undefined;
  return tiered(persistent);
}

/** The memory tier in front of a given persistent tier (the bench passes its storage stand-in). */
export function tiered(persistent: CacheStore): TieredCacheStore {
  return new TieredCacheStore(
    new MemoryCacheStore({ maxBytes: MEMORY_TIER_MAX_BYTES }),
    persistent,
  );
}
