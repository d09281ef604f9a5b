// Persistent cache tier: size-bounded, evicts least recently used, never what this recalculation used.

import type { CacheEntry, CacheStore } from "./cache";
import { fromStoredForm, storedSize, toStoredForm } from "./stored-form";
import { containsSecret } from "../util/redact";
import { STORAGE_OPEN_TIMEOUT_MS } from "./storage-platform";
import { noteStamp, storedStamp } from "./stored-stamp";

/** One row of the index: what eviction needs, without reading the answer itself. */
export interface IndexRow {
  key: string;
  /** Size charged against the budget: the stored (gzip) form's bytes (`storedSize`). */
  bytes: number;
  storedAt: number;
  /** Last read or write. @unit ms since epoch */
  lastUsed: number;
}

/** What is stored per answer: the body's stored form (src/client/stored-form.ts), when and how big. */
export interface StoredRecord {
  /** Gzip bytes of the answer's JSON (`toStoredForm`). */
  body: Uint8Array<ArrayBuffer>;
  storedAt: number;
  /** Size of the answer as received (the memory tier's charge when read back). @unit bytes */
  bytes: number;
  /**
   * The version that stored it (stored-stamp.ts storedStamp): read back by the same version, it
   * is not walked by the stored-answer check again. Absent in records stored before it existed.
   */
  checked?: string;
}

/**
 * An index row as storage gave it back, or undefined when it is not one this version wrote: a key
 * and three finite numbers, the size not negative. A row with a size of NaN, undefined or text
 * (another version, a damaged disk) would make the summed size NaN, and every eviction after it
 * would then remove every unpinned answer; such a row is dropped with its record instead.
 */
export function indexRowOf(key: unknown, value: unknown): IndexRow | undefined {
  if (typeof key !== "string" || !Array.isArray(value) || value.length !== 3) return undefined;
  const [bytes, storedAt, lastUsed] = value as unknown[];
  if (typeof bytes !== "number" || !Number.isFinite(bytes) || bytes < 0) return undefined;
  if (typeof storedAt !== "number" || !Number.isFinite(storedAt)) return undefined;
  if (typeof lastUsed !== "number" || !Number.isFinite(lastUsed)) return undefined;
  return { key, bytes, storedAt, lastUsed };
}

/**
 * The budget every workbook open on this computer shares (they share one database): the backend
 * applies it to the whole store inside the batch's own transaction, so two workbooks each keeping
 * its own count cannot store twice the budget between them.
 */
export interface SharedBudget {
  /** Summed stored sizes allowed. @unit bytes */
  maxBytes: number;
  /** Rows used since this instant are pinned (this recalculation's). @unit ms since epoch */
  pinnedSince: number;
}

/** One write to the backend: answers to put, index rows to refresh, keys to remove. */
export interface Batch {
  put: Array<{ row: IndexRow; record: StoredRecord }>;
  touch: IndexRow[];
  remove: string[];
}

/**
 * Where the persistent tier keeps its data (IndexedDB in the add-in, src/client/idb-backend.ts; a
 * stand-in in tests and the bench). Records and index rows live apart so eviction and start-up read
 * only the small index.
 */
export interface PersistentBackend {
  /**
   * Every index row; a row that is not one (`indexRowOf`) comes back as its key alone, and the
   * store removes it with its record.
   */
  readIndex(): Promise<Array<IndexRow | { key: string; bad: true }>>;
  readRecord(key: string): Promise<StoredRecord | undefined>;
  /**
   * Many records in one call (IndexedDB: one transaction), in the order of `keys`. Optional: a
   * backend without it is read one record at a time.
   */
  readRecords?(keys: readonly string[]): Promise<Array<StoredRecord | undefined>>;
  /**
   * Applies a batch in one transaction where the backend has them. With `budget`, a backend shared
   * with other workbooks (IndexedDB) then reads the whole store's total in the same transaction and
   * evicts the least recently used rows over it (the batch's own answers last), returning the keys
   * it removed; a backend of one workbook only may ignore it (the store's own count is the total).
   */
  commit(batch: Batch, budget?: SharedBudget): Promise<{ evicted: string[] } | void>;
  clear(): Promise<void>;
  /** Closes a backend that opened after the store stopped waiting for it. */
  close?(): void;
}

/** What `PersistentCacheStore.state` reports. */
export type PersistentHealth = "opening" | "open" | "unavailable" | "timed-out" | "write-failed";

export interface PersistentCacheStoreOptions {
  /** Budget of summed stored (compressed) sizes. @unit bytes @default 384 MB */
  maxBytes?: number;
  /** Clock for last-use times. @default Date.now */
  now?: () => number;
  /**
   * Runs a batch write later: index refreshes of a recalculation's reads and new answers go to the
   * backend together. @default setTimeout(write, 250)
   */
  schedule?: (write: () => void) => void;
  /**
   * How long the backend may take to open and read its index before the store gives up on it and
   * stores nothing this session (`timed-out`). @unit ms @default STORAGE_OPEN_TIMEOUT_MS
   */
  openTimeoutMs?: number;
}

/** IndexedDB in the shared runtime holds far more than OfficeRuntime.storage's 10 MB. */
const DEFAULT_PERSISTENT_MAX_BYTES = 384 * 1024 * 1024;

/** Stands in until (or when never) the real backend opens: stores nothing. */
const UNAVAILABLE: PersistentBackend = {
  readIndex: () => Promise.resolve([]),
  readRecord: () => Promise.resolve(undefined),
  readRecords: (keys) => Promise.resolve(keys.map(() => undefined)),
  commit: () => Promise.resolve(),
  clear: () => Promise.resolve(),
};

const defaultSchedule = (write: () => void): void => {
  setTimeout(write, 250);
};

/**
 * CacheStore over a PersistentBackend. Eviction is by last use (reads refresh it), and entries used
 * since `beginRecalculation()` are never evicted: a workbook's recalculation must not push out the
 * answers its own other cells read a moment ago (write-order eviction re-sent them on every open).
 * Index updates are batched; reads of keys not in the index cost nothing.
 *
 * @example const store = new PersistentCacheStore(await openIdbBackend());
 */
export class PersistentCacheStore implements CacheStore {
  readonly maxBytes: number;
  private readonly now: () => number;
  private readonly schedule: (write: () => void) => void;
  private readonly index = new Map<string, IndexRow>();
  private total = 0;
  private pinnedSince = Number.POSITIVE_INFINITY;
  private readonly ready: Promise<void>;
  private pending: Batch = { put: [], touch: [], remove: [] };
  private readonly touched = new Set<IndexRow>();
  /** Answers written but not committed yet, so reads see them. */
  private readonly unwritten = new Map<string, StoredRecord>();
  private scheduled = false;
  private writing: Promise<void> = Promise.resolve();
  /**
   * Answers being compressed, by key: `delete` and `clear` take theirs away, so an answer still
   * being compressed when Forget runs is never written after it (and a later `set` of the same key
   * supersedes an earlier one still compressing).
   */
  private readonly compressing = new Map<string, object>();

  private backend: PersistentBackend = UNAVAILABLE;
  private health: PersistentHealth = "opening";

  /** `backend` may still be opening (IndexedDB opens asynchronously); if it fails, nothing persists. */
  constructor(
    backend: PersistentBackend | Promise<PersistentBackend>,
    options: PersistentCacheStoreOptions = {},
  ) {
    this.maxBytes = options.maxBytes ?? DEFAULT_PERSISTENT_MAX_BYTES;
    this.now = options.now ?? Date.now;
    this.schedule = options.schedule ?? defaultSchedule;
    // WebKit (Excel on Mac runs in WKWebView) has left indexedDB.open unsettled for good: every
    // read waits for `ready`, so it is bounded, and past the bound the tier stores nothing.
    let timer: ReturnType<typeof setTimeout> | undefined;
    let gaveUp = false;
    const opening = Promise.resolve(backend)
      .then(async (opened) => {
        const rows = await opened.readIndex();
        if (gaveUp) {
          opened.close?.();
          return;
        }
        this.adopt(opened, rows);
      })
      .catch(() => {
        if (!gaveUp) this.health = "unavailable";
      });
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        gaveUp = true;
        if (this.health === "opening") this.health = "timed-out";
        resolve();
      }, options.openTimeoutMs ?? STORAGE_OPEN_TIMEOUT_MS);
    });
    this.ready = Promise.race([opening, bound]).finally(() => clearTimeout(timer));
  }

  /** The opened backend and its index; rows that are not rows go, with their records. */
  private adopt(opened: PersistentBackend, rows: Array<IndexRow | { key: string; bad: true }>) {
    this.backend = opened;
    for (const row of rows) {
      if ("bad" in row) {
        this.pending.remove.push(row.key);
        continue;
      }
      this.index.set(row.key, row);
      this.total += row.bytes;
    }
    this.health = "open";
    if (this.pending.remove.length > 0) this.later();
  }

  /**
   * Whether answers reach the disk: `opening`; `open`; `unavailable` when the backend failed to
   * open (the tier then stores nothing and the add-in works from memory); `write-failed` when the
   * last batch was refused (disk full, storage cleared), until a batch is written again.
   */
  get state(): PersistentHealth {
    return this.health;
  }

  /** Summed bytes of the stored entries (after the index is loaded). */
  get bytes(): number {
    return this.total;
  }

  /** Entries used from now on are pinned until the next recalculation starts. */
  beginRecalculation(): void {
    this.pinnedSince = this.now();
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    await this.ready;
    if (!this.index.has(key)) return undefined;
    return this.decode(key, this.unwritten.get(key) ?? (await this.backend.readRecord(key)));
  }

  /**
   * The stored records of `keys` (undefined where there is none) with one storage call, for a bulk
   * load (src/client/warm-up.ts): a reopen reads thousands, and a transaction each is most of an
   * IndexedDB read's cost. Each is made an answer by `decode`.
   */
  async records(keys: readonly string[]): Promise<Array<StoredRecord | undefined>> {
    await this.ready;
    const wanted = keys.filter((k) => this.index.has(k) && !this.unwritten.has(k));
    const { backend } = this;
    const read = backend.readRecords
      ? await backend.readRecords(wanted)
      : await Promise.all(wanted.map((k) => backend.readRecord(k)));
    const byKey = new Map(wanted.map((k, i) => [k, read[i]]));
    return keys.map((k) => this.unwritten.get(k) ?? byKey.get(k));
  }

  /** The answer a record holds (one inflate and parse); a missing or unreadable record goes. */
  async decode(key: string, record: StoredRecord | undefined): Promise<CacheEntry | undefined> {
    const row = this.index.get(key);
    if (row === undefined) return undefined;
    if (record === undefined) {
      this.forget(key);
      return undefined;
    }
    let body: unknown;
    try {
      body = await fromStoredForm(record.body);
      noteStamp(body, record.checked);
    } catch {
      // Unreadable (corrupt, or not gzip bytes): a miss, and the record goes.
      this.forget(key);
      return undefined;
    }
    this.touch(row);
    return { body, storedAt: record.storedAt, bytes: record.bytes };
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    const token = {};
    this.compressing.set(key, token);
    try {
      await this.ready;
      // The API key must not reach storage; keys are URLs without it, so this is a guard.
      if (containsSecret(key) || this.backend === UNAVAILABLE) return;
      const stored = await toStoredForm(entry.body);
      // Forgotten (or superseded) while it was being compressed: not written.
      if (this.compressing.get(key) !== token) return;
      this.put(key, entry, stored);
    } finally {
      if (this.compressing.get(key) === token) this.compressing.delete(key);
    }
  }

  private put(key: string, entry: CacheEntry, stored: Uint8Array<ArrayBuffer>): void {
    const now = this.now();
    // Charged what it takes on disk: gzip is about a tenth of the JSON received.
    const size = Math.max(1, storedSize(stored));
    if (this.index.has(key)) this.forget(key);
    if (!this.makeRoom(size)) return;
    const row: IndexRow = { key, bytes: size, storedAt: entry.storedAt, lastUsed: now };
    const record: StoredRecord = {
      body: stored,
      storedAt: entry.storedAt,
      bytes: entry.bytes,
      checked: storedStamp(),
    };
    this.index.set(key, row);
    this.total += size;
    this.unwritten.set(key, record);
    if (this.pending.remove.includes(key))
      this.pending.remove = this.pending.remove.filter((k) => k !== key);
    this.pending.put.push({ row, record });
    this.later();
  }

  async delete(key: string): Promise<void> {
    this.compressing.delete(key);
    await this.ready;
    this.forget(key);
  }

  async clear(): Promise<void> {
    this.compressing.clear();
    await this.ready;
    await this.flush();
    this.index.clear();
    this.unwritten.clear();
    this.touched.clear();
    this.pending = { put: [], touch: [], remove: [] };
    this.total = 0;
    await this.backend.clear();
  }

  /** Stored keys and keys being compressed to be stored (Forget deletes those of its key too). */
  async keys(): Promise<string[]> {
    await this.ready;
    const keys = [...this.index.keys()];
    for (const key of this.compressing.keys()) if (!this.index.has(key)) keys.push(key);
    return keys;
  }

  /** Stored keys, most recently used first (what a reopen warms first, src/client/warm-up.ts). */
  async recentKeys(): Promise<string[]> {
    await this.ready;
    return [...this.index.values()].sort((a, b) => b.lastUsed - a.lastUsed).map((r) => r.key);
  }

  /** Writes every pending change now (tests, bench, page unload). */
  async flush(): Promise<void> {
    await this.ready;
    this.scheduled = false;
    const batch = this.pending;
    batch.touch = [...this.touched].filter((row) => this.index.get(row.key) === row);
    this.touched.clear();
    this.pending = { put: [], touch: [], remove: [] };
    if (batch.put.length + batch.touch.length + batch.remove.length > 0) {
      const written = batch.put.map((p) => p.row.key);
      this.writing = this.writing
        .then(() =>
          this.backend.commit(batch, { maxBytes: this.maxBytes, pinnedSince: this.pinnedSince }),
        )
        .then(
          (outcome) => {
            this.health = "open";
            // Evicted under the budget shared with other workbooks (another one's answers counted).
            for (const key of outcome?.evicted ?? []) this.dropEvicted(key, batch);
          },
          () => {
            // Not thrown: a cache that cannot persist only costs requests later (the pane says so).
            this.health = "write-failed";
          },
        )
        .then(() => {
          for (const key of written) {
            const record = this.unwritten.get(key);
            if (batch.put.some((p) => p.record === record)) this.unwritten.delete(key);
          }
        });
    }
    await this.writing;
  }

  /** A key the backend removed: gone from the index unless it was written again since `batch`. */
  private dropEvicted(key: string, batch: Batch): void {
    const row = this.index.get(key);
    if (row === undefined) return;
    const unwritten = this.unwritten.get(key);
    if (unwritten !== undefined && !batch.put.some((p) => p.record === unwritten)) return;
    this.index.delete(key);
    this.total -= row.bytes;
    this.touched.delete(row);
    this.unwritten.delete(key);
  }

  private touch(row: IndexRow): void {
    const first = row.lastUsed < this.pinnedSince;
    row.lastUsed = this.now();
    // One index write per key per recalculation is enough for eviction order.
    if (first || !Number.isFinite(this.pinnedSince)) {
      this.touched.add(row);
      this.later();
    }
  }

  private forget(key: string): void {
    const row = this.index.get(key);
    if (row !== undefined) {
      this.index.delete(key);
      this.total -= row.bytes;
      this.touched.delete(row);
    }
    this.unwritten.delete(key);
    // A batch's removes and puts never name the same key, so the backend may apply them in any order.
    if (this.pending.put.some((p) => p.row.key === key))
      this.pending.put = this.pending.put.filter((p) => p.row.key !== key);
    this.pending.remove.push(key);
    this.later();
  }

  /**
   * Evicts least recently used entries until `size` more fits; false when it cannot without
   * evicting an entry this recalculation used (the new answer is then not persisted).
   */
  private makeRoom(size: number): boolean {
    if (size > this.maxBytes) return false;
    if (this.total + size <= this.maxBytes) return true;
    const victims = [...this.index.values()]
      .filter((r) => r.lastUsed < this.pinnedSince)
      .sort((a, b) => a.lastUsed - b.lastUsed);
    let freed = 0;
    const chosen: IndexRow[] = [];
    for (const v of victims) {
      if (this.total - freed + size <= this.maxBytes) break;
      chosen.push(v);
      freed += v.bytes;
    }
    if (this.total - freed + size > this.maxBytes) return false;
    for (const v of chosen) this.forget(v.key);
    return true;
  }

  private later(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => {
      void this.flush();
    });
  }
}
