// Recalculates the cells whose answers a background revalidation changed (or had shown marked stale).

import type { Revalidator } from "../src/client";

/** Merges the cells of answers coming back within this delay into one Excel batch. @unit ms */
const REVALIDATION_RECALC_DELAY_MS = 1_000;

/**
 * Follows the session's revalidation queue (a new client after a session change included) and
 * hands `recalculate` the addresses to evaluate again, merged per delay; returns unsubscribe.
 *
 * @example recalcOnRevalidation(() => getClient().revalidation(), onSessionChange, recalculateAddresses);
 */
export function recalcOnRevalidation(
  revalidator: () => Revalidator,
  onSessionChange: (listener: () => void) => () => void,
  recalculate: (addresses: string[]) => Promise<unknown>,
  delayMs: number = REVALIDATION_RECALC_DELAY_MS,
): () => void {
  const pending = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = (): void => {
    timer = undefined;
    const addresses = [...pending];
    pending.clear();
    // No Excel, a busy workbook: the cells keep what they show until the next recalculation.
    void recalculate(addresses).catch(() => undefined);
  };
  const listen = () =>
    revalidator().onRecalculate((addresses) => {
      for (const a of addresses) pending.add(a);
      timer ??= setTimeout(flush, delayMs);
    });
  let off = listen();
  const offSession = onSessionChange(() => {
    off();
    off = listen();
  });
  return () => {
    off();
    offSession();
    if (timer !== undefined) clearTimeout(timer);
  };
}
