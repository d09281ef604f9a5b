// "Why this number": what a KAISHA cell asked, the period and answer row it resolved to, where the
// figure comes from, what qualifies it and the request behind it, as plain data the pane shows.

import type { FinancialsPeriod } from "../../src/contract";

/** A filing found among the company's disclosures (openapi.json SecurityDisclosure). */
export interface FilingRef {
  doc_id: string;
  source: "edinet" | "tdnet";
  title: string;
  /** YYYY-MM-DD (filing_date, else the day of disclosed_at). */
  date: string;
  /** kind of document: results report (短信), annual/quarterly/half-year report, other. */
  kind: "tanshin" | "yuho" | "quarterly_report" | "half_report" | "other";
  /** a 訂正 (amendment) of an earlier filing. */
  correction: boolean;
  /** the page to open: the PDF, else the statutory system's page. */
  url?: string;
}

/** Where the figure comes from. */
export type TraceSource =
  /** financials: the results filings of the resolved period (none matched: `filings` empty). */
  | { kind: "filings"; filings: FilingRef[]; disclosuresCached: boolean }
  /** DIVIDENDS / SEGMENTS rows: their own source documents (openapi.json DividendRecord source_refs). */
  | { kind: "refs"; refs: { doc_id: string; source: string; filing?: FilingRef }[] }
  /** PRICE: a trading day's quote. */
  | { kind: "price"; date: string; exchange: string };

/** One plain warning or note about the figure (rendered by its code in both languages). */
export type Qualifier =
  | { code: "standard"; standard: string }
  | { code: "consolidation"; consolidated: boolean }
  | { code: "scope_exception"; consolidated: boolean }
  | { code: "standard_exception"; standard: string; periodStandard: string }
  | { code: "jgaap_only"; standard: string }
  | { code: "derived_h2"; fullYear: number; h1: number; value: number }
  | { code: "derived_ltm"; parts: { label: string; value: number }[]; value: number }
  | { code: "ltm_balance"; label: string }
  | { code: "as_reported_per_share" }
  | { code: "split_adjusted" }
  /** openapi.json SegmentRow revenue_basis: disclosed, derived_upstream, derived_from_cumulative. */
  | { code: "segment_basis"; basis: string }
  /**
   * An annual row ending fewer than 12 months after the previous one: no real 12-month result
   * (ltmEstimate below), so the API filled the year with a trailing-12-month estimate.
   */
  | { code: "ltm_estimate"; previous: string; months: number }
  /** openapi.json ValuationHistoryPoint.per_source: reported (adjusted reported EPS) or computed. */
  | { code: "per_source"; source: string };

/** How fresh the answer behind the cell is (src/client/freshness.ts decides; the pane reports). */
export interface TraceFetch {
  /** epoch ms the answer was stored, when the pane can tell. */
  storedAt?: number;
  state: "current" | "stale" | "due" | "unknown";
  /** why it is stale (the failure's message), when stale. */
  why?: string;
}

/** Everything the "Why this number" view shows for one cell. */
export interface CellTrace {
  /** the selected cell, sheet-qualified. */
  address: string;
  /** the formula's cell (the spill's anchor for a cell of a spill). */
  anchor: string;
  formula: string;
  fn: string;
  company?: { code?: string; edinet?: string; name?: string };
  item?: { key: string; label: string; unit?: string };
  /** the resolved period in words ("2025年3月期" / "FY3/2025"), and for LTM its four quarters. */
  period?: { label: string; fiscal_year?: string; quarter?: string; quarters?: string[] };
  /** money unit the cell asks (jpy, million_jpy…). */
  moneyUnit?: string;
  /** the value as the API sent it (before any money unit or percent scale). */
  apiValue?: number | string | null;
  /** the value as the cell shows it. */
  shown?: string;
  source?: TraceSource;
  qualifiers: Qualifier[];
  fetch?: TraceFetch;
  /** the request behind it: endpoint and parameters, never the key. */
  request?: { endpoint: string; params: Record<string, string | number> };
  /** the filing's XBRL facts for the figure (xbrl-fact.ts), or the request that would read them. */
  xbrl?: XbrlTrace;
  /** why nothing more can be said (an argument from a formula, an answer not in memory…). */
  unresolved?: "not_kaisha" | "not_in_memory" | "unsupported" | "argument";
  /** for `unsupported`: why this cell is not traced to a filing (unsupported.ts). */
  reason?: UnsupportedReason;
}

/** Why a KAISHA cell is not traced to a filing: what kind of figure it is instead. */
export type UnsupportedReason =
  /** a title or header cell of a table. */
  | "header"
  /** SCREEN, RANKINGS: the API's figures across the market for a day. */
  | "market"
  /** lists and text as the API gives them (SECURITIES, DISCLOSURES, OFFICERS…). */
  | "records"
  /** XBRL: the cell is itself a filing's fact, named by its arguments. */
  | "own_fact"
  /** COMPANY: a card of the latest figures of several answers. */
  | "card"
  /** MARGIN, JSFMARGIN: balances as the exchange and JSF publish them. */
  | "margin"
  /** USAGE: the API's own count of today's requests. */
  | "usage"
  /** VALUATION's per_5y_avg: one number of the answer, not of a year. */
  | "average"
  /** a table cell the trace cannot place (a label column, a table not in memory with headers 0). */
  | "place";

/** One XBRL fact of a filing (openapi.json DisclosureXbrlFact). */
export interface XbrlFactRef {
  element_name: string;
  context: string | null;
  value: number | string;
  unit: string | null;
}

/**
 * The filing's XBRL facts for a figure: `held` with the facts whose value equals the API's figure
 * (openapi.json gives no item-to-element map, so the match is by value, in the period's own
 * contexts), or `askable`: the document's facts are not in memory and cost one request.
 */
type XbrlTrace =
  | { state: "held"; doc_id: string; title: string; facts: XbrlFactRef[] }
  | { state: "askable"; doc_id: string; title: string };

/**
 * openapi.json FinancialsPeriod: these items are "J-GAAP only; null for IFRS / US-GAAP filers".
 */
const JGAAP_ONLY_ITEMS: ReadonlySet<string> = new Set([
  "ordinary_income",
  "extraordinary_income",
  "extraordinary_loss",
  "non_operating_expenses",
  "non_operating_income",
]);

/** openapi.json FinancialsPeriod: per-share figures "As reported, not split-adjusted". */
const AS_REPORTED_PER_SHARE: ReadonlySet<string> = new Set([
  "eps",
  "diluted_eps",
  "dps",
  "dps_q2",
  "dps_year_end",
  "bps",
]);

/** standard_exceptions: `{ "J-GAAP": ["ordinary_income"] }`, the standard an item was taken under. */
function exceptionStandard(row: FinancialsPeriod, item: string): string | undefined {
  const groups = (row as { standard_exceptions?: unknown }).standard_exceptions;
  if (typeof groups !== "object" || groups === null) return undefined;
  for (const [standard, keys] of Object.entries(groups as Record<string, unknown>))
    if (Array.isArray(keys) && keys.includes(item)) return standard;
  return undefined;
}

/**
 * What qualifies a financials figure, from its row (openapi.json FinancialsPeriod): the period's
 * standard and consolidation, then warnings for an item taken with the other scope
 * (scope_exceptions) or another standard (standard_exceptions), a J-GAAP-only item under another
 * standard, and per-share figures as reported or split-adjusted.
 * @example financialQualifiers(row, "sales")[0] // { code: "standard", standard: "IFRS" }
 */
export function financialQualifiers(row: FinancialsPeriod, item: string): Qualifier[] {
  const out: Qualifier[] = [];
  const standard = row.accounting_standard;
  const consolidated = row.is_consolidated;
  if (typeof standard === "string") out.push({ code: "standard", standard });
  if (typeof consolidated === "boolean") out.push({ code: "consolidation", consolidated });
  const scope = (row as { scope_exceptions?: unknown }).scope_exceptions;
  // openapi.json FinancialsPeriod.scope_exceptions: adopted with the scope opposite to is_consolidated.
  if (Array.isArray(scope) && scope.includes(item) && typeof consolidated === "boolean")
    out.push({ code: "scope_exception", consolidated: !consolidated });
  const other = exceptionStandard(row, item);
  if (other !== undefined && typeof standard === "string" && other !== standard)
    out.push({ code: "standard_exception", standard: other, periodStandard: standard });
  if (JGAAP_ONLY_ITEMS.has(item) && typeof standard === "string" && standard !== "J-GAAP")
    out.push({ code: "jgaap_only", standard });
  if (AS_REPORTED_PER_SHARE.has(item)) out.push({ code: "as_reported_per_share" });
  if (/_adjusted$/.test(item)) out.push({ code: "split_adjusted" });
  return out;
}

/** Months from one "YYYY/MM" fiscal year end to another. */
function monthsBetween(from: string, to: string): number {
  const [fy, fm] = from.split("/").map(Number);
  const [ty, tm] = to.split("/").map(Number);
  return ((ty ?? 0) - (fy ?? 0)) * 12 + ((tm ?? 0) - (fm ?? 0));
}

/**
 * An annual row that cannot be a real 12-month result: it ends fewer than 12 months after the
 * previous row (two real fiscal years never overlap). openapi.json getFinancials: a calendar year
 * without a real 12-month result is filled with a trailing-12-month figure (an estimate from
 * quarterly actuals, differing from the disclosed numbers); so its flow figures are that estimate.
 * @example ltmEstimate([{ fiscal_year: "2023/12" }, { fiscal_year: "2024/03" }], row) // { code: "ltm_estimate", previous: "2023/12", months: 3 }
 */
export function ltmEstimate(
  periods: readonly FinancialsPeriod[],
  row: FinancialsPeriod,
): Qualifier | undefined {
  // Annual rows only (openapi.json FinancialsPeriod.quarter: only for quarterly or semiannual).
  if (row.quarter) return undefined;
  const at = periods.indexOf(row);
  const previous = at > 0 ? periods[at - 1] : undefined;
  if (previous === undefined || previous.quarter) return undefined;
  const months = monthsBetween(previous.fiscal_year, row.fiscal_year);
  return months > 0 && months < 12
    ? { code: "ltm_estimate", previous: previous.fiscal_year, months }
    : undefined;
}
