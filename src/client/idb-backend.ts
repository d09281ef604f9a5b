// IndexedDB backend of the persistent cache tier: answers and their index in two object stores.

import {
  indexRowOf,
  type Batch,
  type IndexRow,
  type PersistentBackend,
  type SharedBudget,
  type StoredRecord,
} from "./persistent-store";

const RECORDS = "records";
const INDEX = "index";
const VERSION = 1;

/**
 * The database's name carries the stored form's version (src/client/stored-form.ts): a form that
 * an earlier version could misread gets a new name, so no version ever takes another's record for
 * an answer. Bump the suffix then, and add the name it replaces to `OLD_CACHE_DB_NAMES`. A new name
 * deletes every stored answer, which the user pays for again in requests; so a change that every
 * earlier version refuses as not a stored answer (a miss, fetched again), and that this version
 * reads in both forms, keeps the name (the part lines of test/client/stored-form-parts.test.ts:
 * the form before them throws "not a stored answer" on a record that has one).
 * @internal Tests and the bench open the database by its name.
 */
export const CACHE_DB_NAME = "kaisha-cache-v3";

/**
 * Databases of earlier stored forms, deleted on open: gzip bytes, columnar records and mixed
 * ("kaisha-cache"); gzip of the answer's JSON in one line ("kaisha-cache-v2").
 */
const OLD_CACHE_DB_NAMES: readonly string[] = ["kaisha-cache", "kaisha-cache-v2"];

/** Index row as stored: [bytes, storedAt, lastUsed] under the cache key. */
type StoredRow = [number, number, number];

function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error("IndexedDB request failed"));
  });
}

function committed(tx: IDBTransaction): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error("IndexedDB transaction failed"));
    tx.onabort = () => reject(tx.error ?? new Error("IndexedDB transaction aborted"));
  });
}

/**
 * Deletes the databases of earlier stored forms, best effort and not awaited: their answers are
 * only re-fetchable copies, and a user's disk should not keep hundreds of MB no version reads.
 * IndexedDB (W3C, "delete a database"; web-platform-tests idbfactory_deleteDatabase and
 * idbdatabase_close2): open connections get `versionchange` and the request waits ("blocked") until
 * they close, e.g. an older add-in still running in another window; deleting a name that does not
 * exist succeeds, so after the first start this costs one no-op request.
 */
function deleteOldDatabases(factory: IDBFactory, current: string): void {
  for (const old of OLD_CACHE_DB_NAMES) {
    if (old === current) continue;
    try {
      const request = factory.deleteDatabase(old);
      request.onerror = () => undefined;
    } catch {
      // Some hosts refuse (a sandboxed frame): the old database stays, unread.
    }
  }
}

/**
 * Opens (creating when needed) the cache database and removes those of earlier versions. No
 * wrapper library: the backend needs five operations, each a few lines over the raw API.
 *
 * @example const store = new PersistentCacheStore(openIdbBackend(indexedDB));
 */
export async function openIdbBackend(
  factory: IDBFactory,
  name = CACHE_DB_NAME,
): Promise<PersistentBackend> {
  deleteOldDatabases(factory, name);
  const open = factory.open(name, VERSION);
  open.onupgradeneeded = () => {
    const db = open.result;
    if (!db.objectStoreNames.contains(RECORDS)) db.createObjectStore(RECORDS);
    if (!db.objectStoreNames.contains(INDEX)) db.createObjectStore(INDEX);
  };
  const db = await done(open);
  // Another tab upgrading the schema: let it, this connection's cache simply stops persisting.
  db.onversionchange = () => db.close();

  return {
    async readIndex(): Promise<Array<IndexRow | { key: string; bad: true }>> {
      const tx = db.transaction(INDEX, "readonly");
      return (await readRows(tx.objectStore(INDEX))).map(
        ({ key, row }) => row ?? { key, bad: true as const },
      );
    },
    async readRecord(key: string): Promise<StoredRecord | undefined> {
      const tx = db.transaction(RECORDS, "readonly");
      const value = (await done(tx.objectStore(RECORDS).get(key))) as StoredRecord | undefined;
      return value ?? undefined;
    },
    async readRecords(keys: readonly string[]): Promise<Array<StoredRecord | undefined>> {
      // One transaction for all: a reopen's bulk load reads thousands of records.
      const store = db.transaction(RECORDS, "readonly").objectStore(RECORDS);
      const values = await Promise.all(
        keys.map((key) => done(store.get(key) as IDBRequest<StoredRecord | undefined>)),
      );
      return values.map((v) => v ?? undefined);
    },
    async commit(batch: Batch, budget?: SharedBudget): Promise<{ evicted: string[] }> {
      const tx = db.transaction([RECORDS, INDEX], "readwrite");
      const records = tx.objectStore(RECORDS);
      const index = tx.objectStore(INDEX);
      for (const key of batch.remove) {
        records.delete(key);
        index.delete(key);
      }
      for (const { row, record } of batch.put) {
        records.put(record, row.key);
        index.put([row.bytes, row.storedAt, row.lastUsed] satisfies StoredRow, row.key);
      }
      for (const row of batch.touch) {
        index.put([row.bytes, row.storedAt, row.lastUsed] satisfies StoredRow, row.key);
      }
      const evicted = budget === undefined ? [] : await evictOver(records, index, batch, budget);
      await committed(tx);
      return { evicted };
    },
    async clear(): Promise<void> {
      const tx = db.transaction([RECORDS, INDEX], "readwrite");
      tx.objectStore(RECORDS).clear();
      tx.objectStore(INDEX).clear();
      await committed(tx);
    },
    close(): void {
      db.close();
    },
  };
}

/** Every index row with its key; `row` undefined where the value is not a row (`indexRowOf`). */
async function readRows(
  index: IDBObjectStore,
): Promise<Array<{ key: string; row: IndexRow | undefined }>> {
  const [keys, values] = await Promise.all([done(index.getAllKeys()), done(index.getAll())]);
  const out: Array<{ key: string; row: IndexRow | undefined }> = [];
  keys.forEach((key, i) => {
    if (typeof key === "string") out.push({ key, row: indexRowOf(key, values[i]) });
  });
  return out;
}

/**
 * The budget applied to the whole database, inside the batch's transaction: every workbook open on
 * this computer writes here, so the total is read from the store itself at each write (as the
 * daily request budget is read from the computer's ledger, src/revalidation-budget.ts), never
 * summed by one workbook alone. Over it, the least recently used rows go first, never a row this
 * recalculation used (`pinnedSince`) nor one this batch touched; this batch's own answers go last
 * (the store then keeps them in memory only, as when they do not fit). Bad rows go too.
 */
async function evictOver(
  records: IDBObjectStore,
  index: IDBObjectStore,
  batch: Batch,
  budget: SharedBudget,
): Promise<string[]> {
  const rows = await readRows(index);
  const evicted: string[] = [];
  const remove = (key: string) => {
    records.delete(key);
    index.delete(key);
    evicted.push(key);
  };
  let total = 0;
  const candidates: IndexRow[] = [];
  const own = new Set(batch.put.map((p) => p.row.key));
  const touched = new Set(batch.touch.map((r) => r.key));
  for (const { key, row } of rows) {
    if (row === undefined) remove(key);
    else {
      total += row.bytes;
      if (!own.has(key) && !touched.has(key) && row.lastUsed < budget.pinnedSince)
        candidates.push(row);
    }
  }
  if (total <= budget.maxBytes) return evicted;
  candidates.sort((a, b) => a.lastUsed - b.lastUsed);
  const newest = batch.put.map((p) => p.row);
  for (const row of [...candidates, ...newest]) {
    if (total <= budget.maxBytes) break;
    remove(row.key);
    total -= row.bytes;
  }
  return evicted;
}
