// Recalculates KAISHA formulas when the session changes (key saved or forgotten, server or mode changed).

/**
 * Delay that merges a burst of session changes (settings + key) into one recalculation.
 * @internal Tests wait out the debounce.
 */
export const RECALC_DEBOUNCE_MS = 300;

/**
 * Subscribes `recalculate` to session changes, debounced; returns the unsubscribe function.
 * @example const off = recalcOnSessionChange(session.onChange, recalculateAll);
 */
export function recalcOnSessionChange(
  onChange: (listener: () => void) => () => void,
  recalculate: () => Promise<void>,
  delayMs: number = RECALC_DEBOUNCE_MS,
): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const off = onChange(() => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      // A failed recalculation (no Excel, workbook busy) must not surface as an unhandled rejection.
      void recalculate().catch(() => undefined);
    }, delayMs);
  });
  return () => {
    off();
    if (timer) clearTimeout(timer);
  };
}
