// Notices when any answer a function used was served stale (the API failed and the cache answered).

import { isStale, type KaishaClient } from "../src/client";

/**
 * Wraps a client so that every answer passing through is checked with `isStale`. The flag belongs
 * to one function call: answers coalesced between cells are shared objects, so the check is on the
 * answer each call receives, not on who sent the request.
 *
 * @example const watched = watchStale(client); await watched.client.financials(q); watched.wasStale()
 */
export function watchStale(client: KaishaClient): {
  client: KaishaClient;
  wasStale: () => boolean;
} {
  let stale = false;
  const see = <V>(value: V): V => {
    if (value !== null && typeof value === "object" && isStale(value)) stale = true;
    return value;
  };
  async function* pages<V>(source: AsyncIterable<V>): AsyncGenerator<V, void, undefined> {
    for await (const page of source) yield see(page);
  }
  const watched = new Proxy(client, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const out = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (out instanceof Promise) return out.then(see);
        if (out !== null && typeof out === "object" && Symbol.asyncIterator in out) {
          return pages(out as AsyncIterable<unknown>);
        }
        return out;
      };
    },
  });
  return { client: watched, wasStale: () => stale };
}
