// A bounded memo for values read from repeated inputs (arguments, argument signatures): one policy
// for the add-in's per-argument caches instead of a hand-written map and bound in each parser.

/**
 * Remembers values by key up to `limit` entries; when full it starts over. A workbook repeats a
 * few dozen distinct argument values thousands of times, so reaching the bound means the inputs do
 * not repeat and keeping older entries would not help.
 *
 * @example
 * const memo = new BoundedMemo<string, number>(1024);
 * memo.get("x") ?? memo.set("x", parse("x"));
 */
export class BoundedMemo<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly limit: number) {}

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** Remembers `value` under `key` and returns it. Replacing a key already held never starts over. */
  set(key: K, value: V): V {
    if (this.entries.size >= this.limit && !this.entries.has(key)) this.entries.clear();
    this.entries.set(key, value);
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
