// Why a KAISHA function's cell is not traced to a filing: what kind of figure each function gives
// instead (functions/index.ts lists them), so the view says precisely why, never just "cannot".

import type { UnsupportedReason } from "./trace-model";

/** Functions whose cells are not one period's reported figure, by what they give instead. */
const REASONS: Readonly<Record<string, UnsupportedReason>> = {
  SCREEN: "market",
  RANKINGS: "market",
  SECURITIES: "records",
  FIELDS: "records",
  SCREENFIELDS: "records",
  PEERS: "records",
  DISCLOSURES: "records",
  DOCUMENT: "records",
  SECTION: "records",
  OFFICERS: "records",
  PERSON: "records",
  APPOINTMENTS: "records",
  COMPENSATION: "records",
  ATTRIBUTION: "records",
  XBRL: "own_fact",
  COMPANY: "card",
  MARGIN: "margin",
  JSFMARGIN: "margin",
  USAGE: "usage",
};

/**
 * The reason a function's cells are not traced (FINANCIAL, FINANCIALS, DIVIDENDS, SEGMENTS,
 * VALUATION, PRICE and PRICES are: resolve-trace.ts); "records" for a function this table lacks.
 * @example unsupportedReason("SCREEN") // "market"
 */
export function unsupportedReason(fn: string): UnsupportedReason {
  return REASONS[fn] ?? "records";
}
