// Rows an answer holds twice for one period or date: identical ones kept once, differing ones refused.

import type { OperationId } from "../contract/rules";
import { BadResponseError } from "./errors";
import { ANSWER_MESSAGES } from "./answer-messages";

/**
 * What identifies a row of each dated list, by operation: the keys each list is ordered by in
 * openapi.json (PricesResponse.prices "newest first" by date, FinancialsResponse.periods "oldest
 * first" with FinancialsPeriod.quarter telling the rows of one fiscal year apart, SegmentsResponse
 * "fiscal_year desc, then quarter desc, then segment_name asc", DividendsResponse "fiscal_year
 * ascending", WeeklyMarginResponse.weeks "ascending by report_date", JsfMarginDailyResponse.days
 * "oldest application date first", other_exchange_reverse per market), and `fields[]` by `key`
 * (FieldUnit: the unit of one numeric property). Two rows with one identity and other figures
 * leave no way to tell which is right: the answer is refused, never read by position.
 * @internal Tests hold every key named here to a required property of the list's items.
 */
export const ROW_IDENTITY: Partial<
  Record<OperationId, Readonly<Record<string, readonly string[]>>>
> = {
  getScreeningFields: { fields: ["key"] },
  getPrices: { fields: ["key"], prices: ["date"] },
  getValuations: { fields: ["key"], history: ["fiscal_year"] },
  getFinancials: { fields: ["key"], periods: ["fiscal_year", "quarter"] },
  getSegments: { fields: ["key"], segments: ["fiscal_year", "quarter", "segment_name"] },
  getDividends: { fields: ["key"], records: ["fiscal_year"] },
  getWeeklyMarginBalance: { fields: ["key"], weeks: ["report_date"] },
  getJsfMarginDaily: {
    fields: ["key"],
    days: ["date"],
    reverse: ["date"],
    other_exchange_reverse: ["date", "exchange_code"],
  },
};

/**
 * The identity of `row`: its one key's value itself (a Map tells "2024" from 2024), else the
 * values joined (each identity property has one type in the contract; absent and null alike).
 */
function identity(row: Record<string, unknown>, keys: readonly string[]): unknown {
  if (keys.length === 1) return row[keys[0] as string] ?? null;
  let out = "";
  for (const key of keys) {
    const v = row[key];
    out += v === undefined || v === null ? "\u0000\u0001" : `${String(v)}\u0001`;
  }
  return out;
}

/** Same JSON value (key order aside). Bounded: answers reach here cleaned, at most 64 levels deep. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  for (const k of ka) if (!Object.hasOwn(rb, k) || !sameValue(ra[k], rb[k])) return false;
  return true;
}

/**
 * `list` without the rows that repeat an earlier one exactly (the same list when none does), or
 * BadResponseError naming the later row and the earlier one when a repeated identity has other
 * figures. Rows are objects here (the contract check ran first).
 */
function distinctRows(list: readonly unknown[], keys: readonly string[], field: string): unknown[] {
  if (list.length < 2) return list as unknown[];
  const seen = new Map<unknown, number>();
  let kept: unknown[] | undefined;
  for (let i = 0; i < list.length; i += 1) {
    const row = list[i] as Record<string, unknown>;
    const id = identity(row, keys);
    const first = seen.get(id);
    if (first === undefined) {
      seen.set(id, i);
      kept?.push(row);
      continue;
    }
    if (!sameValue(list[first], row)) {
      const at = `${field}[${i}]`;
      throw new BadResponseError(`${at} repeats ${field}[${first}]`, {
        kind: "field",
        message: ANSWER_MESSAGES.duplicateRow(at, `${field}[${first}]`),
      });
    }
    kept ??= list.slice(0, i);
  }
  return kept ?? (list as unknown[]);
}

/**
 * `body` with exact duplicate rows of its dated lists collapsed (itself when there are none), or
 * BadResponseError (`kind: "field"`) when two rows of one period or date differ (ROW_IDENTITY).
 *
 * @example distinctPeriods("getPrices", { prices: [{ date: "2026-11-19", close: 1 }, { date: "2026-11-19", close: 2 }] }) // throws
 */
export function distinctPeriods(opId: OperationId, body: Record<string, unknown>): unknown {
  const lists = ROW_IDENTITY[opId];
  if (lists === undefined) return body;
  let copy: Record<string, unknown> | undefined;
  for (const field in lists) {
    const list = body[field];
    const keys = lists[field];
    if (!Array.isArray(list) || keys === undefined) continue;
    const rows = distinctRows(list, keys, field);
    if (rows !== list) (copy ??= { ...body })[field] = rows;
  }
  return copy ?? body;
}
