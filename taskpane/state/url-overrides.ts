// ?baseUrl / ?mode page overrides: compiled in only for npm start and e2e builds, never for production.

import type { ConnectionMode } from "../../src/session";
import { isValidBaseUrl } from "./pane-settings";

/**
 * webpack's DefinePlugin sets this to `true` for npm start and the e2e build and to `false` for
 * `npm run build`, whose minifier then drops the override code entirely (a link with
 * `?baseUrl=http://attacker` must not be able to point a production pane anywhere).
 */
declare const __KAISHA_URL_OVERRIDES__: boolean;

export interface UrlOverrides {
  baseUrl?: string;
  mode?: ConnectionMode;
}

/**
 * The page's connection overrides, or undefined when the build has none or the query names none. A
 * base URL that the pane itself would refuse (plain http to another host) is ignored.
 * @example urlOverrides(new URLSearchParams("baseUrl=http://127.0.0.1:9/v1")) // dev builds only
 */
export function urlOverrides(query: URLSearchParams | undefined): UrlOverrides | undefined {
  if (typeof __KAISHA_URL_OVERRIDES__ === "undefined" || !__KAISHA_URL_OVERRIDES__)
    return undefined;
  if (query === undefined) return undefined;
  const out: UrlOverrides = {};
  const baseUrl = query.get("baseUrl")?.trim().replace(/\/+$/, "");
  if (baseUrl !== undefined && isValidBaseUrl(baseUrl)) out.baseUrl = baseUrl;
  const mode = query.get("mode");
  if (mode === "relay" || mode === "direct") out.mode = mode;
  return out.baseUrl !== undefined || out.mode !== undefined ? out : undefined;
}
