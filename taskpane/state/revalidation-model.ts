// The background revalidation queue as the pane shows it: visibility, the line of text, the stored daily budget.

import type { RevalidationStatus } from "../../src/client/revalidator";
import type { MessageKey } from "../i18n/messages";

export const EMPTY_REVALIDATION: RevalidationStatus = {
  companies: 0,
  requests: 0,
  inFlight: 0,
  estimatedMs: 0,
  paused: undefined,
  dailyBudget: undefined,
  spentToday: 0,
  changed: 0,
};

/** Where the user's daily budget is kept (this computer's add-in storage, never the workbook). */
const BUDGET_STORAGE_KEY = "kaisha.revalidationDailyBudget";

/** The view appears while companies wait for their update (running or paused). */
export function revalidationVisible(s: RevalidationStatus): boolean {
  return s.companies > 0 || s.inFlight > 0;
}

/** Whole minutes left at the pacer's pace, rounded up; 0 under a minute. */
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
  const m = minutesLeft(s);
  return m === 0
    ? { key: "revalUpdatingSoon", vars: { c } }
    : { key: "revalUpdating", vars: { c, m } };
}

/** A typed budget: a whole number of requests >= 0, or undefined (empty: no limit); NaN = refused. */
export function parseBudget(text: string): number | undefined {
  const t = text.trim().replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0));
  if (t === "") return undefined;
  return /^\d{1,6}$/.test(t) ? Number(t) : Number.NaN;
}

function storage(): Storage | undefined {
  try {
    return (globalThis as { localStorage?: Storage }).localStorage;
  } catch {
    return undefined;
  }
}

/** The stored budget, or undefined (none set, or no storage). */
export function loadBudget(store: Storage | undefined = storage()): number | undefined {
  const raw = store?.getItem(BUDGET_STORAGE_KEY);
  if (raw === null || raw === undefined) return undefined;
  const n = parseBudget(raw);
  return Number.isNaN(n) ? undefined : n;
}

export function saveBudget(budget: number | undefined, store: Storage | undefined = storage()) {
  try {
    if (budget === undefined) store?.removeItem(BUDGET_STORAGE_KEY);
    else store?.setItem(BUDGET_STORAGE_KEY, String(budget));
  } catch {
    // Storage full or refused: the budget holds for this session only.
  }
}
