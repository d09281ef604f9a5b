// The background daily budget as kept on this computer: the user's choice and today's count (localStorage).

import type { BudgetLedger, SpentRecord } from "./client";

/** Where the user's daily budget is kept (this computer's add-in storage, never the workbook). */
const BUDGET_STORAGE_KEY = "kaisha.revalidationDailyBudget";
/** Stored for "no limit" (an absent key means the default, 800). */
const NO_LIMIT = "none";
/** The days' counts of background requests, so a same-day reopen continues it (`SpentRecord`). */
const SPENT_STORAGE_KEY = "kaisha.revalidationSpentToday";

function storage(): Storage | undefined {
  try {
    return (globalThis as { localStorage?: Storage }).localStorage;
  } catch {
    return undefined;
  }
}

/**
 * The stored budget: a number, null for "no limit", undefined when none was chosen (the default,
 * revalidator.ts `DEFAULT_DAILY_BUDGET`, applies) or there is no storage.
 */
export function loadBudget(store: Storage | undefined = storage()): number | null | undefined {
  let raw: string | null | undefined;
  try {
    raw = store?.getItem(BUDGET_STORAGE_KEY);
  } catch {
    return undefined;
  }
  if (raw === null || raw === undefined) return undefined;
  if (raw === NO_LIMIT) return null;
  return /^\d{1,6}$/.test(raw) ? Number(raw) : undefined;
}

/** Keeps the user's budget: a number, null for no limit, undefined to go back to the default. */
export function saveBudget(
  budget: number | null | undefined,
  store: Storage | undefined = storage(),
): void {
  try {
    if (budget === undefined) store?.removeItem(BUDGET_STORAGE_KEY);
    else store?.setItem(BUDGET_STORAGE_KEY, budget === null ? NO_LIMIT : String(budget));
  } catch {
    // Storage full or refused: the budget holds for this session only.
  }
}

/**
 * Today's count kept in `store` (the revalidator saves it as each request leaves, loads it once):
 * a workbook reopened the same JST day does not get a fresh budget.
 */
export function storedLedger(store: Storage | undefined = storage()): BudgetLedger {
  return {
    load(): SpentRecord | undefined {
      const raw = store?.getItem(SPENT_STORAGE_KEY);
      if (raw === null || raw === undefined) return undefined;
      const parsed = JSON.parse(raw) as Partial<SpentRecord> | null;
      // The other days' counts are checked where they are read (src/client/spent-days.ts).
      return typeof parsed?.day === "string" && typeof parsed.spent === "number"
        ? {
            day: parsed.day,
            spent: parsed.spent,
            ...(parsed.earlier !== undefined ? { earlier: parsed.earlier } : {}),
          }
        : undefined;
    },
    save(record: SpentRecord): void {
      store?.setItem(SPENT_STORAGE_KEY, JSON.stringify(record));
    },
  };
}
