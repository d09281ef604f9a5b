// A reopen's cells without a value, counted by message with a few addresses each: what its log line and row say.

/** Cells that ended with one message (an error value, or what their promise rejected with). */
export interface FailureCount {
  message: string;
  cells: number;
  /** The first few such cells' addresses (scale-cells.ts: company row and column). */
  addresses: string[];
}

/** Addresses kept per message: enough to find the cells, not a list of thousands. */
const ADDRESSES_KEPT = 4;

/** Messages a log line names (the most frequent first). */
const MESSAGES_TOLD = 4;

/** Counts failures by message as cells settle (bench/reopen-child.ts; the page's own in browser-run.ts). */
export class FailureTally {
  private readonly byMessage = new Map<string, FailureCount>();

  add(message: string, address: string): void {
    const count = this.byMessage.get(message);
    if (count === undefined) {
      this.byMessage.set(message, { message, cells: 1, addresses: [address] });
      return;
    }
    count.cells += 1;
    if (count.addresses.length < ADDRESSES_KEPT) count.addresses.push(address);
  }

  /** Every message, the most frequent first. */
  counts(): FailureCount[] {
    return topFailures([...this.byMessage.values()], Number.POSITIVE_INFINITY);
  }
}

/** The `most` most frequent of `counts` (ties by message, so a rerun reads the same). */
export function topFailures(counts: readonly FailureCount[], most = MESSAGES_TOLD): FailureCount[] {
  return [...counts]
    .sort((a, b) => b.cells - a.cells || a.message.localeCompare(b.message))
    .slice(0, most);
}

/**
 * The failures for a log line or a RESULTS row: "without a value: 200 × #N/A … (A1, B7, …); …", the
 * most frequent few; "" when every cell has a value.
 */
export function failuresText(counts: readonly FailureCount[]): string {
  if (counts.length === 0) return "";
  const told = topFailures(counts);
  const total = counts.reduce((sum, c) => sum + c.cells, 0);
  const rest = total - told.reduce((sum, c) => sum + c.cells, 0);
  const parts = told.map(
    (c) =>
      `${c.cells} × "${c.message}" (${c.addresses.join(", ")}${c.cells > c.addresses.length ? ", …" : ""})`,
  );
  if (rest > 0) parts.push(`${rest} with ${counts.length - told.length} other messages`);
  return `; without a value: ${parts.join("; ")}`;
}
