// Helpers of background revalidation: which answer checks a company first, and the stale notice (answer equality: same-answer.ts).

import type { OperationId } from "../contract/rules";
import { KaishaError } from "./errors";

/**
 * Which of a company's due filing answers is asked first (higher first): quarterly /financials show
 * any new results (each quarter's 決算短信, the year's too), then half-year, then annual; an older
 * window (as_of) last. When that one is unchanged, the company has filed nothing since.
 */
export function revalidationRank(
  operationId: OperationId,
  params: Readonly<Record<string, unknown>>,
): number {
  if (operationId !== "getFinancials" || params.as_of !== undefined) return 0;
  if (params.period === "quarterly") return 3;
  if (params.period === "semiannual") return 2;
  return 1;
}

/**
 * The reason attached (src/client/stale.ts) to an answer shown while it is asked again because its
 * data can have changed: a filing window is open or the market closed since it was received.
 */
export function revalidatingNotice(): KaishaError {
  const notice = new KaishaError({
    code: "revalidating",
    message: {
      en: "Updating in the background: this value may have changed since it was fetched",
      ja: "バックグラウンドで更新中：取得後に値が変わっている可能性があります",
    },
  });
  notice.stale = true;
  return notice;
}
