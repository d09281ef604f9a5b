// The parts a stored answer's part lines carry, each the one copy kept for many answers, found by the line's text.

import { isPlainObject } from "./plain-object";
import { keptPart } from "./shared-parts";

/** Distinct part lines kept (a few dozen in practice, as the parts are: shared-parts.ts). */
const MAX_KEPT = 512;

/** Parsed part lines by their text. */
const partLines = new Map<string, Readonly<Record<string, unknown>>>();

/**
 * A part line read as plain JSON, each time (the floor's way, stored-form.ts parseStoredForm:
 * nothing kept between answers); throws on a line that is not a plain object of parts.
 */
export function parsedParts(text: string): Record<string, unknown> {
  const parts: unknown = JSON.parse(text);
  if (!isPlainObject(parts)) throw new Error("not a stored answer (part line)");
  return parts;
}

/**
 * The parts a stored answer's part line carries (stored-form.ts: `{"fields":[…]}`), each the one
 * kept copy; a line seen before is looked up by its text, not parsed again: a Model 500 reopen
 * reads 2,330 answers repeating a few dozen units lists, whose parsing and JSON for finding the
 * kept copy took ~0.2 s of CPU, measured apart (bench/reopen-only.ts's stored answers). Throws on a
 * line that is not a plain object of parts (`parsedParts`).
 *
 * @example partsOfLine('{"fields":[]}').fields === partsOfLine('{"fields":[]}').fields // true
 */
export function partsOfLine(text: string): Readonly<Record<string, unknown>> {
  const known = partLines.get(text);
  if (known !== undefined) return known;
  const parts = parsedParts(text);
  for (const name of Object.keys(parts)) {
    const part = parts[name];
    if (typeof part === "object" && part !== null) parts[name] = keptPart(part);
  }
  if (partLines.size >= MAX_KEPT) partLines.clear();
  partLines.set(text, Object.freeze(parts));
  return parts;
}
