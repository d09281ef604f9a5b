// The background revalidation queue as the pane shows it: visibility, the line of text, the daily budget field.

import { DEFAULT_DAILY_BUDGET, type RevalidationStatus } from "../../src/client";
import { loadBudget, saveBudget } from "../../src/revalidation-budget";
import type { MessageKey } from "../i18n/messages";

export const EMPTY_REVALIDATION: RevalidationStatus = {
  companies: 0,
  requests: 0,
  inFlight: 0,
  estimatedMs: 0,
  paused: undefined,
  dailyBudget: DEFAULT_DAILY_BUDGET,
  spentToday: 0,
  changed: 0,
  unchecked: 0,
};

/** The view appears while companies wait for their update (running or paused). */
export function revalidationVisible(s: RevalidationStatus): boolean {
  return s.companies > 0 || s.inFlight > 0;
}

/**
 * Whole minutes left at the pacer's pace, rounded up; 0 under a minute.
 *
 * @internal exported for its own tests (test/taskpane/revalidation-view.test.tsx)
 */
export function minutesLeft(s: RevalidationStatus): number {
  return s.estimatedMs < 60_000 ? 0 : Math.ceil(s.estimatedMs / 60_000);
}

/** The status line: its message key and values ("Updating 37 companies, 4 min left."). */
export function revalidationLine(s: RevalidationStatus): {
  key: MessageKey;
  vars: Record<string, number>;
} {
  const c = Math.max(s.companies, s.inFlight > 0 ? 1 : 0);
  if (s.paused === "user") return { key: "revalPausedUser", vars: { c } };
  if (s.paused === "budget")
    return { key: "revalPausedBudget", vars: { c, b: s.dailyBudget ?? 0 } };
  if (s.paused === "limit") return { key: "revalPausedLimit", vars: { c } };
  if (s.paused === "key") return { key: "revalPausedKey", vars: { c } };
  const m = minutesLeft(s);
  return m === 0
    ? { key: "revalUpdatingSoon", vars: { c } }
    : { key: "revalUpdating", vars: { c, m } };
}

/**
 * A typed budget: a whole number of requests >= 0 (full-width digits too), null when empty (no
 * limit); NaN = refused (negative, a fraction, text, over 999,999).
 *
 * @internal exported for its own tests (test/taskpane/revalidation-view.test.tsx)
 */
export function parseBudget(text: string): number | null {
  const t = text.trim().replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0));
  if (t === "") return null;
  return /^\d{1,6}$/.test(t) ? Number(t) : Number.NaN;
}

/** The budget field's text for a stored budget: the default (800) when none was chosen. */
function budgetText(stored: number | null | undefined): string {
  if (stored === null) return "";
  return String(stored ?? DEFAULT_DAILY_BUDGET);
}

/** What the pane's buttons and budget field do to the queue (the view's handlers, tested alone too). */
interface RevalidationQueue {
  pause(): void;
  resume(): void;
  cancel(): number;
  setDailyBudget(budget: number | null | undefined): void;
}

/**
 * A budget typed in the field: applied to the queue and kept on this computer when valid (true);
 * refused otherwise (false): the budget in use and the stored one stay as they were.
 */
function applyBudget(text: string, queue: RevalidationQueue | undefined, store?: Storage): boolean {
  const next = parseBudget(text);
  if (Number.isNaN(next)) return false;
  saveBudget(next, store);
  queue?.setDailyBudget(next);
  return true;
}

/**
 * What the view's Pause, Resume, Stop and budget field do, and the state they leave (stopped, the
 * field's text, a refused budget): the buttons call these methods, so tests drive the same code.
 */
export class RevalidationControls {
  /** Stop was clicked: "stopped for this session" is said once the queue is empty. */
  stopped = false;
  /** The field's text: the stored budget, the default (800) filled in when none was chosen. */
  budgetText: string;
  /** The text typed last is not a budget: said under the field; nothing was applied or stored. */
  refused = false;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly queue: () => RevalidationQueue | undefined,
    private readonly store?: Storage,
  ) {
    this.budgetText = budgetText(loadBudget(store));
  }

  pause(): void {
    this.queue()?.pause();
  }

  resume(): void {
    this.stopped = false;
    this.queue()?.resume();
    this.changed();
  }

  /** Empties the queue (in-flight requests finish); the cells keep their stored values. */
  stop(): void {
    this.queue()?.cancel();
    this.stopped = true;
    this.changed();
  }

  /** What was typed stays in the field to be corrected; a refused budget changes nothing else. */
  typeBudget(text: string): void {
    this.budgetText = text;
    this.refused = !applyBudget(text, this.queue(), this.store);
    this.changed();
  }

  /** Returns unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

/** One set of controls per pane session: the status region and the Refresh section share it. */
const controlsByOwner = new WeakMap<object, RevalidationControls>();

/**
 * The controls of `owner` (the pane's session), made on first use: the budget field in the Refresh
 * section and the one beside a running update show the same text, refusal and stopped state.
 */
export function sharedControls(
  owner: object,
  queue: () => RevalidationQueue | undefined,
): RevalidationControls {
  let controls = controlsByOwner.get(owner);
  if (controls === undefined) {
    controls = new RevalidationControls(queue);
    controlsByOwner.set(owner, controls);
  }
  return controls;
}
