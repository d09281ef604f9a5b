// A file-backed CacheStore: stands in for OfficeRuntime.storage so the benchmark can "restart" the add-in.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { CacheEntry, CacheStore } from "../src/client/cache";

/**
 * Keeps every entry serialized as a JSON string, the way OfficeRuntime.storage keeps strings, and
 * writes them all to one file on `flush()`. A new instance over the same file sees what the last
 * flushed one stored: that is the "restart".
 * @example const store = new FileCacheStore("/tmp/cache.json"); ...; await store.flush();
 */
export class FileCacheStore implements CacheStore {
  readonly #path: string;
  readonly #items: Map<string, string>;

  constructor(path: string) {
    this.#path = path;
    this.#items = existsSync(path)
      ? new Map(Object.entries(JSON.parse(readFileSync(path, "utf8")) as Record<string, string>))
      : new Map();
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    const text = this.#items.get(key);
    return text === undefined ? undefined : (JSON.parse(text) as CacheEntry);
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    this.#items.set(key, JSON.stringify(entry));
  }

  async delete(key: string): Promise<void> {
    this.#items.delete(key);
  }

  async clear(): Promise<void> {
    this.#items.clear();
  }

  async keys(): Promise<string[]> {
    return [...this.#items.keys()];
  }

  /** Writes every entry to the file. */
  async flush(): Promise<void> {
    writeFileSync(this.#path, JSON.stringify(Object.fromEntries(this.#items)));
  }

  /** The stored text, exactly as persisted: for size reports and secret-hygiene checks. */
  serialized(): string {
    return JSON.stringify(Object.fromEntries(this.#items));
  }
}
