// Connection preferences of the pane (not secrets): base URL preset, custom URL, mode, header language.

import type { HeaderLanguage } from "../../src/excel/shape";
import type { ConnectionMode } from "../../src/session";
import type { AsyncStore } from "./key-store";

// The session (src/session.ts) owns what a mode and a header language are; the pane stores them.
export type BasePreset = "production" | "sandbox" | "custom";

export interface PaneSettings {
  preset: BasePreset;
  customUrl: string;
  mode: ConnectionMode;
  headerLanguage: HeaderLanguage;
}

const SETTINGS_STORAGE_KEY = "kaisha.settings";

export interface UrlPresets {
  production: string;
  sandbox: string;
}

/** The preset that a base URL corresponds to (start-up from the build's default). */
export function presetFor(url: string, presets: UrlPresets): BasePreset {
  if (url === presets.production) return "production";
  if (url === presets.sandbox) return "sandbox";
  return "custom";
}

export function baseUrlOf(s: PaneSettings, presets: UrlPresets): string {
  if (s.preset === "production") return presets.production;
  if (s.preset === "sandbox") return presets.sandbox;
  return s.customUrl.trim().replace(/\/+$/, "");
}

/** 127.0.0.0/8, localhost and [::1]: plain http there never leaves this computer. */
function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return (
    h === "localhost" || h.endsWith(".localhost") || h === "[::1]" || /^127(\.\d{1,3}){3}$/.test(h)
  );
}

/**
 * A base URL the key may be sent to: https, or plain http only to this computer (a key sent
 * over plain http to another host can be read on the way). No credentials, query or fragment.
 */
export function isValidBaseUrl(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.username !== "" || u.password !== "" || u.search !== "" || u.hash !== "") return false;
  return u.protocol === "https:" || (u.protocol === "http:" && isLoopbackHost(u.hostname));
}

export async function loadSettings(
  store: AsyncStore,
  defaults: PaneSettings,
): Promise<PaneSettings> {
  const raw = await store.getItem(SETTINGS_STORAGE_KEY);
  if (!raw) return defaults;
  try {
    const s = JSON.parse(raw) as Partial<PaneSettings>;
    // A custom URL saved before the https rule (plain http to another host) is not used again.
    if (
      s.preset === "custom" &&
      !isValidBaseUrl(
        String(s.customUrl ?? "")
          .trim()
          .replace(/\/+$/, ""),
      )
    )
      return defaults;
    return {
      preset:
        s.preset === "production" || s.preset === "sandbox" || s.preset === "custom"
          ? s.preset
          : defaults.preset,
      customUrl: typeof s.customUrl === "string" ? s.customUrl : defaults.customUrl,
      mode: s.mode === "relay" || s.mode === "direct" ? s.mode : defaults.mode,
      headerLanguage:
        s.headerLanguage === "ja" || s.headerLanguage === "keys"
          ? s.headerLanguage
          : defaults.headerLanguage,
    };
  } catch {
    return defaults;
  }
}

export async function saveSettings(store: AsyncStore, s: PaneSettings): Promise<void> {
  await store.setItem(SETTINGS_STORAGE_KEY, JSON.stringify(s));
}
