// The open of this runtime's workbook as the pane reads it: its outcome and what the background did since (set by start.ts).

import type { OpenProgress, OpenResult } from "./morning-open";

/** The open under way or done in this runtime, with its progress. */
export interface OpenRecord {
  result: Promise<OpenResult>;
  progress: OpenProgress;
}

let current: OpenRecord | undefined;
const listeners = new Set<(r: OpenRecord | undefined) => void>();

/** The open of this runtime (taskpane/open/start.ts); a later one (Update) replaces it. */
export function recordOpen(record: OpenRecord): void {
  current?.progress.stop();
  current = record;
  for (const l of [...listeners]) l(record);
}

/**
 * Ends the open's report: Refresh all asks for everything, and its requests are no part of what
 * the open did ("Updated 0 companies: 0 cells recalculated, 13 requests" after it said otherwise).
 */
export function endOpen(): void {
  if (current === undefined) return;
  current.progress.stop();
  current = undefined;
  for (const l of [...listeners]) l(undefined);
}

/** The open recorded so far, if any. */
export function currentOpen(): OpenRecord | undefined {
  return current;
}

/** Calls `listener` with each open recorded (or ended) from now on; returns unsubscribe. */
export function onOpenRecorded(listener: (r: OpenRecord | undefined) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
