// One signal for two: a request waiting for its turn stops when its caller gives up or its key is held (send chunk).

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
  stop.addEventListener("abort", abort, { once: true });
  return {
    signal: controller.signal,
    release: () => {
      caller?.removeEventListener("abort", abort);
      stop.removeEventListener("abort", abort);
    },
  };
}
