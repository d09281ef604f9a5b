// What the trace reads of the session without sending: the stored answer behind a cell (fresh or
// due, with when it was received) under the key the client stores it by, the security listings
// held in memory (a company's name) and PRICE's row of a day from the price windows received.

import type { OperationId, SecuritiesResponse, SecurityDailyPrice } from "../../src/contract";
import { cacheKey, validateParams } from "../../src/client";
import { getCacheStore, getClient } from "../../src/session";
import { priceOnOrBefore } from "../../src/domain/network-rules";
import type { StoredAnswer } from "./trace-parts";

/**
 * The memory tier's entry for a request as the client keys it (src/client/client.ts: the key's
 * partition, then cache.ts cacheKey of the checked parameters); undefined when none is held.
 * @example storedAnswer("getPrices", { code: "7203", limit: 1 })?.storedAt
 */
export function storedAnswer(
  operationId: string,
  params: Record<string, unknown>,
): StoredAnswer | undefined {
  try {
    const partition = getClient().partition();
    if (partition === undefined) return undefined;
    const id = operationId as OperationId;
    const entry = getCacheStore()?.peek?.(
      `${partition}${cacheKey(id, validateParams(id, params))}`,
    );
    return entry === undefined ? undefined : { body: entry.body, storedAt: entry.storedAt };
  } catch {
    // Parameters the contract refuses have no stored answer.
    return undefined;
  }
}

/** Listings scanned at most (a workbook's name look-ups and the pane's company searches). */
const MAX_LISTINGS = 500;

/** How long one scan of the held listings serves the selections that follow. @unit ms */
const LISTINGS_REUSE_MS = 5_000;
let lastScan:
  { at: number; partition: string; listings: Promise<SecuritiesResponse[]> } | undefined;

/**
 * The /securities answers held in memory for the current key (name look-ups, COMPANY, the pane's
 * company search): where a company's name is found without a request. One scan of the store's
 * keys serves the selections of the next seconds (arrow keys move it cell by cell).
 */
export function heldListings(now: number = Date.now()): Promise<SecuritiesResponse[]> {
  const partition = getClient().partition() ?? "";
  if (lastScan && lastScan.partition === partition && now - lastScan.at < LISTINGS_REUSE_MS)
    return lastScan.listings;
  lastScan = { at: now, partition, listings: scanListings() };
  return lastScan.listings;
}

async function scanListings(): Promise<SecuritiesResponse[]> {
  const store = getCacheStore();
  const partition = getClient().partition();
  if (store?.peek === undefined || partition === undefined) return [];
  const prefix = `${partition}/securities?`;
  const keys = await store.keys().catch(() => [] as string[]);
  const out: SecuritiesResponse[] = [];
  for (const key of keys) {
    if (!key.startsWith(prefix)) continue;
    const body = store.peek(key)?.body as SecuritiesResponse | undefined;
    if (Array.isArray(body?.securities)) out.push(body);
    if (out.length >= MAX_LISTINGS) break;
  }
  return out;
}

/** PRICE's row on or before a day from the windows already received: never a request. */
export function heldPriceOnOrBefore(
  code: string,
  day: string,
): Promise<SecurityDailyPrice | undefined> {
  return priceOnOrBefore(getClient(), code, day, { cache: "only-if-cached" });
}
