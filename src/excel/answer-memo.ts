// One record per frozen /financials answer of what the period code (src/excel) derives from it
// (the cells' own index is functions/cells/answer-index.ts).

import type { FinancialsPeriod } from "../contract";

/**
 * What has been derived from one answer so far, each part made once on first use. The parts are
 * typed by the modules that fill them (period-rows.ts, period-dates.ts); this record only gives
 * them one home, so the period code reads one WeakMap for an answer, not one per part.
 */
export interface AnswerMemo {
  /** period-rows.ts sortedRows: the rows oldest first. */
  sorted?: readonly FinancialsPeriod[];
  /** period-rows.ts datedList: the lists a period argument walks, by name. */
  lists?: Map<string, readonly unknown[]>;
  /** period-dates.ts rowSpan: each row's months. */
  spans?: Map<FinancialsPeriod, unknown>;
}

const memos = new WeakMap<readonly FinancialsPeriod[], AnswerMemo>();

/**
 * The answer's record, made empty on first use; undefined for rows that are not frozen (an answer
 * the client hands out is frozen: one that is not could change under its key).
 *
 * @example answerMemo(body.periods)?.sorted
 */
export function answerMemo(periods: readonly FinancialsPeriod[]): AnswerMemo | undefined {
  if (!Object.isFrozen(periods)) return undefined;
  let memo = memos.get(periods);
  if (memo === undefined) {
    memo = {};
    memos.set(periods, memo);
  }
  return memo;
}
