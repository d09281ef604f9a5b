// Deep freeze for answers: the client hands out frozen bodies, so per-answer indexes can key on them.

/**
 * Freezes `value` and everything reachable from it, and returns it. Arrays by index and objects by
 * for...in (no array of keys or values per object of a 15,000-field answer); primitives are not
 * visited, so an array of numbers costs one freeze. for...in over an array would make a string per
 * index (bench: a reopen's deep freeze of 2,300 parsed answers).
 *
 * @example deepFreeze(JSON.parse('{"a":[1]}')) // frozen object with a frozen array
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) freezeObject(value);
  return value;
}

function freezeObject(value: object): void {
  if (Object.isFrozen(value)) return;
  Object.freeze(value);
  if (Array.isArray(value)) {
    const list: readonly unknown[] = value;
    for (let i = 0; i < list.length; i += 1) {
      const item = list[i];
      if (typeof item === "object" && item !== null) freezeObject(item);
    }
    return;
  }
  const record = value as Record<string, unknown>;
  for (const k in record) {
    const item = record[k];
    if (typeof item === "object" && item !== null) freezeObject(item);
  }
}
