// The layout of a comps sheet (同業比較): the subject company's row, its listed peers (/peers) and
// spare rows, each row's figures live formulas over the code in column A, then median and mean.

import type { Lang } from "../i18n/language";
import type { CompanySheetPlan, SheetCell } from "../excel/company-sheet";
import { TSE33_INDUSTRIES } from "../../src/contract/tse-industries";
import { translator } from "../i18n/messages";
import { columnLetter, parseAddress } from "./a1";
import type { PaneClient, PaneRequestOptions } from "./pane-client";
import { excelSerial, numbersOnly, SHEET_FORMATS, timesFormat } from "./company-sheet-plan";
import { sheetWord, type Bilingual } from "./sheet-labels";

/**
 * functions/peers.ts asks /peers for the maximum (openapi.json getPeers: limit 1..20) and cuts
 * locally, so every PEERS formula and this pane request share one answer.
 */
const PEERS_FETCH_LIMIT = 20;

/**
 * The sheet compares at most this many peers: each costs up to four requests on a cold cache
 * (financials, valuations, the latest price, nothing more), so a full sheet stays near 50.
 */
const PEER_SHEET_MAX = 10;

/**
 * Empty rows after the peers: typing a code there adds a row's figures (the list is editable).
 * @internal The e2e tests locate the sheet's rows by it.
 */
export const SPARE_ROWS = 3;

interface PeerCompany {
  code: string;
  name: string;
  /** TSE 33 industry, Japanese as the API gives it. */
  industry: string;
}

export interface PeerList {
  /** the subject company (name and industry from /securities). */
  subject: PeerCompany;
  /** peers in the API's order (ascending code, openapi.json getPeers). */
  peers: PeerCompany[];
  /** attribution.source_label of the /peers answer (shown with the data, a condition of use). */
  sourceLabel: string;
}

/**
 * A company's peers, asked exactly as the PEERS formula asks (one request, then cached for it),
 * and the subject's own name and industry from /securities?q= (the request the COMPANY card makes).
 * @example await companyPeers(client, "7203") // { subject: {code: "7203", …}, peers: [{code: "7201", …}], … }
 */
export async function companyPeers(
  client: Pick<PaneClient, "peers" | "securities">,
  code: string,
  options: PaneRequestOptions = {},
): Promise<PeerList> {
  const [body, listing] = await Promise.all([
    client.peers({ security_code: code, limit: PEERS_FETCH_LIMIT }, options),
    client.securities({ q: code, limit: 20 }, options),
  ]);
  const peers = body.peers.slice(0, PEER_SHEET_MAX).map((p) => ({
    code: p.security_code,
    name: p.name,
    industry: p.industry,
  }));
  const self = listing.securities.find((s) => s.code === code);
  return {
    subject: { code, name: self?.name ?? "", industry: self?.industry ?? "" },
    peers,
    sourceLabel: body.attribution.source_label,
  };
}

/**
 * A TSE 33 industry in the sheet's language (src/contract/tse-industries.ts English names).
 * @internal Tests check industry names directly.
 */
export function industryName(industry: string, lang: Lang): string {
  if (lang === "ja") return industry;
  return TSE33_INDUSTRIES.find((i) => i.ja === industry)?.en ?? industry;
}

/** Sheet names cannot hold []:*?/\ and are at most 31 characters. */
export function peerSheetName(code: string): string {
  return `Kaisha_peers_${code.replace(/[[\]:*?/\\]/g, "")}`.slice(0, 31);
}

/** A comps column: its header, format, and the formula of one row (`r` its Excel row). */
interface CompsColumn {
  id: string;
  header: Bilingual;
  format?: (lang: Lang) => string;
  /** the row formula; undefined for the columns the VALUATION spill fills. */
  formula?: (r: number, col: (id: string) => string) => string;
  /** summarised by the median and mean rows. */
  stats: boolean;
}

const fin = (key: string) => (r: number, col: (id: string) => string) =>
  `=IF($A${r}="","",KAISHA.FINANCIAL($A${r},"${key}",$${col("fiscal_year")}${r},"annual"))`;

/** A ratio of two cells of the row, empty when the divisor is not positive (a loss year's PER). */
const ratio = (top: string, bottom: string) => (r: number, col: (id: string) => string) => {
  const a = `${col(top)}${r}`;
  const b = `${col(bottom)}${r}`;
  return numbersOnly([a, b], `IF(${b}>0,${a}/${b},"")`);
};

/**
 * The columns after code, name and industry. fiscal_year..market_cap are one VALUATION spill (its
 * latest year, openapi.json ValuationHistoryPoint), and the row's FINANCIAL cells read that year,
 * so every figure of a row is of the fiscal year it shows. The current multiples divide the latest
 * close by the split-adjusted EPS/BPS of that year (openapi.json FinancialsPeriod eps_adjusted:
 * current share basis, the basis of today's price).
 * @internal The e2e tests locate the sheet's columns by it.
 */
export const COMPS_COLUMNS: readonly CompsColumn[] = [
  { id: "fiscal_year", header: { ja: "決算期", en: "Fiscal year" }, stats: false },
  {
    id: "per",
    header: { ja: "PER（期末）", en: "PER (year end)" },
    format: (lang) => timesFormat(lang, 1),
    stats: true,
  },
  {
    id: "pbr_adjusted",
    header: { ja: "PBR（期末）", en: "PBR (year end)" },
    format: (lang) => timesFormat(lang, 2),
    stats: true,
  },
  {
    id: "dividend_yield_adjusted",
    header: { ja: "配当利回り（期末）", en: "Dividend yield (year end)" },
    format: () => SHEET_FORMATS.yieldPercent,
    stats: true,
  },
  {
    id: "market_cap",
    header: { ja: "時価総額（期末、百万円）", en: "Market cap (year end, JPY mn)" },
    format: () => SHEET_FORMATS.millionYen,
    stats: true,
  },
  {
    id: "sales",
    header: { ja: "売上高（百万円）", en: "Sales (JPY mn)" },
    format: () => SHEET_FORMATS.millionYen,
    formula: fin("sales"),
    stats: true,
  },
  {
    id: "operating_profit",
    header: { ja: "営業利益（百万円）", en: "Operating profit (JPY mn)" },
    format: () => SHEET_FORMATS.millionYen,
    formula: fin("operating_profit"),
    stats: true,
  },
  {
    id: "operating_margin",
    header: { ja: "営業利益率", en: "Operating margin" },
    format: () => SHEET_FORMATS.percent,
    formula: (r, col) => {
      const op = `${col("operating_profit")}${r}`;
      const sales = `${col("sales")}${r}`;
      return numbersOnly([op, sales], `IF(${sales}<>0,${op}/${sales},"")`);
    },
    stats: true,
  },
  {
    id: "net_income",
    header: { ja: "純利益（百万円）", en: "Net income (JPY mn)" },
    format: () => SHEET_FORMATS.millionYen,
    formula: fin("net_income"),
    stats: true,
  },
  {
    id: "roe",
    header: { ja: "ROE", en: "ROE" },
    format: () => SHEET_FORMATS.percent,
    // openapi.json ValuationHistoryPoint.roe_computed: `roe ?? roe_computed` is gap-free.
    formula: (r, col) => {
      const at = (key: string) =>
        `KAISHA.FINANCIAL($A${r},"${key}",$${col("fiscal_year")}${r},"annual")`;
      return `=IF($A${r}="","",IF(ISNUMBER(${at("roe")}),${at("roe")},${at("roe_computed")}))`;
    },
    stats: true,
  },
  {
    id: "eps_adjusted",
    header: { ja: "EPS（円）", en: "EPS (JPY)" },
    format: () => SHEET_FORMATS.perShare,
    formula: fin("eps_adjusted"),
    stats: false,
  },
  {
    id: "bps_adjusted",
    header: { ja: "BPS（円）", en: "BPS (JPY)" },
    format: () => SHEET_FORMATS.perShare,
    formula: fin("bps_adjusted"),
    stats: false,
  },
  {
    id: "dps_adjusted",
    header: { ja: "DPS（円）", en: "DPS (JPY)" },
    format: () => SHEET_FORMATS.perShare,
    formula: fin("dps_adjusted"),
    stats: false,
  },
  {
    id: "close",
    header: { ja: "株価（直近終値、円）", en: "Price (latest close, JPY)" },
    format: () => SHEET_FORMATS.price,
    formula: (r) => `=IF($A${r}="","",KAISHA.PRICE($A${r}))`,
    stats: false,
  },
  {
    id: "per_now",
    header: { ja: "PER（現在株価）", en: "PER (current price)" },
    format: (lang) => timesFormat(lang, 1),
    formula: ratio("close", "eps_adjusted"),
    stats: true,
  },
  {
    id: "pbr_now",
    header: { ja: "PBR（現在株価）", en: "PBR (current price)" },
    format: (lang) => timesFormat(lang, 2),
    formula: ratio("close", "bps_adjusted"),
    stats: true,
  },
  {
    id: "yield_now",
    header: { ja: "配当利回り（現在株価）", en: "Dividend yield (current price)" },
    format: () => SHEET_FORMATS.yieldPercent,
    formula: ratio("dps_adjusted", "close"),
    stats: true,
  },
];

/** The VALUATION fields the spill of each row gives after fiscal_year. */
const PEER_VALUATION_FIELDS = "per,pbr_adjusted,dividend_yield_adjusted,market_cap";

/** The comps sheet's subject row (its header row is the one above). */
const COMPS_SUBJECT_ROW = 9;

/** What a rebuild reads back of an existing comps sheet: columns A:B from the subject row. */
export function keptCodesBlock(): string {
  return `A${COMPS_SUBJECT_ROW}:B${COMPS_SUBJECT_ROW + PEER_SHEET_MAX + 40}`;
}

/**
 * The codes in column A of an existing comps sheet (values of keptCodesBlock), after the subject
 * row and before the median row: what a rebuild keeps, so a code the analyst added survives.
 * @example codesOnSheet([["7203", "大和"], ["7201", "x"], ["", ""], ["", "中央値"]]) // ["7201"]
 */
export function codesOnSheet(values: readonly (readonly unknown[])[]): string[] {
  const words = new Set(
    (["median", "mean"] as const).flatMap((id) => [sheetWord(id, "ja"), sheetWord(id, "en")]),
  );
  const codes: string[] = [];
  for (const [a, b] of values.slice(1)) {
    if (typeof b === "string" && words.has(b)) break;
    const code = typeof a === "number" ? String(a) : typeof a === "string" ? a.trim() : "";
    if (/^[0-9A-Za-z]{4,5}$/.test(code)) codes.push(code.toUpperCase());
  }
  return codes;
}

/** VALUATION(company, fields, years 1, headers 0): the row's latest year, fiscal_year first. */
function valuationFormula(r: number): string {
  return `=IF($A${r}="","",KAISHA.VALUATION($A${r},"${PEER_VALUATION_FIELDS}",1,0))`;
}

/** Where a comps sheet's parts sit (1-based Excel rows; columns by id). */
export interface CompsLayout {
  header: number;
  subjectRow: number;
  /** the peers' rows and the spare rows after them. */
  firstPeerRow: number;
  lastPeerRow: number;
  medianRow: number;
  meanRow: number;
  column: Record<string, string>;
}

/**
 * The cells of a comps sheet. Column A holds the codes as text; every figure of a row is a formula
 * reading its code cell, so overwriting a code or typing one in a spare row brings that company's
 * figures; the median and mean rows summarise the peers' rows (the subject excluded, as comps do).
 * Throws RangeError for a company without peers.
 */
export function peerSheetLayout(
  list: PeerList,
  lang: Lang,
  now: Date,
  kept: readonly string[] = [],
): { plan: CompanySheetPlan; layout: CompsLayout } {
  // Codes the analyst added on an earlier build stay, after the API's peers (never twice).
  const listed = new Set([list.subject.code, ...list.peers.map((p) => p.code)]);
  const extra = [...new Set(kept)].filter((c) => c !== "" && !listed.has(c));
  const n = list.peers.length + extra.length;
  if (n === 0) throw new RangeError("peerSheetLayout: no peers");
  const w = (id: Parameters<typeof sheetWord>[0]) => sheetWord(id, lang);
  const t = translator(lang);
  const subjectRow = COMPS_SUBJECT_ROW;
  const header = subjectRow - 1;
  const firstPeerRow = subjectRow + 1;
  const lastPeerRow = firstPeerRow + n + SPARE_ROWS - 1;
  const medianRow = lastPeerRow + 1;
  const meanRow = medianRow + 1;
  const column: Record<string, string> = { code: "A", name: "B", industry: "C" };
  COMPS_COLUMNS.forEach((c, i) => (column[c.id] = columnLetter(3 + i)));
  const col = (id: string): string => {
    const letter = column[id];
    if (!letter) throw new RangeError(`peerSheetLayout: no column ${id}`);
    return letter;
  };
  const code = list.subject.code;
  const cells: SheetCell[] = [
    { address: "A1", value: `${w("compsTitle")}: ${list.subject.name || code}`, bold: true },
    { address: "A2", value: w("compsSubject"), bold: true },
    { address: "B2", value: code, numberFormat: "@" },
    { address: "A3", value: w("closeDate"), bold: true },
    { address: "B3", formula: '=KAISHA.PRICE($B$2,"date")', numberFormat: SHEET_FORMATS.date },
    { address: "A4", value: w("refreshed"), bold: true },
    { address: "B4", value: excelSerial(now), numberFormat: SHEET_FORMATS.stamp },
    { address: "A5", value: w("compsNote") },
    { address: "A6", value: w("compsPriceNote") },
    { address: `A${header}`, value: w("code"), bold: true },
    { address: `B${header}`, value: w("name"), bold: true },
    { address: `C${header}`, value: w("industry"), bold: true },
  ];
  for (const c of COMPS_COLUMNS)
    cells.push({ address: `${col(c.id)}${header}`, value: c.header[lang], bold: true });
  // A row: an API company (code, name, industry written), a code the analyst added (only the
  // code: their name cells stay), or a spare row (its code cell left for the analyst, formatted).
  const companies: (PeerCompany | string | undefined)[] = [
    list.subject,
    ...list.peers,
    ...extra,
    ...Array.from({ length: SPARE_ROWS }, () => undefined),
  ];
  companies.forEach((entry, i) => {
    const r = subjectRow + i;
    const bold = i === 0;
    const company = typeof entry === "object" ? entry : undefined;
    // Codes, names and industries are API text: written as text ("@"), never as a formula.
    if (entry === undefined) cells.push({ address: `A${r}`, numberFormat: "@" });
    else
      cells.push({
        address: `A${r}`,
        value: company?.code ?? String(entry),
        numberFormat: "@",
        bold,
      });
    if (company) {
      cells.push({ address: `B${r}`, value: company.name, numberFormat: "@", bold });
      cells.push({
        address: `C${r}`,
        value: industryName(company.industry, lang),
        numberFormat: "@",
      });
    }
    cells.push({ address: `${col("fiscal_year")}${r}`, formula: valuationFormula(r), bold });
    for (const c of COMPS_COLUMNS) {
      const address = `${col(c.id)}${r}`;
      const format = c.format?.(lang);
      if (c.formula) {
        cells.push({
          address,
          formula: c.formula(r, col),
          ...(format ? { numberFormat: format } : {}),
        });
      } else if (format) {
        cells.push({ address, numberFormat: format });
      }
    }
  });
  for (const [row, fn, label] of [
    [medianRow, "MEDIAN", w("median")],
    [meanRow, "AVERAGE", w("mean")],
  ] as const) {
    cells.push({ address: `B${row}`, value: label, bold: true });
    for (const c of COMPS_COLUMNS.filter((x) => x.stats)) {
      const letter = col(c.id);
      const format = c.format?.(lang);
      // Errors stay visible in the peers' own rows; the summary says "" when no peer has a value.
      cells.push({
        address: `${letter}${row}`,
        formula: `=IFERROR(${fn}(${letter}${firstPeerRow}:${letter}${lastPeerRow}),"")`,
        bold: true,
        ...(format ? { numberFormat: format } : {}),
      });
    }
  }
  const caption = meanRow + 2;
  // The source label must be shown with the data: the peers answer's own, and the datasets the
  // figures come from.
  cells.push({
    address: `A${caption}`,
    value: t("captionSource", { label: list.sourceLabel || "-" }),
  });
  cells.push({ address: `A${caption + 1}`, formula: '=KAISHA.ATTRIBUTION("financials")' });
  cells.push({ address: `A${caption + 2}`, formula: '=KAISHA.ATTRIBUTION("valuations")' });
  cells.push({ address: `A${caption + 3}`, formula: '=KAISHA.ATTRIBUTION("prices")' });
  const widths: Record<string, number> = { A: 90, B: 200, C: 130 };
  for (const c of COMPS_COLUMNS) widths[col(c.id)] = 95;
  const lastCol = columnLetter(3 + COMPS_COLUMNS.length - 1);
  const summaryWords = new Set(
    (["median", "mean"] as const).flatMap((id) => [sheetWord(id, "ja"), sheetWord(id, "en")]),
  );
  return {
    plan: {
      sheetName: peerSheetName(code),
      cells,
      widths,
      // An earlier build with more rows: its median/mean rows and row formulas, while unchanged.
      leftovers: {
        block: `A${subjectRow}:${lastCol}${subjectRow + PEER_SHEET_MAX + 40}`,
        owned: (address, content) => {
          const ref = parseAddress(address);
          const r = ref.row + 1;
          const letter = columnLetter(ref.col);
          if (letter === "B") return summaryWords.has(content);
          if (/^=IFERROR\((MEDIAN|AVERAGE)\([A-Z]+\d+:[A-Z]+\d+\),""\)$/.test(content)) return true;
          if (letter === col("fiscal_year")) return content === valuationFormula(r);
          const spec = COMPS_COLUMNS.find((c) => column[c.id] === letter);
          return spec?.formula !== undefined && content === spec.formula(r, col);
        },
      },
    },
    layout: { header, subjectRow, firstPeerRow, lastPeerRow, medianRow, meanRow, column },
  };
}
