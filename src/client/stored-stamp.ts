// Which answers read back from storage this version wrote over this contract: the stored-answer check passes them without walking them.

import { RESPONSE_ROOTS, RESPONSE_SCHEMAS } from "../contract/generated/response-fields";
import { sha256Hex } from "../util/sha256";

/**
 * What passes the stored-answer check besides the contract (src/client/response-check.ts: cut
 * text, repeated rows, depth). Bump it when that code changes what passes: every record stored
 * before is then checked again when read back (test/client/stored-stamp.test.ts fails on any
 * change to that code, as a reminder).
 */
const CHECK_VERSION = 1;

let stamp: string | undefined;

/**
 * The stamp a record gets when this version stores it (persistent-store.ts): the contract's
 * response shapes (openapi.json, as generated in response-fields.ts) and CHECK_VERSION, hashed
 * once per session. An answer is stored only after passing the check answers from the network
 * pass (or after passing it when read back), so a record bearing the stamp of the running
 * version passes it again: walking every field of it on a reopen was a sixth of a Model 500's
 * reopen after its cells (bench: 1.0 s of 9 s, bench/reopen-only.ts). Its bytes are guarded by
 * gzip's own CRC (a damaged record does not decode), and a record without it or of another
 * version is checked in full.
 */
export function storedStamp(): string {
  stamp ??= sha256Hex(`${CHECK_VERSION} ${JSON.stringify([RESPONSE_ROOTS, RESPONSE_SCHEMAS])}`);
  return stamp;
}

/** Answers decoded from records bearing the running version's stamp (this session's objects). */
const stamped = new WeakSet<object>();

/** Notes that `body` was decoded from a record bearing `recordStamp`, if it is this version's. */
export function noteStamp(body: unknown, recordStamp: unknown): void {
  if (typeof body === "object" && body !== null && recordStamp === storedStamp()) stamped.add(body);
}

/**
 * Whether `body` was decoded from a record this version stored (stored-check.ts passes it).
 *
 * @example noteStamp(body, storedStamp()); wasStamped(body) // true
 */
export function wasStamped(body: unknown): boolean {
  return typeof body === "object" && body !== null && stamped.has(body);
}
