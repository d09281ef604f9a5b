// Request coalescing: identical requests in flight share one underlying request (TanStack Query style).

import { AbortError } from "./errors";

interface Flight {
  promise: Promise<unknown>;
  controller: AbortController;
  waiters: number;
}

/**
 * Map of requests in flight by key. Each caller gets its own promise and may abort on its own;
 * the shared request is aborted only when every caller has gone, and a new caller never joins a
 * request that is being abandoned.
 *
 * @example
 * const body = await inflight.join(key, signal, (shared) => send(url, shared));
 */
export class InFlightRequests {
  private readonly flights = new Map<string, Flight>();

  /** Called when a caller joins a request already in flight. */
  constructor(private readonly onCoalesced: () => void = () => undefined) {}

  /** Number of distinct requests in flight. */
  get size(): number {
    return this.flights.size;
  }

  join<T>(
    key: string,
    signal: AbortSignal | undefined,
    start: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    if (signal?.aborted) return Promise.reject(new AbortError({ cause: signal.reason }));
    let flight = this.flights.get(key);
    if (flight !== undefined) {
      this.onCoalesced();
    } else {
      const controller = new AbortController();
      const created: Flight = { controller, waiters: 0, promise: Promise.resolve() };
      created.promise = Promise.resolve()
        .then(() => start(controller.signal))
        .finally(() => {
          if (this.flights.get(key) === created) this.flights.delete(key);
        });
      created.promise.catch(() => undefined);
      this.flights.set(key, created);
      flight = created;
    }
    const shared = flight;
    shared.waiters += 1;
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const leave = (): void => {
        settled = true;
        shared.waiters -= 1;
        signal?.removeEventListener("abort", onAbort);
      };
      const onAbort = (): void => {
        if (settled) return;
        leave();
        if (shared.waiters === 0) {
          if (this.flights.get(key) === shared) this.flights.delete(key);
          shared.controller.abort(signal?.reason);
        }
        reject(new AbortError({ cause: signal?.reason }));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      shared.promise.then(
        (value) => {
          if (settled) return;
          leave();
          resolve(value as T);
        },
        (err: unknown) => {
          if (settled) return;
          leave();
          reject(err);
        },
      );
    });
  }
}
