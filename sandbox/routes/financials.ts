// GET /financials (openapi.json getFinancials): annual / quarterly / semiannual periods bounded by
// as_of, oldest first.
import type { CorporationRecord } from "../data/model";
import { attribution } from "../lib/attribution";
import { jstDate } from "../lib/data-clock";
import { reasonFor } from "../lib/empty-reason";
import { fieldsOf } from "../lib/fields";
import { monthEnd } from "../lib/fiscal-period";
import { corporationOfSecurity, listedCorporation } from "../lib/lookup";
import { isPublished } from "../lib/publication";
import { defineRoute } from "../lib/route";
import { correctedRows } from "../data/corrections";

type Period = "annual" | "quarterly" | "semiannual";

const QUARTER_ORDER = ["Q1", "Q2", "H1", "Q3", "Q4", "full_year"];

/** Oldest first within a fiscal year: Q1, Q2 (H1), Q3, Q4, full_year. */
function quarterRank(quarter: string | undefined): number {
  return quarter === undefined ? 0 : QUARTER_ORDER.indexOf(quarter);
}

export const financialsRoute = defineRoute({
  operationId: "getFinancials",
  handle({ state, params }) {
    const dataset = state.dataset();
    const edinetCode = params.str("edinet_code");
    // openapi.json getFinancials: security_code resolves (primary listed security only) to the
    // corporation.
    const corporation: CorporationRecord =
      edinetCode !== undefined
        ? listedCorporation(dataset, edinetCode)
        : corporationOfSecurity(dataset, params.reqStr("security_code")).corporation;
    const period = params.reqStr("period") as Period;
    const years = params.reqNum("years");
    const asOf = params.str("as_of");
    const now = state.now();
    const today = jstDate(now);
    const code = corporation.primary_code ?? "";
    const record = dataset.financials.get(corporation.edinet_code);
    // openapi.json getFinancials: values are the latest corrected ones (data/corrections.ts).
    const rows = correctedRows(code, record?.[period] ?? [], now);
    // openapi.json info.description: rows appear 24 hours after their results tanshin (not before
    // the period ends).
    const published = rows
      .filter((row) => isPublished(dataset, code, row.fiscal_year, row.quarter, now, today))
      .sort(
        (a, b) =>
          a.fiscal_year.localeCompare(b.fiscal_year) ||
          quarterRank(a.quarter) - quarterRank(b.quarter),
      );
    let periods;
    if (period === "annual") {
      // openapi.json getFinancials: fiscal year end on or before the end of the as_of month; latest
      // `years`.
      const bound = asOf === undefined ? today : monthEnd(asOf);
      periods = published.filter((row) => monthEnd(row.fiscal_year) <= bound).slice(-years);
    } else {
      // openapi.json getFinancials: with as_of, whole fiscal years ending by that month-end (a
      // running year is excluded even with published quarters); by default the running year's
      // published quarters are included. `years` bounds the number of fiscal years, not rows.
      const eligible =
        asOf === undefined
          ? published
          : published.filter((row) => monthEnd(row.fiscal_year) <= monthEnd(asOf));
      const fiscalYears = [...new Set(eligible.map((row) => row.fiscal_year))].sort().slice(-years);
      const keep = new Set(fiscalYears);
      periods = eligible.filter((row) => keep.has(row.fiscal_year));
    }
    return {
      fields: fieldsOf("financials"),
      edinet_code: corporation.edinet_code,
      periods,
      reason: reasonFor(periods.length, "No financial periods match the conditions."),
      attribution: attribution(),
    };
  },
});
