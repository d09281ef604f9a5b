// The open of this runtime's workbook as the pane reads it: its outcome and what the background did since (set by start.ts).

import type { OpenProgress, OpenResult } from "./morning-open";

/** The open under way or done in this runtime, with its progress. */
export interface OpenRecord {
  result: Promise<OpenResult>;
  progress: OpenProgress;
}

let current: OpenRecord | undefined;
const listeners = new Set<(r: OpenRecord) => void>();

/** The open of this runtime (taskpane/open/start.ts); a later one (Update) replaces it. */
export function recordOpen(record: OpenRecord): void {
  current?.progress.stop();
  current = record;
  for (const l of [...listeners]) l(record);
}

/**
 * Ends the open's report where it stands: Refresh all asks for everything, and its requests are no
 * part of what the open did (the pane read "Updated 0 companies: 0 cells recalculated, 13
 * requests" after one). The open stays recorded: the pane still asks its startup question.
 */
export function endOpen(): void {
  current?.progress.stop();
}

/** The open recorded so far, if any. */
export function currentOpen(): OpenRecord | undefined {
  return current;
}

/** Calls `listener` with each open recorded from now on; returns unsubscribe. */
export function onOpenRecorded(listener: (r: OpenRecord) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
