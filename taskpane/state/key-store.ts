// Where a remembered API key lives: OfficeRuntime.storage or localStorage of the add-in, never the workbook.

/** The async storage shape shared by OfficeRuntime.storage and our localStorage wrapper. */
export interface AsyncStore {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
}

const KEY_STORAGE_KEY = "kaisha.apiKey";
/** The base URL the remembered key was verified against (the key goes nowhere else). */
const KEY_BASE_URL_STORAGE_KEY = "kaisha.apiKeyBaseUrl";

/** Base URLs compare without trailing slashes or surrounding spaces. */
export function sameBaseUrl(a: string | undefined, b: string | undefined): boolean {
  const norm = (u: string | undefined) => u?.trim().replace(/\/+$/, "");
  return a !== undefined && b !== undefined && norm(a) === norm(b);
}

function localStorageStore(storage: Storage): AsyncStore {
  return {
    getItem: (k) => Promise.resolve(storage.getItem(k)),
    setItem: (k, v) => Promise.resolve(storage.setItem(k, v)),
    removeItem: (k) => Promise.resolve(storage.removeItem(k)),
  };
}

/** @internal Tests keep the key in memory instead of the add-in's storage. */
export function memoryStore(): AsyncStore {
  const map = new Map<string, string>();
  return {
    getItem: (k) => Promise.resolve(map.get(k) ?? null),
    setItem: (k, v) => Promise.resolve(void map.set(k, v)),
    removeItem: (k) => Promise.resolve(void map.delete(k)),
  };
}

/**
 * OfficeRuntime.storage in the shared runtime (persistent, per add-in origin); in a plain
 * browser, localStorage. Both belong to this computer's profile, not to the .xlsx file.
 */
export function defaultKeyStore(): AsyncStore {
  const runtime = (globalThis as { OfficeRuntime?: { storage?: AsyncStore } }).OfficeRuntime;
  if (runtime?.storage) return runtime.storage;
  const ls = (globalThis as { localStorage?: Storage }).localStorage;
  return ls ? localStorageStore(ls) : memoryStore();
}

/**
 * Holds the session's API key in memory and, when asked, on this computer, bound to the base URL it
 * was entered or verified for: `keyFor(url)` hands the key out only for that URL, so a page opened
 * with another server (a link, a stale setting) never sends it there (README "Using a real key").
 * @example const keys = new KeyManager(defaultKeyStore()); await keys.load(url); keys.keyFor(url);
 */
export class KeyManager {
  #key: string | undefined;
  #boundTo: string | undefined;
  #remembered = false;

  constructor(private readonly store: AsyncStore) {}

  /**
   * Reads a remembered key (start-up). A key remembered before keys were bound has no URL stored:
   * it is bound to `legacyBaseUrl`, the server of the user's saved settings (never a URL override).
   */
  async load(legacyBaseUrl?: string): Promise<string | undefined> {
    const stored = await this.store.getItem(KEY_STORAGE_KEY);
    if (stored && stored.trim() !== "") {
      this.#key = stored.trim();
      this.#remembered = true;
      const bound = await this.store.getItem(KEY_BASE_URL_STORAGE_KEY);
      this.#boundTo = bound && bound.trim() !== "" ? bound.trim() : legacyBaseUrl;
    }
    return this.#key;
  }

  /** The key as entered (for the pane's key field); requests use `keyFor`. */
  current(): string | undefined {
    return this.#key;
  }

  /** The base URL the key is bound to, if any. */
  boundTo(): string | undefined {
    return this.#key === undefined ? undefined : this.#boundTo;
  }

  /** The key when `baseUrl` is the one it is bound to; otherwise undefined (nothing is sent). */
  keyFor(baseUrl: string): string | undefined {
    return sameBaseUrl(this.#boundTo, baseUrl) ? this.#key : undefined;
  }

  isRemembered(): boolean {
    return this.#remembered;
  }

  /**
   * Uses `key` for this session, bound to `baseUrl`; stores both only when `remember`, else removes
   * any stored copy.
   */
  async set(key: string, remember: boolean, baseUrl: string): Promise<void> {
    const trimmed = key.trim();
    this.#key = trimmed === "" ? undefined : trimmed;
    this.#boundTo = this.#key === undefined ? undefined : baseUrl.trim();
    if (remember && this.#key !== undefined) {
      await this.store.setItem(KEY_STORAGE_KEY, this.#key);
      await this.#storeBinding();
      this.#remembered = true;
    } else {
      await this.store.removeItem(KEY_STORAGE_KEY);
      await this.store.removeItem(KEY_BASE_URL_STORAGE_KEY);
      this.#remembered = false;
    }
  }

  /** The user chose another server in the pane: the key now goes there (and only there). */
  async bind(baseUrl: string): Promise<void> {
    if (this.#key === undefined) return;
    this.#boundTo = baseUrl.trim();
    if (this.#remembered) await this.#storeBinding();
  }

  /** Forget: removes the stored key and clears it from the session. */
  async forget(): Promise<void> {
    this.#key = undefined;
    this.#boundTo = undefined;
    this.#remembered = false;
    await this.store.removeItem(KEY_STORAGE_KEY);
    await this.store.removeItem(KEY_BASE_URL_STORAGE_KEY);
  }

  async #storeBinding(): Promise<void> {
    if (this.#boundTo === undefined) await this.store.removeItem(KEY_BASE_URL_STORAGE_KEY);
    else await this.store.setItem(KEY_BASE_URL_STORAGE_KEY, this.#boundTo);
  }
}
