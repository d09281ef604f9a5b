// One signal for two: a request waiting for its turn stops when its caller gives up or its key is held (send chunk).

/**
 * The requests waiting on each key's `stop` signal (send-state.ts signalOf). That signal outlives
 * thousands of waiting requests: one listener on it calls them all, instead of a listener each
 * (an EventTarget with thousands of listeners is what Node warns about as a possible leak, and
 * each removal would scan them all).
 */
const waitersOf = new WeakMap<AbortSignal, Set<() => void>>();

/** Calls `abort` when `stop` aborts; returns the function that stops waiting. */
function onStop(stop: AbortSignal, abort: () => void): () => void {
  let waiters = waitersOf.get(stop);
  if (waiters === undefined) {
    const all = new Set<() => void>();
    waiters = all;
    waitersOf.set(stop, all);
    stop.addEventListener(
      "abort",
      () => {
        // A copy: an aborted waiter releases itself, which deletes from the set.
        for (const waiter of [...all]) waiter();
        all.clear();
      },
      { once: true },
    );
  }
  const set = waiters;
  set.add(abort);
  return () => set.delete(abort);
}

/**
 * A signal that aborts when `caller` or `stop` does; `release` removes its listeners (the key's
 * `stop` signal outlives thousands of requests).
 */
export function linkSignals(
  caller: AbortSignal | undefined,
  stop: AbortSignal,
): { signal: AbortSignal; release(): void } {
  const controller = new AbortController();
  const abort = (): void => controller.abort(caller?.aborted === true ? caller.reason : undefined);
  if (caller?.aborted === true || stop.aborted) abort();
  caller?.addEventListener("abort", abort, { once: true });
  const leave = stop.aborted ? () => false : onStop(stop, abort);
  return {
    signal: controller.signal,
    release: () => {
      caller?.removeEventListener("abort", abort);
      leave();
    },
  };
}
