// Cells that gave up waiting (their bound passed) by the request they waited for: recalculated when its answer arrives.

/** Most requests remembered: a workbook's worth; the oldest is forgotten past it. */
const MAX_KEYS = 20_000;

/**
 * The cells (addresses) that settled with "still waiting for the API" on each request key. The
 * client asks the request once more without them and, when the answer arrives, has them
 * recalculated (revalidator.ts `recalculate`, the pane's recalc-on-revalidation.ts), as a
 * background update does: no cell is left for a manual recalculation.
 *
 * @example
 * if (gaveUp.add(key, "Sheet1!B2")) askAgain(key).then(() => recalc(gaveUp.take(key)));
 */
export class GaveUpCells {
  readonly #cells = new Map<string, Set<string>>();

  /** Remembers `address` for `key`; true when `key` is new (nobody asks it again yet). */
  add(key: string, address: string): boolean {
    const known = this.#cells.get(key);
    if (known !== undefined) {
      known.add(address);
      return false;
    }
    if (this.#cells.size >= MAX_KEYS) {
      const oldest = this.#cells.keys().next();
      if (oldest.done !== true) this.#cells.delete(oldest.value);
    }
    this.#cells.set(key, new Set([address]));
    return true;
  }

  /** The addresses waiting on `key`, forgotten as they are handed out. */
  take(key: string): string[] {
    const cells = this.#cells.get(key);
    this.#cells.delete(key);
    return cells === undefined ? [] : [...cells];
  }
}
