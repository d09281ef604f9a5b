// What every request shares with the API, on the runtime page: the fetch seam, URL building, the
// key's header rule and the limits; the exchange itself is send.ts, loaded with the first request.

import type { ParamValue } from "./params";

/** The subset of `fetch` the client uses; injectable (the test seam). */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; signal: AbortSignal },
) => Promise<ResponseLike>;

/**
 * The subset of `Response` the client reads.
 */
export interface ResponseLike {
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
  /** When present (fetch), read chunk by chunk so an oversized answer is stopped early. */
  body?: ReadableStream<Uint8Array> | null;
}

/** @default 30000 */
export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * Largest answer read (the largest real answers, 30 years of financials, are a few
 * hundred kB, and Excel takes about 5 MB per result). Counted while the body streams in; a larger
 * answer is dropped unparsed. @unit bytes
 */
export const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/**
 * True when `key` can go in an HTTP header as typed: visible ASCII only (openapi.json bearerAuth
 * keys are ASCII). A zero-width space or full-width letters make fetch throw, which would read as
 * "cannot reach the API".
 */
export function isHeaderSafeKey(key: string): boolean {
  return /^[\x21-\x7e]+$/.test(key);
}

/**
 * Full URL of a request: `{name}` path segments filled (percent-encoded), remaining parameters as a
 * query string sorted by name. The key never goes in a URL (openapi.json bearerAuth: header only).
 *
 * @example buildUrl("https://api.irbank.net/v1", "/securities/{code}/prices", { code: "7203", limit: 5 })
 * // "https://api.irbank.net/v1/securities/7203/prices?limit=5"
 */
export function buildUrl(
  baseUrl: string,
  pathTemplate: string,
  params: Readonly<Record<string, ParamValue>>,
): string {
  const used = new Set<string>();
  const path = pathTemplate.replace(/\{([^}]+)\}/g, (_, name: string) => {
    used.add(name);
    const value = params[name];
    if (value === undefined) throw new TypeError(`path parameter ${name} is missing`);
    return encodeURIComponent(String(value));
  });
  const query = new URLSearchParams();
  for (const name of Object.keys(params).sort()) {
    const value = params[name];
    if (!used.has(name) && value !== undefined) query.append(name, String(value));
  }
  const qs = query.toString();
  return `${baseUrl.replace(/\/+$/, "")}${path}${qs ? `?${qs}` : ""}`;
}
