// Drives jest's fake timers until a promise settles, so backoff, Retry-After and timeouts run instantly.

export type Outcome<T> =
  | { state: "fulfilled"; value: T; simulatedMs: number }
  | { state: "rejected"; error: unknown; simulatedMs: number }
  | { state: "pending"; simulatedMs: number };

/**
 * Advances fake time in `stepMs` steps until `call` (a value or a thenable) settles or `boundMs` of simulated time has
 * passed. A "pending" outcome means the call would leave a cell at #BUSY! that long.
 * @example const out = await settleWithFakeTimers(FINANCIAL("7203", "sales"), 10 * 60_000);
 */
export async function settleWithFakeTimers<T>(
  // A value, a promise, or a cell still waiting (functions/cells/waiting-cell.ts: a thenable).
  call: T | { then(onValue: (value: T) => void, onError: (error: unknown) => void): unknown },
  boundMs: number,
  stepMs = 250,
): Promise<Outcome<T>> {
  let outcome: Outcome<T> | undefined;
  const started = Date.now();
  // A function may answer with the value itself (Excel sets it at once): settled then.
  Promise.resolve(call).then(
    (value) => {
      outcome = { state: "fulfilled", value, simulatedMs: Date.now() - started };
    },
    (error: unknown) => {
      outcome = { state: "rejected", error, simulatedMs: Date.now() - started };
    },
  );
  await jest.advanceTimersByTimeAsync(0);
  while (outcome === undefined && Date.now() - started < boundMs) {
    await jest.advanceTimersByTimeAsync(stepMs);
  }
  return outcome ?? { state: "pending", simulatedMs: Date.now() - started };
}

/**
 * Real-time bound for runs without fake timers: resolves "pending" if `promise` has not settled in
 * `boundMs`. A liveness bound, never a speed assertion.
 */
export async function settleWithin<T>(promise: Promise<T>, boundMs: number): Promise<Outcome<T>> {
  const started = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const pending = new Promise<Outcome<T>>((resolve) => {
    timer = setTimeout(
      () => resolve({ state: "pending", simulatedMs: Date.now() - started }),
      boundMs,
    );
  });
  try {
    return await Promise.race([
      promise.then(
        (value): Outcome<T> => ({ state: "fulfilled", value, simulatedMs: Date.now() - started }),
        (error: unknown): Outcome<T> => ({
          state: "rejected",
          error,
          simulatedMs: Date.now() - started,
        }),
      ),
      pending,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
