// Results figures corrected after publication: each is published as a 訂正 (correction) disclosure
// in the timely system, and from then on the period's rows carry the corrected figure.
//
// Rules followed (src/contract/openapi.json):
// - getFinancials: "Values are latest corrected values": once the correction is public, every
//   series (annual, quarterly full_year and Q4, semiannual full_year) gives the corrected figure.
// - info.description: timely-system (tdnet) documents, and values derived from them, appear 24
//   hours after disclosed_at: before that the list omits the 訂正 and the rows keep the original.
import type { components } from "../../src/contract/generated/api-types";
import { isPastTimelyDelay } from "../lib/data-clock";

export interface Correction {
  /** security code of the company. */
  code: string;
  /** the corrected period: fiscal year YYYY/MM (its whole-year figures). */
  fiscalYear: string;
  /** the corrected item and the factor applied to its published value. */
  item: "sales";
  factor: number;
  /** ISO 8601 UTC: when the 訂正 was disclosed (timely system). */
  disclosedAt: string;
  /** the 訂正 document's title, as the timely system names corrections. */
  title: string;
}

/**
 * The sandbox's corrections: one results figure restated near the default data clock (on the
 * day after a results batch: test/e2e/why-and-changes.test.ts reads it).
 */
export const CORRECTIONS: readonly Correction[] = [
  {
    code: "4452",
    fiscalYear: "2025/12",
    item: "sales",
    factor: 1.02,
    disclosedAt: "2026-11-12T07:00:00Z",
    title: "（訂正）「2025年12月期 決算短信〔IFRS〕（連結）」の一部訂正について",
  },
];

type Row = components["schemas"]["FinancialsPeriod"];

/**
 * The company's rows as of `now`: a public correction's figure in its period's whole-year rows,
 * and in its Q4 row by the same difference (Q4 is the year less its first nine months).
 */
export function correctedRows<R extends Row>(code: string, rows: readonly R[], now: string): R[] {
  const due = CORRECTIONS.filter((c) => c.code === code && isPastTimelyDelay(c.disclosedAt, now));
  if (due.length === 0) return [...rows];
  return rows.map((row) => {
    let out = row;
    for (const c of due) {
      if (row.fiscal_year !== c.fiscalYear) continue;
      const whole = row.quarter === undefined || row.quarter === "full_year";
      if (!whole && row.quarter !== "Q4") continue;
      const year = rows.find(
        (r) =>
          r.fiscal_year === c.fiscalYear && (r.quarter === undefined || r.quarter === "full_year"),
      );
      const published = (year as Record<string, unknown> | undefined)?.[c.item];
      const own = (row as Record<string, unknown>)[c.item];
      if (typeof published !== "number" || typeof own !== "number") continue;
      // Whole yen, as the API's figures are.
      const difference = Math.round(published * c.factor) - published;
      out = { ...out, [c.item]: own + difference };
    }
    return out;
  });
}
