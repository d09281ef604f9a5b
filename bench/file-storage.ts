// A file-backed stand-in for OfficeRuntime.storage (string key-value, async), so the benchmark can
// "restart" the add-in: a new instance over the same file sees what the last one flushed.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { KeyValueStorage } from "../functions/office-storage";

/**
 * Keeps items in memory like the runtime does and writes them all to one JSON file on `flush()`.
 * @example const storage = new FileStorage("/tmp/storage.json"); new OfficeStorageCacheStore(storage)
 */
export class FileStorage implements KeyValueStorage {
  readonly #path: string;
  readonly #items: Map<string, string>;
  /** getItem calls so far: how often the add-in went to "disk". */
  reads = 0;

  constructor(path: string) {
    this.#path = path;
    this.#items = existsSync(path)
      ? new Map(Object.entries(JSON.parse(readFileSync(path, "utf8")) as Record<string, string>))
      : new Map();
  }

  async getItem(key: string): Promise<string | null> {
    this.reads += 1;
    return this.#items.get(key) ?? null;
  }

  async setItem(key: string, value: string): Promise<void> {
    this.#items.set(key, value);
  }

  async removeItem(key: string): Promise<void> {
    this.#items.delete(key);
  }

  async removeItems(keys: string[]): Promise<void> {
    for (const key of keys) this.#items.delete(key);
  }

  async getKeys(): Promise<string[]> {
    return [...this.#items.keys()];
  }

  /** Writes every item to the file. */
  flush(): void {
    writeFileSync(this.#path, JSON.stringify(Object.fromEntries(this.#items)));
  }

  /** Summed UTF-16 length of keys and values: what the 10 MB per-origin quota is about. */
  get size(): number {
    let total = 0;
    for (const [k, v] of this.#items) total += k.length + v.length;
    return total;
  }
}
