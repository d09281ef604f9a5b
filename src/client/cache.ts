// Response cache: the CacheStore interface, a byte-bounded LRU memory store, and stable cache keys.

import { OPERATIONS } from "../contract/generated/param-rules";
import type { OperationId } from "../contract/rules";
import { buildUrl } from "./http";
import type { ParamValue } from "./params";
import type { LifetimeBasis } from "./freshness";
import type { InFlightRequests } from "./inflight";

/** One stored answer. */
export interface CacheEntry {
  /** The parsed response body. */
  body: unknown;
  /** When it was received. @unit ms since epoch */
  storedAt: number;
  /** UTF-8 size of the body as received. */
  bytes: number;
  /**
   * When it stops being fresh (freshness.ts), decided by the client the first time it reads this
   * entry object and kept here so the per-cell fast path compares one number. Never stored by a
   * persistent tier: a loaded entry is a new object and is decided again. @unit ms since epoch
   */
  freshUntil?: number;
  /** freshness.ts `basisOf` the company when `freshUntil` was decided: decided again once it moves. */
  freshBasis?: LifetimeBasis;
  /**
   * The look-up of its company's expected results day that this entry's lifetime waits for, while
   * it is under way (client.ts `dayLookUp`): the entry owns its one piece of work, which every read
   * of it joins. In memory only, like `freshUntil`.
   */
  dayLookUp?: Promise<void> | undefined;
}

/**
 * Where answers are kept. The memory store is the default; the add-in supplies a persistent one
 * (functions/addin-cache.ts: IndexedDB behind a memory tier). All methods are async so either works.
 */
export interface CacheStore {
  get(key: string): Promise<CacheEntry | undefined>;
  set(key: string, entry: CacheEntry): Promise<void>;
  delete(key: string): Promise<void>;
  clear(): Promise<void>;
  keys(): Promise<string[]>;
  /**
   * Optional synchronous read of entries already in memory (no I/O): the client's per-cell fast
   * path. Undefined means "not in memory", not "not cached".
   */
  peek?(key: string): CacheEntry | undefined;
  /**
   * Optional: drops what is held in memory only (a persistent tier keeps its records). The client
   * calls it when the API key changes (key-partition.ts: memory holds no other key's answers).
   */
  clearMemory?(): Promise<void>;
  /**
   * Optional: the client's one map of work under way (inflight.ts), handed over as the client is
   * made, for a store whose own work (the tiered store's persistent reads) then shares it.
   */
  shareWork?(work: InFlightRequests): void;
}

/**
 * Stable cache key: the request path with path parameters filled, then the remaining parameters
 * sorted by name, so `{a, b}` and `{b, a}` share an entry.
 *
 * @example cacheKey("getPrices", { limit: 5, code: "7203" }) // "/securities/7203/prices?limit=5"
 */
export function cacheKey(
  operationId: OperationId,
  params: Readonly<Record<string, ParamValue>>,
): string {
  return buildUrl("", OPERATIONS[operationId].path, params);
}

export interface MemoryCacheStoreOptions {
  /** Upper bound of the summed entry sizes; least recently used entries go first. @default 50 MB */
  maxBytes?: number;
}

/**
 * In-memory store bounded by bytes, evicting the least recently used first (to within half a turn of
 * the order, see `peek`).
 *
 * @example const store = new MemoryCacheStore({ maxBytes: 10_000_000 });
 */
export class MemoryCacheStore implements CacheStore {
  readonly maxBytes: number;
  /** In last-use order, oldest first (a Map keeps insertion order). */
  private readonly entries = new Map<string, Slot>();
  private total = 0;
  /** Insertions and moves so far: a slot's `order` says how far back its last move was. */
  private moves = 0;

  constructor(options: MemoryCacheStoreOptions = {}) {
    this.maxBytes = options.maxBytes ?? 50 * 1024 * 1024;
  }

  /** Summed size of the stored entries. */
  get bytes(): number {
    return this.total;
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    return this.peek(key);
  }

  peek(key: string): CacheEntry | undefined {
    const slot = this.entries.get(key);
    if (slot === undefined) return undefined;
    // Moved to the newest end only from the older half of the order: a recalculation reads
    // thousands of cells of a few hundred answers in turn, and moving on every read was a delete
    // and an insert per cell (bench). So the order is least recently used to within half a turn:
    // an entry read while in the newer half keeps its place (and is evicted no earlier than
    // anything that was in the older half then).
    if (this.moves - slot.order >= this.entries.size / 2) {
      this.entries.delete(key);
      this.entries.set(key, slot);
      slot.order = this.moves += 1;
    }
    return slot.entry;
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    await this.delete(key);
    if (entry.bytes > this.maxBytes) return;
    this.entries.set(key, { entry, order: (this.moves += 1) });
    this.total += entry.bytes;
    for (const [oldKey, old] of this.entries) {
      if (this.total <= this.maxBytes) break;
      this.entries.delete(oldKey);
      this.total -= old.entry.bytes;
    }
  }

  async delete(key: string): Promise<void> {
    const old = this.entries.get(key);
    if (old === undefined) return;
    this.entries.delete(key);
    this.total -= old.entry.bytes;
  }

  async clear(): Promise<void> {
    this.entries.clear();
    this.total = 0;
  }

  async keys(): Promise<string[]> {
    return [...this.entries.keys()];
  }

  clearMemory(): Promise<void> {
    return this.clear();
  }
}

/** An entry and when it last moved to the newest end. */
interface Slot {
  entry: CacheEntry;
  order: number;
}
