// The builder's line beside a FINANCIAL value ("2025年3月期 売上高"): which period its arguments
// read, from answers in memory. Pane code: kept out of financial-cell.ts, which the runtime page
// loads before the functions register (test/e2e/build.test.ts).

import { knownFinancialsAsk } from "../src/domain/company-resolver";
import { getClient } from "../src/session";
import { LACKING } from "./cells/define-cell";
import { internedCompanyRef } from "./cells/interned-args";
import { ltmOf, rowOf } from "./cells/answer-index";
import { answerFor, financialWhat } from "./financial-cell";

/** The period a FINANCIAL cell reads: its fiscal year (YYYY/MM) and quarter, for the builder. */
export interface FinancialPeriodRead {
  /** the item's key, however it was typed (売上高, Sales, sales). */
  item: string;
  fiscal_year: string;
  quarter?: string;
  /** annual, quarterly, semiannual or LTM (the twelve months to this quarter). */
  type: string;
}

/**
 * Which period FINANCIAL's arguments read, from answers already in memory (no request, no
 * name look-up): the task pane's builder says "2025年3月期 売上高" beside the value. Undefined
 * when an answer is not at hand or the arguments are refused (the value preview says why).
 */
export function financialPeriodRead(
  company: unknown,
  item: unknown,
  fiscalPeriod: unknown,
  period: unknown,
  quarter: unknown,
): FinancialPeriodRead | undefined {
  try {
    const ref = internedCompanyRef(company);
    if ("name" in ref) return undefined;
    const what = financialWhat(item, fiscalPeriod, period, quarter, null);
    const client = getClient();
    const ask = knownFinancialsAsk(client, ref);
    if (ask === undefined) return undefined;
    const body = answerFor(what, ask, { read: (query) => client.peek("getFinancials", query) });
    if (body === LACKING) return undefined;
    const type = what.period.type;
    // LTM: the twelve months through the quarter the sum ends with.
    const row =
      type === "LTM"
        ? ((ltm) => (ltm.ok ? ltm.through : undefined))(
            ltmOf(body.periods, what.period, what.itemKey),
          )
        : rowOf(body.periods, what.period);
    if (row === undefined) return undefined;
    return {
      item: what.itemKey,
      fiscal_year: row.fiscal_year,
      type,
      ...(row.quarter ? { quarter: row.quarter } : {}),
    };
  } catch {
    return undefined;
  }
}
