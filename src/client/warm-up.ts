// Reopen at warm speed: persisted answers are loaded into the memory tier in bulk before the cells ask.

import { NOT_LOADED, type TieredCacheStore } from "./tiered-cache";
import type { BulkReadable, WarmUpOptions } from "./warm-up-types";

function isBulkReadable(store: unknown): store is BulkReadable {
  const s = store as Partial<BulkReadable>;
  return (
    typeof s.recentKeys === "function" &&
    typeof s.records === "function" &&
    typeof s.decode === "function"
  );
}

/**
 * Loads the persistent tier's answers into the memory tier, most recently used first: records
 * read many per storage call, decompressed a few at a time. Every key is announced to the tiered
 * store first (`expect`), so a cell asking before its answer is loaded waits for this load rather
 * than reading storage itself; the reopened workbook's cells then take the warm path (one
 * synchronous memory read each). Resolves with how many answers were loaded; never throws (a
 * failed read is a miss the cell will fetch).
 *
 * @example void warmMemoryTier(store); // at start-up, before the first recalculation
 */
export async function warmMemoryTier(
  store: TieredCacheStore,
  options: WarmUpOptions = {},
): Promise<number> {
  const persistent = store.persistent;
  if (!isBulkReadable(persistent)) return 0;
  // Announced at once (the index read under way): cells arriving meanwhile wait for the keys;
  // keys already in memory or being read are not read again. A failed index read loads nothing.
  const announced = await store.expect(persistent.recentKeys());
  try {
    // The loop's code comes with the persistent tier's (chunk cache-disk, loaded by the index read
    // just answered): the runtime page registers the functions without it.
    const load = await import(/* webpackChunkName: "cache-disk" */ "./warm-up-load").catch(
      () => undefined,
    );
    return load === undefined ? 0 : await load.loadAnnounced(store, persistent, announced, options);
  } finally {
    // What the load did not bring (asked by no cell, over the budget, a failure, its code not
    // loaded): a cell asking reads it itself.
    for (const key of announced.announced) announced.handIn(key, NOT_LOADED);
  }
}
