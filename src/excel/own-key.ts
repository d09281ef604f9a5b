// Table look-ups by typed or received text that see a table's own entries only, never Object.prototype's.

/**
 * The value `table` holds under `key` itself, or undefined: `constructor`, `__proto__`, `toString`
 * and the other members every object inherits are no entry of any alias, choice or field table
 * (a plain `table[key]` returns `Object` for "constructor", which an argument would then accept).
 *
 * @example ownValue({ 円: "jpy" }, "constructor") // undefined
 */
export function ownValue<V>(table: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
