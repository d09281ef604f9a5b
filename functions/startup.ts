// Functions start-up: host capabilities, display language and the persistent cache, once Office is ready.

import { configureSession, setCacheStore } from "../src/session";
import { detectHostCapabilities, officeDisplayLang, setHostCapabilities } from "./host";
import { createAddinCacheStore, type KeyValueStorage } from "./office-storage";

interface OfficeReady {
  onReady?: (callback?: () => void) => Promise<unknown>;
}

let started: Promise<void> | undefined;

/** Applies what the host offers; exported for tests (no Office needed). */
export function applyHost(storage: KeyValueStorage | undefined): void {
  setHostCapabilities(detectHostCapabilities());
  const lang = officeDisplayLang();
  if (lang !== undefined) configureSession({ lang });
  if (storage !== undefined) setCacheStore(createAddinCacheStore(storage));
}

/**
 * Runs once. Outside Office (Node, a plain page without Office.js) it does nothing: the defaults
 * (plain values, memory cache, English) apply.
 */
export function startFunctions(): Promise<void> {
  started ??= (async () => {
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
