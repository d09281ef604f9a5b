// The parts answers repeat word for word (the units list `fields[]`, the attribution), kept once in
// memory however many answers carry them.

import { deepFreeze } from "./deep-freeze";

/**
 * Top-level properties every answer of an operation repeats (openapi.json: `fields[]` "Units of the
 * numeric properties", `attribution` required on every 200 response). A Model 500 held 2,290
 * answers, each with its own copy of a ~70-entry units list: 160k small objects and their label
 * strings, ~30 MB of the memory tier for a few dozen distinct lists.
 */
const REPEATED_PARTS = ["fields", "attribution"] as const;

/** Distinct parts kept (a few dozen in practice: one units list per operation and unit set). */
const MAX_KEPT = 512;

/** Frozen parts by their JSON text. */
const kept = new Map<string, object>();

/** The parts kept (however many answers hold each), for what is worth doing once per part. */
const sharedParts = new WeakSet<object>();

/**
 * True for a part freezeAnswer keeps once for many answers (a units list, an attribution): the
 * stored form writes its JSON once (stored-form.ts).
 */
export function isSharedPart(value: unknown): value is object {
  return typeof value === "object" && value !== null && sharedParts.has(value);
}

/**
 * `body` (a parsed answer, not yet frozen) with each repeated part replaced by the one frozen copy
 * of the same JSON already held, or made that copy; then the whole answer deep-frozen as the client
 * hands it out. Equal content, so nothing a reader sees changes.
 *
 * @example freezeAnswer(JSON.parse(text)).fields === freezeAnswer(JSON.parse(text)).fields // true
 */
export function freezeAnswer<T>(body: T): T {
  if (typeof body === "object" && body !== null && !Array.isArray(body) && !Object.isFrozen(body)) {
    const record = body as Record<string, unknown>;
    for (const name of REPEATED_PARTS) {
      const part = record[name];
      // A part already kept (read back by part-lines.ts) is not written out again to be found.
      if (typeof part !== "object" || part === null || sharedParts.has(part)) continue;
      record[name] = keptPart(part);
    }
  }
  return deepFreeze(body);
}

/**
 * The one frozen copy of `part`'s JSON: one already kept, or `part` itself, frozen and kept.
 *
 * @example keptPart(JSON.parse('{"a":1}')) === keptPart(JSON.parse('{"a":1}')) // true
 */
export function keptPart(part: object): object {
  const text = JSON.stringify(part);
  const same = kept.get(text);
  if (same !== undefined) return same;
  if (kept.size >= MAX_KEPT) kept.clear();
  kept.set(text, deepFreeze(part));
  sharedParts.add(part);
  return part;
}
