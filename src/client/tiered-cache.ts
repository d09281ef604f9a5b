// A two-level cache store: a fast memory tier in front of a slower, smaller persistent tier.

import type { CacheEntry, CacheStore } from "./cache";
import { InFlightRequests, UNCOUNTED } from "./inflight";

/** Handed in for an announced key the bulk load did not bring (TieredCacheStore.expect). */
export const NOT_LOADED: unique symbol = Symbol("not loaded");
type NotLoaded = typeof NOT_LOADED;

/** What `TieredCacheStore.expect` gives the bulk load (src/client/warm-up-load.ts). */
export interface Announced {
  announced: string[];
  asked: string[];
  handIn: (key: string, entry: CacheEntry | undefined | NotLoaded) => void;
}

/** What a persistent tier may offer besides CacheStore (src/client/persistent-store.ts does). */
interface Recalculating {
  flush(): Promise<void>;
  beginRecalculation(): void;
}

/**
 * Reads the memory tier first and falls back to the persistent tier, copying what it finds
 * forward; writes go to both. The persistent tier is bounded in stored (gzip) bytes and
 * evicts on its own, so without the memory tier a large model's warm recalculation would re-send whatever the
 * persistent tier had evicted (bench: 40 of 250 answers).
 *
 * Persistent writes are not awaited by callers of `set`: a recalculation must not wait for disk.
 * Their failures are swallowed here, because a cache that cannot persist only costs requests later.
 *
 * @example setCacheStore(new TieredCacheStore(new MemoryCacheStore(), persistentStore));
 */
export class TieredCacheStore implements CacheStore {
  private pending: Promise<unknown> = Promise.resolve();
  /**
   * Persistent reads under way (a recalculation asks for the same key thousands of times at once),
   * keyed `readKey(key)`: in the client's one map of work once a client is made over this store
   * (`shareWork`), beside its requests, look-ups and the answers cells share.
   */
  private work = new InFlightRequests();
  /** The client's map, offered while this store's own had reads under way (`shareWork`). */
  private offered: InFlightRequests | undefined;
  /** Set while a bulk load reads which keys it will bring (`expect`). */
  private announcing: Promise<void> | undefined;
  /** Tells the bulk load a cell is waiting for `key` (`expect`'s `asked`), so it comes sooner. */
  private asked: ((key: string) => void) | undefined;
  /**
   * Answers waiting their turn to be written, by key: `keys` lists them and `delete`/`clear` take
   * them out, so Forget also stops an answer not yet written (persistent-store.ts then stops one
   * being compressed).
   */
  private readonly queued = new Map<string, CacheEntry>();

  /**
   * `accepts`: whether an answer read back from the persistent tier may be used (the add-in passes
   * stored-check.ts storedAnswerPasses); one that may not is deleted and is a miss, so the cell
   * asks the API (or, offline, says it cannot) instead of failing on it. Rejecting: a miss, kept.
   */
  /**
   * The memory tier's own synchronous read, bound to it: a warm cell's read enters the memory
   * tier's code alone (test/functions/warm-path.test.ts).
   */
  readonly peek: (key: string) => CacheEntry | undefined;

  constructor(
    readonly memory: CacheStore,
    readonly persistent: CacheStore,
    private readonly accepts?: (key: string, body: unknown) => Promise<boolean>,
  ) {
    this.peek = memory.peek !== undefined ? memory.peek.bind(memory) : () => undefined;
  }

  /**
   * Reads join the client's map of work (client.ts makes one per store): at once, or, while reads
   * in this store's own map are under way (a bulk load announced them), once they are over, so
   * none of them goes unfound and read twice.
   */
  shareWork(work: InFlightRequests): void {
    this.offered = work;
    this.adoptWork();
  }

  /** The map `shareWork` offered, once nothing is under way in the one in use. */
  private adoptWork(): void {
    if (this.offered === undefined || this.work.size > 0) return;
    this.work = this.offered;
    this.offered = undefined;
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    this.adoptWork();
    const hot = await this.memory.get(key);
    if (hot !== undefined) return hot;
    // After a restart 15,000 cells may miss memory for the same 250 keys at once: one persistent
    // read (decompress + parse) per key, shared (bench "Model after restart"); a key a bulk load
    // will bring waits for it (`expect`).
    if (this.announcing !== undefined) {
      // A bulk load is reading the index to say what it will bring: wait for that first.
      await this.announcing;
      return this.get(key);
    }
    this.asked?.(key);
    const found: unknown = await this.work.begin(
      readKey(key),
      () => this.readThrough(key),
      UNCOUNTED,
    ).answer;
    return found === NOT_LOADED ? this.get(key) : (found as CacheEntry | undefined);
  }

  /**
   * Announces answers a bulk load (src/client/warm-up.ts) is about to bring from the persistent
   * tier, once `keys` (read from the index) resolves; a cell asking before then waits for them, and
   * a cell asking for one of them waits for its load instead of reading storage itself.
   * Returns the keys announced (not those in memory or being read already), the announced keys
   * cells have asked for so far (`asked`, appended to as they ask: the loader brings them next),
   * and how the loader hands each in: its entry, undefined (none stored), or `NOT_LOADED` (the
   * load stopped first: a waiting cell then reads it itself). Every announced key must be handed in.
   */
  expect(keys: Promise<readonly string[]>): Promise<Announced> {
    const announcing = keys.then(
      (k) => this.announce(k),
      () => this.announce([]),
    );
    this.announcing = announcing.then(() => undefined);
    return announcing;
  }

  private announce(keys: readonly string[]): Announced {
    this.announcing = undefined;
    this.adoptWork();
    const handIn = new Map<string, (entry: CacheEntry | undefined | NotLoaded) => void>();
    for (const key of keys) {
      if (this.memory.peek?.(key) !== undefined || this.work.find(readKey(key)) !== undefined)
        continue;
      const arrived = new Promise<CacheEntry | undefined | NotLoaded>((resolve) =>
        handIn.set(key, resolve),
      );
      this.work.begin(
        readKey(key),
        async () => {
          const arrival = await arrived;
          const entry = arrival === NOT_LOADED ? arrival : await this.accepted(key, arrival);
          if (entry !== undefined && entry !== NOT_LOADED) await this.memory.set(key, entry);
          return entry;
        },
        UNCOUNTED,
      );
    }
    const asked: string[] = [];
    this.asked = (key) => {
      if (handIn.has(key)) asked.push(key);
    };
    return {
      announced: [...handIn.keys()],
      asked,
      handIn: (key, entry) => {
        handIn.get(key)?.(entry);
        handIn.delete(key);
        if (handIn.size === 0) this.asked = undefined;
      },
    };
  }

  private async readThrough(key: string): Promise<CacheEntry | undefined> {
    const cold = await this.accepted(key, await this.persistent.get(key).catch(() => undefined));
    if (cold !== undefined) await this.memory.set(key, cold);
    return cold;
  }

  /** `entry` read back when `accepts` passes it; else undefined, and a failing record goes. */
  private async accepted(
    key: string,
    entry: CacheEntry | undefined,
  ): Promise<CacheEntry | undefined> {
    if (entry === undefined || this.accepts === undefined) return entry;
    let passes: boolean;
    try {
      passes = await this.accepts(key, entry.body);
    } catch {
      return undefined;
    }
    if (!passes) await this.persistent.delete(key).catch(() => undefined);
    return passes ? entry : undefined;
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    // Queued before the memory write settles: a Forget (`clear`) called meanwhile takes it out.
    this.queued.set(key, entry);
    try {
      await this.memory.set(key, entry);
    } catch (err) {
      if (this.queued.get(key) === entry) this.queued.delete(key);
      throw err;
    }
    if (this.queued.get(key) !== entry) return;
    this.background(async () => {
      // Deleted meanwhile (Forget), or set again: the later answer is the one written.
      if (this.queued.get(key) !== entry) return;
      this.queued.delete(key);
      await this.persistent.set(key, entry);
    });
  }

  async delete(key: string): Promise<void> {
    this.queued.delete(key);
    await this.memory.delete(key);
    await this.persistent.delete(key).catch(() => undefined);
  }

  async clear(): Promise<void> {
    this.queued.clear();
    await this.memory.clear();
    await this.pending;
    await this.persistent.clear().catch(() => undefined);
  }

  /** The memory tier only (the key changed); persistent records stay, partitioned. */
  async clearMemory(): Promise<void> {
    await this.memory.clear();
  }

  async keys(): Promise<string[]> {
    const [hot, cold] = await Promise.all([
      this.memory.keys(),
      this.persistent.keys().catch(() => [] as string[]),
    ]);
    return [...new Set([...hot, ...cold, ...this.queued.keys()])];
  }

  /** Resolves when every persistent write started so far has finished (tests, bench, unload). */
  async flush(): Promise<void> {
    await this.pending;
    await (this.persistent as Partial<Recalculating>).flush?.();
  }

  /** A recalculation starts: the persistent tier keeps what it uses from now on (no eviction). */
  beginRecalculation(): void {
    (this.persistent as Partial<Recalculating>).beginRecalculation?.();
  }

  private background(work: () => Promise<void>): void {
    this.pending = this.pending.then(work).catch(() => undefined);
  }
}

/** A persistent read's key among the client's work: apart from a request under the same cache key. */
function readKey(key: string): string {
  return `read\u0000${key}`;
}
