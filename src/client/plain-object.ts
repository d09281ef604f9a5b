// Whether a value is an object literal's kind, as JSON.parse makes: what the stored form writes in lines and reads back.

/**
 * An object literal's kind (what JSON.parse makes): no prototype of its own, no toJSON.
 *
 * @example isPlainObject(JSON.parse('{"a":1}')) // true; isPlainObject(new Date()) // false
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype &&
    !("toJSON" in value)
  );
}
