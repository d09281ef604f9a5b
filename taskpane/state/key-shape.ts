// API key shape check for the key input (openapi.json bearerAuth); says nothing about validity.

import { isHeaderSafeKey } from "../../src/client";

/** openapi.json bearerAuth: 52 characters, a 9-character service prefix ending in `key_`. */
const KEY_SHAPE = /^[A-Za-z0-9]{5}key_[A-Za-z0-9_-]{43}$/;

export type KeyShape =
  "empty" | "ok" | "not_header_safe" | "wrong_length" | "wrong_prefix" | "bad_characters";

/**
 * The key as typed or pasted, without surrounding spaces or a copied `Bearer ` header prefix (the
 * pane sends the header itself; openapi.json bearerAuth: a key sent without that prefix is
 * refused).
 * @example normalizeKey(" Bearer kaisakey_abc ") // "kaisakey_abc"
 */
export function normalizeKey(raw: string): string {
  return raw
    .trim()
    .replace(/^Bearer\s+/i, "")
    .trim();
}

/**
 * Classifies a typed key so the pane can say what is wrong before any request.
 * @example checkKeyShape("kaisakey_" + "a".repeat(43)) // "ok"
 */
export function checkKeyShape(raw: string): KeyShape {
  const key = normalizeKey(raw);
  if (key === "") return "empty";
  if (KEY_SHAPE.test(key)) return "ok";
  // Checked first: a zero-width space or full-width letters also change the length, and "52
  // characters" would send the user counting instead of retyping (the header cannot carry them).
  if (!isHeaderSafeKey(key)) return "not_header_safe";
  if (key.length !== 52) return "wrong_length";
  if (key.slice(5, 9) !== "key_") return "wrong_prefix";
  return "bad_characters";
}
