// The background budget's counts by JST day: today's and a few earlier ones, so a clock that moves back and forth finds each day's count again.

/** Background requests sent on one JST day, as kept between sessions (`BudgetLedger`). */
export interface SpentRecord {
  /** The JST calendar day of the last count, "2026-10-05". */
  day: string;
  spent: number;
  /**
   * Other days' counts by JST day (at most KEPT_DAYS in all): a clock set back a day and forward
   * again finds the later day's count instead of spending its budget twice.
   */
  earlier?: Record<string, number>;
}

/** Days kept in a record (today included): a clock off by more than a week is not tracked. */
const KEPT_DAYS = 8;

const JST_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Counts by day from a kept record; anything malformed (an older or hand-edited one) dropped. */
export function spentDaysOf(record: SpentRecord | undefined): Map<string, number> {
  const days = new Map<string, number>();
  if (record === undefined || record === null || typeof record !== "object") return days;
  const add = (day: unknown, spent: unknown): void => {
    if (typeof day !== "string" || !JST_DAY.test(day)) return;
    if (typeof spent !== "number" || !Number.isFinite(spent) || spent < 0) return;
    days.set(day, Math.max(days.get(day) ?? 0, Math.floor(spent)));
  };
  const earlier: unknown = record.earlier;
  if (typeof earlier === "object" && earlier !== null && !Array.isArray(earlier))
    for (const day of Object.keys(earlier)) add(day, (earlier as Record<string, unknown>)[day]);
  add(record.day, record.spent);
  return days;
}

/**
 * The record to keep: `day`'s count and the latest other days', at most KEPT_DAYS in all (ISO
 * days sort by date). Also trims `days` to what it keeps.
 */
export function spentRecordOf(day: string, days: Map<string, number>): SpentRecord {
  const others = [...days.keys()].filter((d) => d !== day).sort();
  for (const old of others.slice(0, Math.max(0, others.length - (KEPT_DAYS - 1)))) days.delete(old);
  const earlier: Record<string, number> = {};
  for (const [d, spent] of days) if (d !== day) earlier[d] = spent;
  return {
    day,
    spent: days.get(day) ?? 0,
    ...(Object.keys(earlier).length > 0 ? { earlier } : {}),
  };
}
