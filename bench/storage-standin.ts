// Stand-in for IndexedDB under the persistent tier: structured-clone copies and per-call latency.

import { readFileSync, writeFileSync } from "node:fs";
import { deserialize, serialize } from "node:v8";
import type { Batch, IndexRow, PersistentBackend, StoredRecord } from "../src/client";

/**
 * What survives a "restart": records and index rows, serialized on every write and deserialized on
 * every read with V8's structured-clone serializer (what Chromium's IndexedDB uses), kept in
 * Buffers outside the JS heap as a database keeps them on disk; each call delayed by `latencyMs`
 * of the (virtual) clock: "a few ms" per call (3 ms by default; no measured
 * figure is claimed). Structured clone: HTML spec "StructuredSerialize", as IndexedDB stores values.
 * The real backend (src/client/idb-backend.ts) is tested in Chromium (test/e2e/idb-reopen.test.ts).
 *
 * @example const disk = new StorageStandIn(clock.sleep); new PersistentCacheStore(disk.open())
 */
export class StorageStandIn {
  private readonly records = new Map<string, Buffer>();
  private readonly rows = new Map<string, [number, number, number]>();
  calls = 0;
  recordReads = 0;

  constructor(
    private readonly sleep: (ms: number) => Promise<void>,
    private readonly latencyMs = 3,
  ) {}

  /** A backend over this storage (one per "runtime"). */
  open(): PersistentBackend {
    const wait = async (): Promise<void> => {
      this.calls += 1;
      await this.sleep(this.latencyMs);
    };
    return {
      readIndex: async (): Promise<IndexRow[]> => {
        await wait();
        return [...this.rows].map(([key, [bytes, storedAt, lastUsed]]) => ({
          key,
          bytes,
          storedAt,
          lastUsed,
        }));
      },
      readRecord: async (key: string): Promise<StoredRecord | undefined> => {
        await wait();
        this.recordReads += 1;
        const record = this.records.get(key);
        return record === undefined ? undefined : (deserialize(record) as StoredRecord);
      },
      readRecords: async (keys: readonly string[]): Promise<Array<StoredRecord | undefined>> => {
        // One call, as one IndexedDB transaction is (src/client/idb-backend.ts readRecords).
        await wait();
        this.recordReads += keys.length;
        return keys.map((key) => {
          const record = this.records.get(key);
          return record === undefined ? undefined : (deserialize(record) as StoredRecord);
        });
      },
      commit: async (batch: Batch): Promise<void> => {
        await wait();
        for (const key of batch.remove) {
          this.records.delete(key);
          this.rows.delete(key);
        }
        for (const { row, record } of batch.put) {
          this.records.set(row.key, serialize(record));
          this.rows.set(row.key, [row.bytes, row.storedAt, row.lastUsed]);
        }
        for (const row of batch.touch)
          this.rows.set(row.key, [row.bytes, row.storedAt, row.lastUsed]);
      },
      clear: async (): Promise<void> => {
        await wait();
        this.records.clear();
        this.rows.clear();
      },
    };
  }

  /**
   * Writes what is stored to a file, as the database is on disk when the workbook closes: a new
   * process (bench/reopen-child.ts) opens the same answers with `load`.
   */
  save(path: string): void {
    writeFileSync(path, serialize({ records: [...this.records], rows: [...this.rows] }));
  }

  /** What `save` wrote, in this storage (replacing nothing: it is meant for a fresh instance). */
  load(path: string): this {
    const saved = deserialize(readFileSync(path)) as {
      records: [string, Uint8Array][];
      rows: [string, [number, number, number]][];
    };
    for (const [key, bytes] of saved.records) this.records.set(key, Buffer.from(bytes));
    for (const [key, row] of saved.rows) this.rows.set(key, row);
    return this;
  }

  get entries(): number {
    return this.records.size;
  }

  /** Bytes of the serialized records (what the database would hold on disk). */
  get bytes(): number {
    let n = 0;
    for (const b of this.records.values()) n += b.byteLength;
    return n;
  }
}
