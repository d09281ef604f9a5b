// Where a remembered API key lives: OfficeRuntime.storage or localStorage of the add-in, never the workbook.

/** The async storage shape shared by OfficeRuntime.storage and our localStorage wrapper. */
export interface AsyncStore {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
}

export const KEY_STORAGE_KEY = "kaisha.apiKey";

export function localStorageStore(storage: Storage): AsyncStore {
  return {
    getItem: (k) => Promise.resolve(storage.getItem(k)),
    setItem: (k, v) => Promise.resolve(storage.setItem(k, v)),
    removeItem: (k) => Promise.resolve(storage.removeItem(k)),
  };
}

export function memoryStore(): AsyncStore {
  const map = new Map<string, string>();
  return {
    getItem: (k) => Promise.resolve(map.get(k) ?? null),
    setItem: (k, v) => Promise.resolve(void map.set(k, v)),
    removeItem: (k) => Promise.resolve(void map.delete(k)),
  };
}

/**
 * REFERENCE: OfficeRuntime.storage in the shared runtime (persistent, per add-in origin); in a plain
 * browser, localStorage. Both belong to this computer's profile, not to the .xlsx file.
 */
export function defaultKeyStore(): AsyncStore {
  const runtime = (globalThis as { OfficeRuntime?: { storage?: AsyncStore } }).OfficeRuntime;
  if (runtime?.storage) return runtime.storage;
  const ls = (globalThis as { localStorage?: Storage }).localStorage;
  return ls ? localStorageStore(ls) : memoryStore();
}

/**
 * Holds the session's API key in memory and, when asked, on this computer.
 * @example const keys = new KeyManager(defaultKeyStore()); await keys.load(); keys.current();
 */
export class KeyManager {
  #key: string | undefined;
  #remembered = false;

  constructor(private readonly store: AsyncStore) {}

  /** Reads a remembered key (start-up). */
  async load(): Promise<string | undefined> {
    const stored = await this.store.getItem(KEY_STORAGE_KEY);
    if (stored && stored.trim() !== "") {
      this.#key = stored.trim();
      this.#remembered = true;
    }
    return this.#key;
  }

  current(): string | undefined {
    return this.#key;
  }

  isRemembered(): boolean {
    return this.#remembered;
  }

  /** Uses `key` for this session; stores it only when `remember`, else removes any stored copy. */
  async set(key: string, remember: boolean): Promise<void> {
    const trimmed = key.trim();
    this.#key = trimmed === "" ? undefined : trimmed;
    if (remember && this.#key !== undefined) {
      await this.store.setItem(KEY_STORAGE_KEY, this.#key);
      this.#remembered = true;
    } else {
      await this.store.removeItem(KEY_STORAGE_KEY);
      this.#remembered = false;
    }
  }

  /** Forget: removes the stored key and clears it from the session. */
  async forget(): Promise<void> {
    this.#key = undefined;
    this.#remembered = false;
    await this.store.removeItem(KEY_STORAGE_KEY);
  }
}
