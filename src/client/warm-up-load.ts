// The reopen's load itself (warm-up.ts starts it): what cells ask, in bulk reads; in the cache-disk chunk, with the persistent tier's code.

import { NOT_LOADED, type Announced, type TieredCacheStore } from "./tiered-cache";
import type { BulkReadable, WarmUpOptions } from "./warm-up-types";

/**
 * Records read per storage call: one IndexedDB transaction each (a transaction per record was most
 * of a reopen's storage cost), few enough that their gzip bytes stay small (~10 KB each).
 */
const RECORDS_PER_READ = 32;

/**
 * How long the load waits for a cell to ask before it ends (from its start or the last ask): a
 * workbook's cells ask within moments of each other in a recalculation, and Excel may start the
 * first recalculation some seconds after the runtime has loaded. @unit ms
 */
const LAZY_IDLE_MS = 30_000;

/**
 * Resolves, each time it is called, when a cell next asks for an announced key: the tiered store
 * appends each ask to `asked` (TieredCacheStore.expect), so its `push` is observed here, in the
 * load's own chunk, rather than the runtime page carrying a notification for it.
 */
function asks(asked: string[]): () => Promise<void> {
  let wake: (() => void) | undefined;
  const push = asked.push.bind(asked);
  asked.push = (...keys: string[]): number => {
    const length = push(...keys);
    wake?.();
    wake = undefined;
    return length;
  };
  return () => new Promise<void>((resolve) => (wake = resolve));
}

/**
 * Loads the announced `keys` cells ask for (`asked`) into memory, handing each in, as they ask:
 * records read many per storage call, decoded (inflate, parse, the stored-record check in
 * `handIn`) a few at a time; a key no cell asks for is never read nor decoded (a shared store
 * holds other workbooks' answers too, and a reopen that decoded them all spent most of its time
 * on answers no cell read). Ends once no cell has asked for `idleMs` (or over the budget); resolves
 * with how many answers were loaded. What it does not hand in, the caller hands in as not loaded
 * (a cell asking later reads it itself).
 */
export async function loadAnnounced(
  store: TieredCacheStore,
  persistent: BulkReadable,
  announced: Announced,
  options: WarmUpOptions,
): Promise<number> {
  const { announced: keys, asked, handIn } = announced;
  const nextAsk = asks(asked);
  const memoryMax = (store.memory as { maxBytes?: number }).maxBytes;
  const budget =
    options.maxBytes ?? (memoryMax !== undefined ? memoryMax * 0.9 : Number.POSITIVE_INFINITY);
  const idleMs = options.idleMs ?? LAZY_IDLE_MS;
  let loaded = 0;
  let bytes = 0;
  const concurrency = Math.max(1, options.concurrency ?? 4);
  /** Not loaded yet. */
  const pending = new Set(keys);
  /** How far `asked` has been taken: what a chunk has no room for stays first for the next. */
  let askedTaken = 0;
  const nextChunk = (): string[] => {
    const chunk: string[] = [];
    while (askedTaken < asked.length && chunk.length < RECORDS_PER_READ) {
      const key = asked[askedTaken] as string;
      askedTaken += 1;
      if (pending.delete(key)) chunk.push(key);
    }
    if (askedTaken === asked.length) {
      // Taken whole: emptied in place (the tiered store keeps appending to this array).
      asked.length = 0;
      askedTaken = 0;
    }
    return chunk;
  };
  while (pending.size > 0 && bytes < budget) {
    let chunk = nextChunk();
    if (chunk.length === 0) {
      // Nothing asked that is not loaded: wait for the next ask, or stop after `idleMs` of none.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const idle = new Promise<"idle">((resolve) => {
        timer = setTimeout(() => resolve("idle"), idleMs);
      });
      const woke = await Promise.race([nextAsk().then(() => "asked" as const), idle]);
      clearTimeout(timer);
      if (woke === "idle") break;
      chunk = nextChunk();
      if (chunk.length === 0) continue;
    }
    const records = await persistent.records(chunk).catch(() => undefined);
    if (records === undefined) {
      // A failed read (an aborted transaction) is no record missing: handed in as undefined, the
      // cells asking would take their stored answers for absent and ask the API; each reads it.
      for (const key of chunk) handIn(key, NOT_LOADED);
      continue;
    }
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < chunk.length && bytes < budget) {
        const at = next;
        next += 1;
        const key = chunk[at] as string;
        const entry = await persistent
          .decode(key, records[at])
          .catch((): typeof NOT_LOADED => NOT_LOADED);
        handIn(key, entry);
        if (entry === undefined || entry === NOT_LOADED) continue;
        loaded += 1;
        bytes += entry.bytes;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  }
  return loaded;
}
