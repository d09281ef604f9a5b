// Keeps the answers an update replaces long enough to say what moved: watches the shared cache
// store where every answer is stored (src/client/cache.ts CacheStore.set, called by client.ts when
// a fetched answer is stored) and where Refresh all drops them all (CacheStore.clear).

import type { CacheEntry, CacheStore } from "../../src/client";
import { sameAnswer } from "../../src/util/same-answer";

/** One answer replaced by a different one: its request path and query, the old and new bodies. */
export interface ReplacedAnswer {
  /** "/financials", "/securities/7203/prices"… (the cache key without its key partition). */
  path: string;
  query: URLSearchParams;
  before: unknown;
  after: unknown;
  /** @unit ms since epoch */
  at: number;
}

/** Replacements kept at most (a morning's results batch is a few hundred companies). */
const MAX_KEPT = 2_000;

interface Watched {
  store: CacheStore;
  set: CacheStore["set"];
  clear: CacheStore["clear"];
  get: CacheStore["get"];
}

let watched: Watched | undefined;
/** Old bodies Refresh all dropped, by cache key, until the same request is answered again. */
const dropped = new Map<string, unknown>();
/** Keys stored before watching began and not stored again since (read from disk when replaced). */
const onDisk = new Set<string>();
const replaced: ReplacedAnswer[] = [];

/** "<partition>/financials?period=annual&…": the request part of a cache key (cache.ts cacheKey). */
function requestOf(key: string): { path: string; query: URLSearchParams } | undefined {
  const slash = key.indexOf("/");
  if (slash < 0) return undefined;
  const [path = "", query = ""] = key.slice(slash).split("?", 2);
  return { path, query: new URLSearchParams(query) };
}

type ReplacedListener = (r: ReplacedAnswer) => void;
const replacedListeners = new Set<ReplacedListener>();

/**
 * Tells `listener` of each answer replaced (record-update.ts: a recalculation outside the pane's
 * own updates is logged too); returns unsubscribe.
 */
export function onAnswerReplaced(listener: ReplacedListener): () => void {
  replacedListeners.add(listener);
  return () => replacedListeners.delete(listener);
}

function note(key: string, before: unknown, after: unknown, now: number): void {
  if (before === undefined || sameAnswer(before, after)) return;
  const request = requestOf(key);
  if (request === undefined) return;
  const entry = { ...request, before, after, at: now };
  replaced.push(entry);
  if (replaced.length > MAX_KEPT) replaced.splice(0, replaced.length - MAX_KEPT);
  for (const l of [...replacedListeners]) l(entry);
}

/**
 * Starts watching `store` (the session's cache store): each answer stored over a different one in
 * memory, or over one Refresh all dropped, is kept as a replacement. Watching a new store (the
 * session replaced it) stops watching the old one. Idempotent.
 * @example watchAnswers(getCacheStore());
 */
export function watchAnswers(store: CacheStore | undefined, now: () => number = Date.now): void {
  if (store === undefined || watched?.store === store) return;
  unwatchAnswers();
  const own = { store, set: store.set, clear: store.clear, get: store.get };
  watched = own;
  // The answers stored on this computer when watching began (a reopened workbook's): memory
  // lacks those the cells have not read yet, so the morning's replacements read them from disk.
  onDisk.clear();
  void store
    .keys()
    .then((keys) => {
      if (watched === own) for (const k of keys) onDisk.add(k);
    })
    .catch(() => undefined);
  /** The body stored under `key` now: memory's, else the disk's for a key stored before. */
  const current = async (key: string): Promise<unknown> => {
    const hot = store.peek?.(key)?.body;
    if (hot !== undefined || !onDisk.has(key)) return hot;
    return (await own.get.call(store, key).catch(() => undefined))?.body;
  };
  store.set = async function (key: string, entry: CacheEntry): Promise<void> {
    const before = dropped.get(key) ?? (await current(key));
    dropped.delete(key);
    onDisk.delete(key);
    await own.set.call(store, key, entry);
    note(key, before, entry.body, now());
  };
  store.clear = async function (): Promise<void> {
    // Refresh all asks everything anew: what is stored now is what the new answers replace.
    if (store.peek !== undefined) {
      const keys = await own.store.keys().catch(() => [] as string[]);
      dropped.clear();
      for (const key of keys) {
        if (dropped.size >= MAX_KEPT) break;
        const body = await current(key);
        if (body !== undefined) dropped.set(key, body);
      }
    }
    onDisk.clear();
    await own.clear.call(store);
  };
}

/** Stops watching (the store's own methods back); what was kept stays until taken. @internal */
export function unwatchAnswers(): void {
  if (watched === undefined) return;
  watched.store.set = watched.set;
  watched.store.clear = watched.clear;
  watched = undefined;
}

/** The replacements kept since `since` (epoch ms), oldest first. */
export function replacedSince(since: number): ReplacedAnswer[] {
  return replaced.filter((r) => r.at >= since);
}

/** Forgets kept replacements and dropped answers (tests; a new session). @internal */
export function forgetReplaced(): void {
  replaced.length = 0;
  dropped.clear();
  onDisk.clear();
}
