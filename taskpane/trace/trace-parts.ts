// The parts every trace shares (resolve-trace.ts and the per-function traces): what resolving
// needs, the answer a cell reads (fresh or due), its freshness, the request in words, and the
// item of a table's header.

import type { SecurityDisclosuresResponse, SecurityDailyPrice } from "../../src/contract";
import { FIELD_DICTIONARY } from "../../src/contract";
import type { Dataset } from "../../src/contract";
import { staleInfo } from "../../src/client";
import { labelJa, unitLabel, unitOf } from "../../src/excel/labels";
import type { TracedCellRead } from "../excel/kaisha-values";
import { englishLabel } from "../state/metric-labels";
import type { Lang } from "../i18n/language";
import type { CompanyClient } from "./company-trace";
import { matchFilings } from "./filing-match";
import type { Rerun } from "./table-place";
import type { CellTrace, TraceFetch, TraceSource } from "./trace-model";

/** The selected cell as the Excel module reads it (taskpane/excel/kaisha-values.ts). */
export type SelectedCell = TracedCellRead;

/** An answer as stored: its body and when it was received. */
export interface StoredAnswer {
  body: unknown;
  /** @unit ms since epoch */
  storedAt: number;
}

/** What resolving needs besides the cell: the client and the company's disclosures list. */
export interface TraceDeps {
  client: CompanyClient;
  /** The disclosures list of a security (cached like any answer); undefined when not asked. */
  disclosures(code: string): Promise<SecurityDisclosuresResponse | undefined>;
  /**
   * The stored answer of a request as the cache holds it, fresh or not, with when it was stored
   * (stored-answer.ts); absent, only fresh answers are read (client.peek).
   */
  stored?(operationId: string, params: Record<string, unknown>): StoredAnswer | undefined;
  /** A company's name from security listings held (company-trace.ts namesFromListings). */
  names?(code: string): string | undefined;
  /** The cell's function called again from memory (a table without headers: table-place.ts). */
  rerun?: Rerun;
  /**
   * PRICE's row of the last trading day on or before a day, from the price windows already
   * received (stored-answer.ts heldPriceOnOrBefore); undefined when not held.
   */
  priceOnOrBefore?(code: string, day: string): Promise<SecurityDailyPrice | undefined>;
}

/** Bodies read from the store while no longer fresh: their cells show them until asked again. */
const dueBodies = new WeakSet<object>();

/**
 * The answer a cell reads: the fresh one (client.peek), else the stored one that is due (a
 * stale-while-revalidate cell shows it meanwhile: src/client/client.ts serveWhileRevalidating).
 */
export function answerOf(
  deps: TraceDeps,
  operationId: "getFinancials" | "getDividends" | "getSegments" | "getPrices" | "getValuations",
  params: Record<string, unknown>,
): unknown {
  const fresh = deps.client.peek(operationId, params as never) as unknown;
  if (fresh !== undefined) return fresh;
  const stored = deps.stored?.(operationId, params)?.body;
  if (typeof stored === "object" && stored !== null) dueBodies.add(stored);
  return stored;
}

export function text(v: unknown): string {
  return v === null || v === undefined ? "" : String(v);
}

/** Item key of a header as a table writes it (key, Japanese label, with its unit). */
export function keyOfHeader(header: unknown, dataset: Dataset): string | undefined {
  const h = text(header).trim();
  if (h === "") return undefined;
  for (const f of FIELD_DICTIONARY[dataset]) {
    const ja = labelJa(f.key, dataset);
    if (h === f.key || h === ja || h === unitLabel(ja, unitOf(dataset, f.key))) return f.key;
  }
  return undefined;
}

/** The column of a header row naming `key` (its key or Japanese label), -1 when none. */
export function columnOf(header: readonly unknown[], key: string): number {
  return header.findIndex((h) => text(h) === key || text(h) === labelJa(key));
}

export function itemOf(key: string, dataset: Dataset, lang: Lang): NonNullable<CellTrace["item"]> {
  const info = FIELD_DICTIONARY[dataset].find((f) => f.key === key);
  const label = lang === "ja" ? (info?.label ?? key) : englishLabel(key);
  return { key, label, ...(info?.unit !== undefined ? { unit: info.unit } : {}) };
}

export function fetchState(body: unknown, storedAt: number | undefined): TraceFetch {
  const stale = staleInfo(body);
  const at = storedAt ?? stale?.storedAt;
  const base = at !== undefined ? { storedAt: at } : {};
  if (stale === undefined)
    return {
      ...base,
      state: typeof body === "object" && body !== null && dueBodies.has(body) ? "due" : "current",
    };
  const why = stale.error instanceof Error ? stale.error.message : undefined;
  // A due answer served while it is asked again carries the revalidation notice (client.ts).
  const revalidating = why !== undefined && /revalidat|確認中|再確認/.test(why);
  return { ...base, state: revalidating ? "due" : "stale", ...(why ? { why } : {}) };
}

export function requestOf(
  endpoint: string,
  params: Record<string, unknown>,
): NonNullable<CellTrace["request"]> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(params))
    if (typeof v === "string" || typeof v === "number") out[k] = v;
  return { endpoint, params: out };
}

/** The results filings of a period among the company's disclosures (its one request). */
export async function filingsOf(
  deps: TraceDeps,
  code: string | undefined,
  p: { fiscal_year: string; quarter?: string },
): Promise<TraceSource> {
  const list = code === undefined ? undefined : await deps.disclosures(code).catch(() => undefined);
  return {
    kind: "filings",
    filings: list ? matchFilings(list.disclosures, p) : [],
    disclosuresCached: list !== undefined,
  };
}

/** A figure of an answer's row: a number, or null (openapi.json: null when undisclosed). */
export function readItem(row: object, item: string): number | null {
  const v = (row as Record<string, unknown>)[item];
  return typeof v === "number" ? v : null;
}

/** The money unit a cell asks (jpy when omitted). */
export function moneyUnitOf(unit: unknown): string {
  return typeof unit === "string" && unit !== "" ? unit : "jpy";
}
