// What a replaced answer brought (answer-watch.ts): new periods, figures of periods already
// published changed (a restatement), or a new price day, per company.

import type { FinancialsPeriod } from "../../src/contract";
import { sameAnswer } from "../../src/util/same-answer";
import type { ReplacedAnswer } from "./answer-watch";

/** What moved in one company's answers. */
export interface CompanyMoves {
  /** "7203", or an EDINET code when the answer was asked by it. */
  company: string;
  /** periods ("2026/03", "2027/03 Q2") present now and not before. */
  newPeriods: string[];
  /** periods present before whose figures changed (openapi.json getFinancials: values are the latest corrected ones). */
  restated: { period: string; items: string[] }[];
  /** the new latest trading day of a price answer. */
  newPriceDay?: string;
}

function periodKey(p: { fiscal_year: string; quarter?: string }): string {
  return p.quarter && p.quarter !== "full_year" ? `${p.fiscal_year} ${p.quarter}` : p.fiscal_year;
}

const NOT_FIGURES = new Set(["fiscal_year", "quarter"]);

/** Items whose values differ between two rows of the same period. */
function changedItems(before: FinancialsPeriod, after: FinancialsPeriod): string[] {
  const a = before as unknown as Record<string, unknown>;
  const b = after as unknown as Record<string, unknown>;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => !NOT_FIGURES.has(k) && !sameAnswer(a[k], b[k]));
}

function periodsOf(body: unknown): FinancialsPeriod[] {
  const periods = (body as { periods?: unknown } | null)?.periods;
  return Array.isArray(periods) ? (periods as FinancialsPeriod[]) : [];
}

function companyOf(r: ReplacedAnswer): string | undefined {
  const prices = /^\/securities\/([^/]+)\//.exec(r.path);
  if (prices) return decodeURIComponent(prices[1] ?? "");
  return r.query.get("security_code") ?? r.query.get("edinet_code") ?? undefined;
}

/**
 * Per company, what the replaced answers brought: financials by period (new rows; rows whose
 * figures changed), prices by their latest day (openapi.json getPrices: newest first).
 * @example companyMoves(replacedSince(start)).get("7203")?.newPeriods // ["2027/03 Q2"]
 */
export function companyMoves(replaced: readonly ReplacedAnswer[]): Map<string, CompanyMoves> {
  const out = new Map<string, CompanyMoves>();
  const of = (company: string): CompanyMoves => {
    let m = out.get(company);
    if (m === undefined) {
      m = { company, newPeriods: [], restated: [] };
      out.set(company, m);
    }
    return m;
  };
  for (const r of replaced) {
    const company = companyOf(r);
    if (company === undefined) continue;
    if (r.path === "/financials") {
      const before = new Map(periodsOf(r.before).map((p) => [periodKey(p), p]));
      const m = of(company);
      for (const row of periodsOf(r.after)) {
        const key = periodKey(row);
        const old = before.get(key);
        if (old === undefined) {
          if (!m.newPeriods.includes(key)) m.newPeriods.push(key);
          continue;
        }
        const items = changedItems(old, row);
        if (items.length === 0) continue;
        const known = m.restated.find((x) => x.period === key);
        if (known) known.items = [...new Set([...known.items, ...items])];
        else m.restated.push({ period: key, items });
      }
    } else if (/\/prices$/.test(r.path)) {
      const day = (r.after as { prices?: { date?: unknown }[] } | null)?.prices?.[0]?.date;
      const old = (r.before as { prices?: { date?: unknown }[] } | null)?.prices?.[0]?.date;
      if (typeof day === "string" && day !== old) of(company).newPriceDay = day;
    }
  }
  return out;
}
