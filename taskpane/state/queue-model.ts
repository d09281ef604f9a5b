// The pacer's queue as the pane shows it: whether to show it, the wait in whole seconds, the sheet's companies.

import type { PaneQueueStatus } from "./pane-client";

export const EMPTY_QUEUE: PaneQueueStatus = { waiting: 0, inFlight: 0, estimatedWaitMs: 0 };

/** The queue view appears while requests wait for the pacer or a 429 pause holds them. */
export function queueVisible(s: PaneQueueStatus, now: number): boolean {
  return s.waiting > 0 || (s.pausedUntil !== undefined && s.pausedUntil > now);
}

/** Seconds until the last waiting request is sent, rounded up (a wait under a second shows 1). */
export function waitSeconds(s: PaneQueueStatus): number {
  return s.estimatedWaitMs <= 0 ? 0 : Math.ceil(s.estimatedWaitMs / 1000);
}

/** Seconds of a 429 pause still to run, or 0. */
export function pauseSeconds(s: PaneQueueStatus, now: number): number {
  return s.pausedUntil === undefined || s.pausedUntil <= now
    ? 0
    : Math.ceil((s.pausedUntil - now) / 1000);
}

/**
 * "12 of 50 companies on this sheet complete": the sheet on screen's companies the queue has asked
 * for and those with nothing left to send (pacer.ts QueueStatus.sheet); undefined without them.
 */
export function sheetCompanies(s: PaneQueueStatus): { c: number; n: number } | undefined {
  return s.sheet === undefined ? undefined : { c: s.sheet.complete, n: s.sheet.companies };
}
