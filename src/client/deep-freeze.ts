// Deep freeze for answers: the client hands out frozen bodies, so per-answer indexes can key on them.

/**
 * Freezes `value` and everything reachable from it, and returns it. for...in rather than
 * Object.values: no array per object of a 15,000-field answer.
 *
 * @example deepFreeze(JSON.parse('{"a":[1]}')) // frozen object with a frozen array
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    const record = value as Record<string, unknown>;
    for (const k in record) deepFreeze(record[k]);
  }
  return value;
}
