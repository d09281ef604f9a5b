// Functions start-up: host capabilities, display language and the persistent cache, once Office is ready.

import { configureSession, setCacheStore } from "../src/session";
import { detectHostCapabilities, officeDisplayLang, setHostCapabilities } from "./host";
import { createAddinCacheStore } from "./addin-cache";
import { TieredCacheStore, warmMemoryTier } from "../src/client";

interface OfficeReady {
  onReady?: (callback?: () => void) => Promise<unknown>;
}

let started: Promise<void> | undefined;

/**
 * Applies what the host offers; exported for tests (no Office needed).
 * @internal Tests apply host capabilities without Office; the product calls it from startFunctions.
 */
export function applyHost(): void {
  setHostCapabilities(detectHostCapabilities());
  const lang = officeDisplayLang();
  if (lang !== undefined) configureSession({ lang });
  installCache();
}

let cacheInstalled = false;

/**
 * The add-in's cache (functions/addin-cache.ts): IndexedDB needs no Office, so a browser page gets
 * it at once (the preview page too); without IndexedDB it is the memory tier alone.
 */
function installCache(): void {
  if (cacheInstalled) return;
  cacheInstalled = true;
  const store = createAddinCacheStore();
  setCacheStore(store);
  if (!(store instanceof TieredCacheStore)) return;
  // Reopen at warm speed: the persisted answers go to memory before (or while) the cells ask.
  void warmMemoryTier(store);
  // Batched writes wait a quarter second: a page closing (workbook closed) writes what is pending.
  const page = globalThis as { addEventListener?: (type: string, fn: () => void) => void };
  page.addEventListener?.("pagehide", () => void store.flush());
}

/**
 * Runs once. The cache is installed at once, Office or not; outside Office (Node, a plain page
 * without Office.js) the other defaults (plain values, English) apply.
 */
export function startFunctions(): Promise<void> {
  started ??= (async () => {
    installCache();
    const office = (globalThis as { Office?: OfficeReady }).Office;
    if (office?.onReady === undefined) return;
    try {
      await office.onReady();
    } catch {
      return;
    }
    applyHost();
  })();
  return started;
}
