// Bridges the pane to the shared session (src/session.ts): key provider, base URL, mode, languages.

import { PRODUCTION_BASE_URL, SANDBOX_BASE_URL } from "../src/client";
import {
  DEFAULT_BASE_URL,
  configureSession,
  effectiveBaseUrl,
  getClient,
  getSettings,
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
import { urlOverrides } from "./state/url-overrides";
import type { Lang } from "./i18n/language";

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
  /**
   * Uses a key for the session (stored when remember), bound to the server now chosen in the pane,
   * and tells session listeners.
   */
  setKey(key: string, remember: boolean): Promise<void>;
  /** The key goes only to this URL (where requests go: the base URL, or the relay path). */
  keyTarget?(): string;
  forgetKey(): Promise<void>;
  onChange(listener: () => void): () => void;
}

function settingsFor(
  url: string,
  mode: PaneSettings["mode"],
  headerLanguage: PaneSettings["headerLanguage"],
): PaneSettings {
  const preset = presetFor(url, URL_PRESETS);
  return { preset, customUrl: preset === "custom" ? url : "", mode, headerLanguage };
}

/** Where requests go with these settings: the key is bound to this URL. */
function targetOf(s: PaneSettings): string {
  return effectiveBaseUrl({
    ...getSettings(),
    baseUrl: baseUrlOf(s, URL_PRESETS),
    connectionMode: s.mode,
  });
}

function sameTarget(a: PaneSettings, b: PaneSettings): boolean {
  return baseUrlOf(a, URL_PRESETS) === baseUrlOf(b, URL_PRESETS) && a.mode === b.mode;
}

/**
 * Start-up: loads the remembered key and settings, and registers the key provider so the custom
 * functions read the key from memory (never from the workbook).
 */
export async function startPaneSession(
  options: {
    store?: AsyncStore;
    settingsStore?: AsyncStore;
    query?: URLSearchParams;
    /**
     * The pane's language: a Japanese pane writes Japanese table headers (日本語の項目名) until the
     * user chooses otherwise; an English one the API's keys.
     */
    lang?: Lang;
  } = {},
): Promise<PaneSession> {
  const keys = new KeyManager(options.store ?? defaultKeyStore());
  const settingsStore = options.settingsStore ?? options.store ?? defaultKeyStore();
  const headerLanguage = options.lang === "ja" ? "ja" : "keys";
  const defaults = settingsFor(DEFAULT_BASE_URL, "direct", headerLanguage);
  // Storage that cannot be read (blocked, corrupt) must not keep the pane from opening.
  const saved = await loadSettings(settingsStore, defaults).catch(() => defaults);
  // A key remembered before keys were bound belongs to the server of the saved settings.
  await keys.load(targetOf(saved)).catch(() => undefined);
  // Dev and e2e builds only: ?baseUrl / ?mode win over saved settings for this page load. The
  // remembered key stays bound to its own server, so it is not sent to an overriding one.
  const override = urlOverrides(options.query);
  let settings = override
    ? settingsFor(
        override.baseUrl ?? DEFAULT_BASE_URL,
        override.mode ?? "direct",
        saved.headerLanguage,
      )
    : saved;
  // The key goes only where the user entered or verified it (state/key-store.ts).
  const provideKey = () => keys.keyFor(effectiveBaseUrl(getSettings()));
  setKeyProvider(provideKey);
  // The message language of the functions stays Office's; the pane's override is the pane's.
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
      const moved = !sameTarget(settings, next);
      settings = next;
      configureSession({
        baseUrl: baseUrlOf(next, URL_PRESETS),
        connectionMode: next.mode,
        headerLanguage: next.headerLanguage,
      });
      // The user chose this server in the pane: the key follows that choice, and only it.
      if (moved) await keys.bind(targetOf(next)).catch(() => undefined);
      await saveSettings(settingsStore, next).catch(() => undefined);
    },
    async setKey(key, remember) {
      await keys.set(key, remember, targetOf(settings));
      // Re-registering tells session listeners (recalculation) that the key changed.
      setKeyProvider(provideKey);
    },
    keyTarget: () => targetOf(settings),
    async forgetKey() {
      // The key's answers go with it (memory tier and its persistent records).
      await getClient()
        .forgetKey()
        .catch(() => undefined);
      await keys.forget();
      setKeyProvider(provideKey);
    },
    onChange: (listener) => onSessionChange(() => listener()),
  };
  return session;
}
