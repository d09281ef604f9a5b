// Functions start-up: host capabilities, display language and the persistent cache, once Office is ready.

import { configureSession, setCacheStore } from "../src/session";
import { detectHostCapabilities, officeDisplayLang, setHostCapabilities } from "./host";
import { createAddinCacheStore, type KeyValueStorage } from "./office-storage";
import { platformIndexedDb } from "../src/client/idb-backend";
import { warmMemoryTier } from "../src/client/warm-up";

interface OfficeReady {
  onReady?: (callback?: () => void) => Promise<unknown>;
}

let started: Promise<void> | undefined;

/** Applies what the host offers; exported for tests (no Office needed). */
export function applyHost(storage: KeyValueStorage | undefined): void {
  setHostCapabilities(detectHostCapabilities());
  const lang = officeDisplayLang();
  if (lang !== undefined) configureSession({ lang });
  installCache(storage);
}

let cacheInstalled = false;

/**
 * The persistent cache: IndexedDB needs no Office, so a browser page gets it at once (the preview
 * page too); OfficeRuntime.storage is the fallback once Office is ready.
 */
function installCache(storage: KeyValueStorage | undefined): void {
  if (cacheInstalled) return;
  const store = createAddinCacheStore(storage);
  if (store === undefined) return;
  cacheInstalled = true;
  setCacheStore(store);
  // Reopen at warm speed: the persisted answers go to memory before (or while) the cells ask.
  void warmMemoryTier(store);
  // Batched writes wait a quarter second: a page closing (workbook closed) writes what is pending.
  const page = globalThis as { addEventListener?: (type: string, fn: () => void) => void };
  page.addEventListener?.("pagehide", () => void store.flush());
}

/**
 * Runs once. Outside Office (Node, a plain page without Office.js) only the IndexedDB cache is
 * installed where there is one: otherwise the defaults (plain values, memory cache, English) apply.
 */
export function startFunctions(): Promise<void> {
  started ??= (async () => {
    if (platformIndexedDb() !== undefined) installCache(undefined);
    const office = (globalThis as { Office?: OfficeReady }).Office;
    if (office?.onReady === undefined) return;
    try {
      await office.onReady();
    } catch {
      return;
    }
    const storage = (globalThis as { OfficeRuntime?: { storage?: KeyValueStorage } }).OfficeRuntime
      ?.storage;
    applyHost(storage);
  })();
  return started;
}
