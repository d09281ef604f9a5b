// Annual dividend records (openapi.json DividendRecord): reported and adjusted DPS, change_type
// judged on adjusted DPS, consecutive increases, DOE, and the documents each year's values come
// from.
import type { components } from "../../src/contract/generated/api-types";
import { planKey, type DisclosurePlan } from "./disclosure-plan";
import type { CompanyFinancials } from "./financials";
import { round } from "./prng";

type DividendRecord = components["schemas"]["DividendRecord"];
type ChangeType = DividendRecord["change_type"];

const EPS = 1e-9;

/** openapi.json DividendRecord: change_type from the year-over-year change of adjusted DPS. */
function judgeChange(
  prev: number | null | undefined,
  cur: number | null,
  everPaid: boolean,
): ChangeType {
  if (prev === undefined || prev === null || cur === null) return null;
  if (prev <= EPS && cur <= EPS) return null;
  if (prev <= EPS) return everPaid ? "resume" : "new";
  if (cur <= EPS) return "cut";
  if (cur > prev + EPS) return "increase";
  if (cur < prev - EPS) return "decrease";
  return "flat";
}

export function generateDividends(fin: CompanyFinancials, plan: DisclosurePlan): DividendRecord[] {
  const out: DividendRecord[] = [];
  let prevAdj: number | null | undefined;
  let everPaid = false;
  let streak = 0;
  for (const row of fin.annual) {
    const year = Number(row.fiscal_year.slice(0, 4));
    const adj = row.dps_adjusted;
    const change = judgeChange(prevAdj, adj, everPaid);
    streak = change === "increase" ? streak + 1 : 0;
    const refs: DividendRecord["source_refs"] = [];
    const tanshin = plan.byKey.get(planKey(fin.spec.code, row.fiscal_year, "tanshin", null));
    const yuho = plan.byKey.get(planKey(fin.spec.code, row.fiscal_year, "yuho", null));
    if (tanshin) refs.push({ doc_id: tanshin.docId, source: "tdnet" });
    if (yuho) refs.push({ doc_id: yuho.docId, source: "edinet" });
    const epsAdj = row.eps_adjusted ?? row.eps_computed_adjusted;
    out.push({
      fiscal_year: year,
      annual_dps: row.dps,
      annual_dps_adjusted: adj,
      payout_ratio:
        row.payout_ratio !== null
          ? round(row.payout_ratio * 100, 1)
          : adj !== null && epsAdj !== null && epsAdj > 0
            ? round((adj / epsAdj) * 100, 1)
            : null,
      change_type: change,
      doe:
        row.total_dividends !== null && row.owners_equity !== null && row.owners_equity > 0
          ? round((row.total_dividends / row.owners_equity) * 100, 2)
          : null,
      net_asset_dividend_rate:
        adj !== null && row.bps_adjusted !== null && row.bps_adjusted > 0
          ? round((adj / row.bps_adjusted) * 100, 2)
          : null,
      consecutive_dividend_increase_years: adj === null ? null : streak,
      source_refs: refs,
    });
    if (adj !== null && adj > EPS) everPaid = true;
    prevAdj = adj;
  }
  return out;
}
