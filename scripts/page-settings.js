// The pages' connection settings (default base URL, demo key, ?baseUrl overrides): compiled in by
// `npm run build`, read at run time from kaisha-settings.js in sandbox builds (npm start, e2e), whose
// server may answer that file with other settings (scripts/dev-server.ts `pageSettings`).
"use strict";

/** The file a sandbox build's pages load before any other script (CSP: no inline script). */
const PAGE_SETTINGS_FILE = "kaisha-settings.js";
/**
 * The globals the code reads (behind typeof guards: Node has none of them): `npm run build`'s
 * DefinePlugin replaces them with literals; in sandbox builds the settings file sets them.
 */
const GLOBALS = {
  baseUrl: "__KAISHA_DEFAULT_BASE_URL__",
  demoKey: "__KAISHA_DEMO_KEY__",
  urlOverrides: "__KAISHA_URL_OVERRIDES__",
};

/**
 * What `npm run build` compiles in: the live API (spec: paths are relative to {base_url}/v1), no
 * key, no page overrides (a link with ?baseUrl=http://attacker must not point a production pane
 * anywhere; the minifier drops the override code).
 */
const PRODUCTION_PAGE_SETTINGS = Object.freeze({
  baseUrl: "https://api.irbank.net/v1",
  demoKey: "",
  urlOverrides: false,
});

/** The settings file's text: assignments of the three globals, nothing else runs. */
function pageSettingsScript(settings) {
  return Object.entries(GLOBALS)
    .map(([key, name]) => `self.${name}=${JSON.stringify(settings[key])};\n`)
    .join("");
}

/**
 * DefinePlugin's values: `settings` compiled in as literals (the minifier then drops the code a
 * false or empty one guards). Without settings none: the code reads the globals the settings file
 * set, and a page without that file (another server) gets its typeof guards' fallbacks, which are
 * production's (src/session.ts, taskpane/pane-session.ts, taskpane/state/url-overrides.ts).
 */
function settingsDefinitions(settings) {
  if (settings === undefined) return {};
  return Object.fromEntries(
    Object.entries(GLOBALS).map(([key, name]) => [name, JSON.stringify(settings[key])]),
  );
}

module.exports = {
  PAGE_SETTINGS_FILE,
  PRODUCTION_PAGE_SETTINGS,
  pageSettingsScript,
  settingsDefinitions,
};
