// Types of scripts/page-settings.js (plain CommonJS: webpack.config.js requires it too).

/** A page's connection settings (scripts/page-settings.js). */
export interface PageSettings {
  /** The default API base URL, e.g. http://127.0.0.1:8787/v1. */
  baseUrl: string;
  /** The sandbox demo key the pane offers, or "". */
  demoKey: string;
  /** Whether ?baseUrl= and ?mode= may change the page's connection. */
  urlOverrides: boolean;
}

export const PAGE_SETTINGS_FILE: string;
export const PRODUCTION_PAGE_SETTINGS: Readonly<PageSettings>;
export function pageSettingsScript(settings: PageSettings): string;
export function settingsDefinitions(settings?: PageSettings): Record<string, string>;
