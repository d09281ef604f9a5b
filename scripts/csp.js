// The Content-Security-Policy of the add-in's pages (task pane + functions runtime, preview), built by webpack.
"use strict";

const { URL } = require("node:url");

/** Microsoft's Office.js CDN: production pages load office.js (and the host scripts it loads) there. */
const OFFICE_CDN_ORIGIN = "https://appsforoffice.microsoft.com";

/** The origin of a base URL ("https://api.irbank.net/v1" -> "https://api.irbank.net"). */
function originOf(url) {
  return new URL(url).origin;
}

/**
 * Extra API origins a build may talk to (KAISHA_CONNECT_SRC, comma or space separated): for a
 * company that points the pane's "Custom" connection at its own https proxy. Each must be an
 * https origin, or http on this computer, like the pane's own rule for custom base URLs.
 */
function extraOrigins(text) {
  if (!text) return [];
  return text
    .split(/[\s,]+/)
    .filter((s) => s !== "")
    .map((s) => {
      const url = new URL(s);
      const local = url.hostname === "localhost" || url.hostname === "127.0.0.1";
      if (url.protocol !== "https:" && !(url.protocol === "http:" && local)) {
        throw new Error(`KAISHA_CONNECT_SRC: ${s} must be https (or http on localhost)`);
      }
      return url.origin;
    });
}

/**
 * The policy, one line. Why each directive:
 * - script-src: our own bundles and Microsoft's Office.js CDN only; no inline script, no eval.
 * - connect-src: our origin (functions.json, the /relay/v1 relay) and the API origins the build
 *   knows (live API, local sandbox, KAISHA_CONNECT_SRC); builds with page overrides (npm start,
 *   e2e) also any port on this computer, where ?baseUrl= may point a test sandbox. A fetch anywhere
 *   else (an injected script's exfiltration, a crafted base URL) is refused by the browser.
 * - style-src 'unsafe-inline': Fluent UI's Griffel inserts <style> elements at run time and the
 *   templates carry their own <style>; a static host cannot give per-response nonces.
 * - frame-src https: Office.js on the web opens a hidden iframe to its host's origin.
 * - object-src 'none', base-uri 'self', form-action 'none': nothing the pages use.
 * @param {{ apiBaseUrls: string[], localPorts: boolean, extra?: string }} options
 * @example contentSecurityPolicy({ apiBaseUrls: ["https://api.irbank.net/v1"], localPorts: false })
 */
function contentSecurityPolicy(options) {
  const connect = new Set(["'self'"]);
  for (const url of options.apiBaseUrls) connect.add(originOf(url));
  for (const origin of extraOrigins(options.extra)) connect.add(origin);
  if (options.localPorts) {
    connect.add("http://127.0.0.1:*");
    connect.add("http://localhost:*");
  }
  return [
    "default-src 'self'",
    `script-src 'self' ${OFFICE_CDN_ORIGIN}`,
    `connect-src ${[...connect].join(" ")}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "frame-src 'self' https:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'none'",
  ].join("; ");
}

module.exports = { contentSecurityPolicy };
