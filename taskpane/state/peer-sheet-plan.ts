// The layout of a peer comparison sheet: a company's listed competitors (/peers) with their latest
// sales, operating profit and margin, PER, PBR, dividend yield and market cap, all live formulas.

import type { Lang } from "../i18n/language";
import type { CompanySheetPlan, SheetCell } from "../excel/company-sheet";
import { translator } from "../i18n/messages";
import { cellAddress, columnLetter } from "./a1";
import { arrayProp, prop, type PaneClient, type PaneRequestOptions } from "./pane-client";

/**
 * functions/peers.ts asks /peers for the maximum (spec 4.12: limit 1..20) and cuts locally, so
 * every PEERS formula and this pane request share one answer.
 */
const PEERS_FETCH_LIMIT = 20;

/**
 * The sheet compares at most this many peers: each costs two requests on a cold cache (its
 * FINANCIAL and VALUATION answers), so a full sheet costs at most 1 + 2 x 10.
 */
export const PEER_SHEET_MAX = 10;

/** PEERS spills six columns: security_code, name, industry, segments, competition_reason, parents. */
const PEERS_COLUMNS = 6;

/** The VALUATION fields of each row (spec 2.4); VALUATION puts fiscal_year first itself. */
export const PEER_VALUATION_FIELDS = "per,pbr_adjusted,dividend_yield_adjusted,market_cap";

export interface PeerList {
  /** peer security codes, in the API's order. */
  codes: string[];
  /** attribution.source_label of the /peers answer (spec 2.1: shown with the data). */
  sourceLabel: string;
}

/**
 * A company's peers, asked exactly as the PEERS formula asks (one request, then cached for it).
 * @example await companyPeers(client, "7203") // { codes: ["7201", "7267"], sourceLabel: "…" }
 */
export async function companyPeers(
  client: Pick<PaneClient, "peers">,
  code: string,
  options: PaneRequestOptions = {},
): Promise<PeerList> {
  const body = await client.peers({ security_code: code, limit: PEERS_FETCH_LIMIT }, options);
  const codes = arrayProp(body, "peers")
    .flatMap((p) => (typeof p["security_code"] === "string" ? [p["security_code"]] : []))
    .slice(0, PEER_SHEET_MAX);
  const label = prop(prop(body, "attribution"), "source_label");
  return { codes, sourceLabel: typeof label === "string" ? label : "" };
}

/** Sheet names cannot hold []:*?/\ and are at most 31 characters. */
export function peerSheetName(code: string): string {
  return `Kaisha_peers_${code.replace(/[[\]:*?/\\]/g, "")}`.slice(0, 31);
}

/**
 * The cells of a peer sheet. The PEERS spill (A..F from row 4) gives code, name and industry; each
 * of its rows gets FINANCIAL and VALUATION formulas on the right that read the code in column A,
 * so the sheet recalculates as a whole. Throws RangeError for a company without peers.
 */
export function peerSheetLayout(code: string, peers: PeerList, lang: Lang): CompanySheetPlan {
  const t = translator(lang);
  const n = peers.codes.length;
  if (n === 0) throw new RangeError("peerSheetLayout: no peers");
  const headerRow = 3; // 0-based: row 4
  const first = PEERS_COLUMNS; // column G: the metric block
  const col = (i: number) => columnLetter(first + i);
  const cells: SheetCell[] = [
    { address: "A1", value: t("peerSheetTitle"), bold: true },
    { address: "A2", value: t("sheetCode"), bold: true },
    { address: "B2", value: code, numberFormat: "@" },
    { address: cellAddress(headerRow, 0), formula: `=KAISHA.PEERS($B$2,${n},1)` },
  ];
  const headers = [
    t("peerSales"),
    t("peerOperatingProfit"),
    t("peerOperatingMargin"),
    t("peerFiscalYear"),
    "PER",
    "PBR",
    t("peerDividendYield"),
    t("peerMarketCap"),
  ];
  headers.forEach((text, i) =>
    cells.push({ address: cellAddress(headerRow, first + i), value: text, bold: true }),
  );
  for (let k = 0; k < n; k++) {
    const row = headerRow + 1 + k;
    const excelRow = row + 1;
    const codeCell = `$A${excelRow}`;
    // FINANCIAL(company, item, fiscal_period 0 = latest, period, quarter, unit).
    cells.push({
      address: `${col(0)}${excelRow}`,
      formula: `=KAISHA.FINANCIAL(${codeCell},"sales",0,"annual",,"million_jpy")`,
      numberFormat: "#,##0",
    });
    cells.push({
      address: `${col(1)}${excelRow}`,
      formula: `=KAISHA.FINANCIAL(${codeCell},"operating_profit",0,"annual",,"million_jpy")`,
      numberFormat: "#,##0",
    });
    // No margin field in the contract (spec 2.5): operating profit / sales, empty when undefined.
    cells.push({
      address: `${col(2)}${excelRow}`,
      formula: `=IFERROR(${col(1)}${excelRow}/${col(0)}${excelRow},"")`,
      numberFormat: "0.0%",
    });
    // One row of VALUATION (latest fiscal year, no header): fiscal_year, PER, PBR, yield, cap.
    cells.push({
      address: `${col(3)}${excelRow}`,
      formula: `=KAISHA.VALUATION(${codeCell},"${PEER_VALUATION_FIELDS}",1,0)`,
    });
  }
  const captionRow = headerRow + n + 2;
  // REFERENCE: the source label must be shown with the data: the peers answer's own label, and
  // the financials and valuations datasets the metric cells come from.
  cells.push({
    address: cellAddress(captionRow, 0),
    value: t("captionSource", { label: peers.sourceLabel || "-" }),
  });
  cells.push({
    address: cellAddress(captionRow + 1, 0),
    formula: '=KAISHA.ATTRIBUTION("financials")',
  });
  cells.push({
    address: cellAddress(captionRow + 2, 0),
    formula: '=KAISHA.ATTRIBUTION("valuations")',
  });
  cells.push({
    address: cellAddress(captionRow + 3, 0),
    value: t("peerUnitNote"),
  });
  return { sheetName: peerSheetName(code), cells, widths: { A: 70, B: 160, C: 110 } };
}
