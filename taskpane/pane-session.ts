// Bridges the pane to the shared session (src/session.ts): key provider, base URL, mode, languages.

import { PRODUCTION_BASE_URL, SANDBOX_BASE_URL } from "../src/client";
import {
  DEFAULT_BASE_URL,
  configureSession,
  getClient,
  onSessionChange,
  setKeyProvider,
} from "../src/session";
import { KeyManager, defaultKeyStore, type AsyncStore } from "./state/key-store";
import type { PaneClient } from "./state/pane-client";
import {
  baseUrlOf,
  loadSettings,
  presetFor,
  saveSettings,
  type PaneSettings,
  type UrlPresets,
} from "./state/pane-settings";

export const URL_PRESETS: UrlPresets = {
  production: PRODUCTION_BASE_URL,
  sandbox: SANDBOX_BASE_URL,
};

/** Demo key baked in by webpack only for sandbox builds (npm start, e2e); empty in production. */
declare const __KAISHA_DEMO_KEY__: string;
export const DEMO_KEY: string = typeof __KAISHA_DEMO_KEY__ === "string" ? __KAISHA_DEMO_KEY__ : "";

export interface PaneSession {
  keys: KeyManager;
  settings: PaneSettings;
  client(): PaneClient;
  /** Applies connection settings to the shared session and stores them (no secret in them). */
  applySettings(next: PaneSettings): Promise<void>;
  /** Uses a key for the session (stored when remember) and tells session listeners. */
  setKey(key: string, remember: boolean): Promise<void>;
  forgetKey(): Promise<void>;
  onChange(listener: () => void): () => void;
}

function defaultSettings(query: URLSearchParams | undefined): PaneSettings {
  const url = query?.get("baseUrl") ?? DEFAULT_BASE_URL;
  const mode = query?.get("mode") === "relay" ? "relay" : "direct";
  const preset = presetFor(url, URL_PRESETS);
  return { preset, customUrl: preset === "custom" ? url : "", mode, headerLanguage: "keys" };
}

/**
 * Start-up: loads the remembered key and settings, and registers the key provider so the custom
 * functions read the key from memory (never from the workbook).
 */
export async function startPaneSession(
  options: { store?: AsyncStore; settingsStore?: AsyncStore; query?: URLSearchParams } = {},
): Promise<PaneSession> {
  const keys = new KeyManager(options.store ?? defaultKeyStore());
  const settingsStore = options.settingsStore ?? options.store ?? defaultKeyStore();
  // Storage that cannot be read (blocked, corrupt) must not keep the pane from opening.
  await keys.load().catch(() => undefined);
  const defaults = defaultSettings(options.query);
  // ?baseUrl / ?mode (tests) win over saved settings for this page load.
  let settings =
    options.query?.has("baseUrl") || options.query?.has("mode")
      ? defaults
      : await loadSettings(settingsStore, defaults).catch(() => defaults);
  setKeyProvider(() => keys.current());
  // The message language of the functions stays Office's (issue 4); the pane's override is the pane's.
  configureSession({
    baseUrl: baseUrlOf(settings, URL_PRESETS),
    connectionMode: settings.mode,
    headerLanguage: settings.headerLanguage,
  });
  const session: PaneSession = {
    keys,
    get settings() {
      return settings;
    },
    client: () => getClient(),
    async applySettings(next) {
      settings = next;
      configureSession({
        baseUrl: baseUrlOf(next, URL_PRESETS),
        connectionMode: next.mode,
        headerLanguage: next.headerLanguage,
      });
      await saveSettings(settingsStore, next).catch(() => undefined);
    },
    async setKey(key, remember) {
      await keys.set(key, remember);
      // Re-registering tells session listeners (recalculation) that the key changed.
      setKeyProvider(() => keys.current());
    },
    async forgetKey() {
      await keys.forget();
      setKeyProvider(() => keys.current());
    },
    onChange: (listener) => onSessionChange(() => listener()),
  };
  return session;
}
