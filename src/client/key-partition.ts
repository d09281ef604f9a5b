// Whose answers a request may read: the cache partition, named by a one-way fingerprint of (API key, server).

import { sha256Hex } from "../util/sha256";

/**
 * Answers belong to the key that fetched them (plans differ: a key refused on /financials
 * with 403 must not be served another key's figures) and to the server they came from. Cache keys,
 * in-flight requests and remembered code mappings start with the partition's id, a SHA-256 of the
 * key and the server: the key itself never reaches the cache or IndexedDB, and the id cannot be
 * turned back into it.
 */
export interface Partition {
  /** The key source's value as read (untrimmed), compared by identity on the per-cell fast path. */
  readonly raw: string;
  /**
   * Where the requests go: the API's base URL, or in relay mode the add-in host's relay path (the
   * relay forwards to the one upstream its host is configured with, so it names that upstream).
   */
  readonly upstream: string;
  /** Hex fingerprint; the prefix of every cache key of this partition. */
  readonly id: string;
}

/** Bumped if the fingerprint's input ever changes shape: old records then stay unread. */
const FINGERPRINT_LABEL = "kaisha-cache-partition-v1";
/** 128 bits of the digest: no collision between one user's keys and servers to fear. */
const ID_HEX_CHARS = 32;
/** Fingerprints remembered (keys x servers of one session; a few in practice). */
const MAX_REMEMBERED = 16;

/**
 * The partition id of `key` (trimmed, as sent) at `upstream`.
 *
 * @example fingerprint("kaisakey_…", "https://api.irbank.net/v1") // "3f9c…" (32 hex digits)
 * @internal Tests check partition ids directly.
 */
export function fingerprint(key: string, upstream: string): string {
  return sha256Hex(`${FINGERPRINT_LABEL}\n${upstream}\n${key.trim()}`).slice(0, ID_HEX_CHARS);
}

/**
 * The current partition, swapped as one object when the key or the server changes, so a reader
 * never pairs a new key with an old id. The fingerprint is computed once per key and server, when
 * first asked (synchronously: the per-cell fast path reads it).
 *
 * @example
 * const parts = new KeyPartitions(() => void store.clearMemory?.());
 * const id = parts.of(key, baseUrl); // every later read with the same key string: no hashing
 */
export class KeyPartitions {
  /**
   * The current partition. Read by the client's per-cell check (client.ts partitionNow: its raw
   * key and upstream compared by identity, no call, no trim, no hashing); replaced only by `of`
   * and `forget`.
   */
  current: Partition | undefined;
  /** Fingerprints computed, by server and trimmed key (memory only, this session). */
  readonly #ids = new Map<string, string>();

  /** `onKeyChange` runs when a partition of another key replaces the current one. */
  constructor(private readonly onKeyChange: (before: Partition, after: Partition) => void) {}

  /** The id of (raw key, upstream); it becomes the current partition. */
  of(raw: string, upstream: string): string {
    const now = this.current;
    if (now !== undefined && now.raw === raw && now.upstream === upstream) return now.id;
    const key = raw.trim();
    const memo = `${upstream}\n${key}`;
    let id = this.#ids.get(memo);
    if (id === undefined) {
      if (this.#ids.size >= MAX_REMEMBERED) this.#ids.clear();
      id = fingerprint(key, upstream);
      this.#ids.set(memo, id);
    }
    const after: Partition = { raw, upstream, id };
    this.current = after;
    if (now !== undefined && now.raw.trim() !== key) this.onKeyChange(now, after);
    return id;
  }

  /** Ids this session used with `raw` (any server), and that of `upstream`: what Forget deletes. */
  idsOf(raw: string, upstream: string): string[] {
    const key = raw.trim();
    const ids = new Set([fingerprint(key, upstream)]);
    for (const [memo, id] of this.#ids) if (memo.slice(memo.indexOf("\n") + 1) === key) ids.add(id);
    return [...ids];
  }

  /** Forget: the key's fingerprints leave memory and no partition is current. */
  forget(raw: string): void {
    const key = raw.trim();
    for (const memo of [...this.#ids.keys()])
      if (memo.slice(memo.indexOf("\n") + 1) === key) this.#ids.delete(memo);
    this.current = undefined;
  }
}
