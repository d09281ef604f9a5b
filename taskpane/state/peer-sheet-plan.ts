// The layout of a comps sheet (同業比較): the subject company's row, its listed peers (/peers) and
// spare rows, each row's figures live formulas over the code in column A, then median and mean.

import type { Lang } from "../i18n/language";
import type { CompanySheetPlan, SheetCell } from "../excel/company-sheet";
import { TSE33_INDUSTRIES } from "../../src/contract/tse-industries";
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
  /** how the peer and the subject hold each other, where /peers says so. */
  relation?: PeerRelation;
}

/**
 * A capital tie between a peer and the subject, from /peers (openapi.json PeerCompany
 * capital_relationship, and parent_companies naming the subject's code).
 */
interface PeerRelation {
  kind: "subsidiary" | "related" | "parent" | "sharedParent";
  /** voting rights or ownership (%, as the API gives it), when disclosed. */
  pct: number | null;
}

export interface PeerList {
  /** the subject company (name and industry from /securities). */
  subject: PeerCompany;
  /** peers in the API's order (ascending code, openapi.json getPeers). */
  peers: PeerCompany[];
  /** attribution.source_label of the /peers answer (shown with the data, a condition of use). */
  sourceLabel: string;
}

type ApiPeer = Awaited<ReturnType<PaneClient["peers"]>>["peers"][number];

/**
 * The peer's tie to the subject: capital_relationship when the API fills it (openapi.json
 * CapitalRelationship: target_owns = the subject owns the peer; counterparty_owns_target = the peer
 * owns the subject), else a disclosed holder of the peer that is the subject (parent_companies:
 * party_type "親会社" makes the peer a subsidiary, any other an affiliate).
 * @internal Tests build the pane's peer list with it.
 */
export function peerRelation(peer: ApiPeer, subject: string): PeerRelation | undefined {
  const tie = peer.capital_relationship;
  if (tie && tie.type !== "none") {
    const kind =
      tie.type === "target_owns"
        ? "related"
        : tie.type === "counterparty_owns_target"
          ? "parent"
          : "sharedParent";
    return { kind, pct: tie.ownership_pct };
  }
  const holder = peer.parent_companies.find((p) => p.security_code === subject);
  if (!holder) return undefined;
  const parent = /親会社|^parent/i.test(holder.party_type ?? "");
  return { kind: parent ? "subsidiary" : "related", pct: holder.voting_rights_ratio };
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
  const peers = body.peers.slice(0, PEER_SHEET_MAX).map((p) => {
    const relation = peerRelation(p, code);
    return {
      code: p.security_code,
      name: p.name,
      industry: p.industry,
      ...(relation ? { relation } : {}),
    };
  });
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
  /** the row formula (`lang` for the words a formula writes). */
  formula?: (r: number, col: (id: string) => string, lang: Lang) => string;
  /** summarised by the median and mean rows. */
  stats: boolean;
  /** a multiple: "NM" where it is not meaningful, right-aligned with the numbers. */
  multiple?: boolean;
}

/** The valuation fields one VALUATION call of a row gives (its latest year, fiscal_year first). */
const PEER_VALUATION_FIELDS = [
  "stock_price_adjusted",
  "per",
  "pbr_adjusted",
  "dividend_yield_adjusted",
  "market_cap",
] as const;

/**
 * VALUATION(company, fields, years 1, headers 0) of the row: one call text for every column, so
 * the cells share one answer; INDEX picks a field (1 = fiscal_year, then PEER_VALUATION_FIELDS).
 */
function valuationAt(r: number, field: "fiscal_year" | (typeof PEER_VALUATION_FIELDS)[number]) {
  const index = field === "fiscal_year" ? 1 : PEER_VALUATION_FIELDS.indexOf(field) + 2;
  return `INDEX(KAISHA.VALUATION($A${r},"${PEER_VALUATION_FIELDS.join(",")}",1,0),1,${index})`;
}

/** A VALUATION field of the row as its cell: empty while the row has no code. */
const val =
  (field: (typeof PEER_VALUATION_FIELDS)[number] | "fiscal_year") =>
  (r: number): string =>
    `=IF($A${r}="","",${valuationAt(r, field)})`;

const fin = (key: string) => (r: number, col: (id: string) => string) =>
  `=IF($A${r}="","",KAISHA.FINANCIAL($A${r},"${key}",$${col("fiscal_year")}${r},"annual"))`;

/**
 * The one rule of every multiple column: "NM" (not meaningful) unless the divisor (earnings, book
 * or EBITDA) is a number above 0 and the multiple's inputs are numbers (the API's null is NM too).
 * MEDIAN and AVERAGE skip text in a range, so NM never enters the statistics.
 * @example multipleFormula(12, ["S12"], "Q12", "S12/Q12") // '=IF($A12="","",IF(AND(ISNUMBER(S12),ISNUMBER(Q12)),IF(Q12>0,S12/Q12,"NM"),"NM"))'
 */
function multipleFormula(
  r: number,
  inputs: readonly string[],
  divisor: string,
  value: string,
): string {
  const tests = [...inputs, divisor].map((c) => `ISNUMBER(${c})`).join(",");
  return `=IF($A${r}="","",IF(AND(${tests}),IF(${divisor}>0,${value},"NM"),"NM"))`;
}

/** A multiple the API gives (year-end PER, PBR), NM by the divisor of the row's fiscal year. */
const apiMultiple =
  (field: "per" | "pbr_adjusted", divisor: string) => (r: number, col: (id: string) => string) => {
    const value = valuationAt(r, field);
    return multipleFormula(r, [value], `${col(divisor)}${r}`, value);
  };

/** A multiple computed on the row: top ÷ divisor, NM by the same rule. */
const rowMultiple = (top: string, divisor: string) => (r: number, col: (id: string) => string) => {
  const a = `${col(top)}${r}`;
  const b = `${col(divisor)}${r}`;
  return multipleFormula(r, [a], b, `${a}/${b}`);
};

/** Words the fiscal-year flag writes (a formula: it follows a code typed into the row). */
const FYE_WORDS = {
  month: L2("決算月が異なる（", "月）", "Other year-end month ("),
  year: L2("決算期が異なる（", "）", "Other fiscal year ("),
};

function L2(jaOpen: string, jaClose: string, enOpen: string) {
  return { ja: [jaOpen, jaClose], en: [enOpen, ")"] } as const;
}

/**
 * The flag of a row whose fiscal year is not the subject's: another year-end month, or the same
 * month of another year (a peer not yet reporting the subject's latest year).
 */
function fiscalYearFlag(r: number, col: (id: string) => string, lang: Lang): string {
  const fy = `$${col("fiscal_year")}${r}`;
  const subject = `$${col("fiscal_year")}$${COMPS_SUBJECT_ROW}`;
  const [mOpen, mClose] = FYE_WORDS.month[lang];
  const [yOpen, yClose] = FYE_WORDS.year[lang];
  const monthText = `"${mOpen}"&RIGHT(${fy},2)&"${mClose}"`;
  const yearText = `"${yOpen}"&${fy}&"${yClose}"`;
  return `=IFERROR(IF(OR($A${r}="",${fy}="",${subject}="",${fy}=${subject}),"",IF(RIGHT(${fy},2)<>RIGHT(${subject},2),${monthText},${yearText})),"")`;
}

/**
 * The columns after code, name and industry. fiscal_year..market_cap come from one VALUATION
 * answer (its latest year, openapi.json ValuationHistoryPoint), and the row's FINANCIAL cells read
 * that year, so every figure of a row is of the fiscal year it shows. Current figures use the
 * latest close: market cap = close × year-end market cap ÷ year-end split-adjusted price (openapi.json
 * ValuationHistoryPoint.market_cap: stock_price_adjusted × adjusted shares, current basis), EV =
 * that + interest-bearing debt − cash of the row's year, and the multiples divide by the
 * split-adjusted EPS / BPS (current share basis, the basis of today's price) and EBITDA.
 * @internal The tests locate the sheet's columns by it.
 */
export const COMPS_COLUMNS: readonly CompsColumn[] = [
  {
    id: "fiscal_year",
    header: { ja: "決算期", en: "Fiscal year" },
    formula: val("fiscal_year"),
    stats: false,
  },
  {
    id: "per",
    header: { ja: "PER（期末）", en: "PER (year end)" },
    format: (lang) => timesFormat(lang, 1),
    formula: apiMultiple("per", "eps_adjusted"),
    stats: true,
    multiple: true,
  },
  {
    id: "pbr_adjusted",
    header: { ja: "PBR（期末）", en: "PBR (year end)" },
    format: (lang) => timesFormat(lang, 2),
    formula: apiMultiple("pbr_adjusted", "bps_adjusted"),
    stats: true,
    multiple: true,
  },
  {
    id: "dividend_yield_adjusted",
    header: { ja: "配当利回り（期末）", en: "Dividend yield (year end)" },
    format: () => SHEET_FORMATS.yieldPercent,
    formula: val("dividend_yield_adjusted"),
    stats: true,
  },
  {
    id: "stock_price_adjusted",
    header: { ja: "株価（期末、分割調整後、円）", en: "Price (year end, split-adjusted, JPY)" },
    formula: val("stock_price_adjusted"),
    stats: false,
  },
  {
    id: "market_cap",
    header: { ja: "時価総額（期末、百万円）", en: "Market cap (year end, JPY millions)" },
    format: () => SHEET_FORMATS.millionYen,
    formula: val("market_cap"),
    stats: true,
  },
  {
    id: "sales",
    header: { ja: "売上高（百万円）", en: "Sales (JPY millions)" },
    format: () => SHEET_FORMATS.millionYen,
    formula: fin("sales"),
    stats: true,
  },
  {
    id: "operating_profit",
    header: { ja: "営業利益（百万円）", en: "Operating profit (JPY millions)" },
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
    header: { ja: "純利益（百万円）", en: "Net income (JPY millions)" },
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
    id: "ebitda",
    header: { ja: "EBITDA（百万円）", en: "EBITDA (JPY millions)" },
    format: () => SHEET_FORMATS.millionYen,
    formula: fin("ebitda"),
    stats: false,
  },
  {
    id: "interest_bearing_debt",
    header: { ja: "有利子負債（百万円）", en: "Interest-bearing debt (JPY millions)" },
    format: () => SHEET_FORMATS.millionYen,
    formula: fin("interest_bearing_debt"),
    stats: false,
  },
  {
    id: "cash_and_equivalents",
    header: { ja: "現金及び現金同等物（百万円）", en: "Cash and equivalents (JPY millions)" },
    format: () => SHEET_FORMATS.millionYen,
    formula: fin("cash_and_equivalents"),
    stats: false,
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
    formula: (r) => `=IF($A${r}="","",KAISHA.PRICE($A${r}))`,
    stats: false,
  },
  {
    id: "market_cap_now",
    header: { ja: "時価総額（現在、百万円）", en: "Market cap (current, JPY millions)" },
    format: () => SHEET_FORMATS.millionYen,
    formula: (r, col) => {
      const close = `${col("close")}${r}`;
      const cap = `${col("market_cap")}${r}`;
      const price = `${col("stock_price_adjusted")}${r}`;
      return numbersOnly([close, cap, price], `IF(${price}>0,${close}*${cap}/${price},"")`);
    },
    stats: true,
  },
  {
    id: "ev",
    header: { ja: "EV（百万円）", en: "EV (JPY millions)" },
    format: () => SHEET_FORMATS.millionYen,
    formula: (r, col) => {
      const cap = `${col("market_cap_now")}${r}`;
      const debt = `${col("interest_bearing_debt")}${r}`;
      const cash = `${col("cash_and_equivalents")}${r}`;
      return numbersOnly([cap, debt, cash], `${cap}+${debt}-${cash}`);
    },
    stats: false,
  },
  {
    id: "per_now",
    header: { ja: "PER（現在株価）", en: "PER (current price)" },
    format: (lang) => timesFormat(lang, 1),
    formula: rowMultiple("close", "eps_adjusted"),
    stats: true,
    multiple: true,
  },
  {
    id: "pbr_now",
    header: { ja: "PBR（現在株価）", en: "PBR (current price)" },
    format: (lang) => timesFormat(lang, 2),
    formula: rowMultiple("close", "bps_adjusted"),
    stats: true,
    multiple: true,
  },
  {
    id: "ev_ebitda",
    header: { ja: "EV/EBITDA（現在）", en: "EV/EBITDA (current)" },
    format: (lang) => timesFormat(lang, 1),
    formula: rowMultiple("ev", "ebitda"),
    stats: true,
    multiple: true,
  },
  {
    id: "yield_now",
    header: { ja: "配当利回り（現在株価）", en: "Dividend yield (current price)" },
    format: () => SHEET_FORMATS.yieldPercent,
    formula: (r, col) => {
      const dps = `${col("dps_adjusted")}${r}`;
      const close = `${col("close")}${r}`;
      return numbersOnly([dps, close], `IF(${close}>0,${dps}/${close},"")`);
    },
    stats: true,
  },
  {
    id: "fiscal_year_flag",
    header: { ja: "決算期の違い", en: "Fiscal year check" },
    formula: fiscalYearFlag,
    stats: false,
  },
  { id: "relation", header: { ja: "資本関係", en: "Capital tie" }, stats: false },
];

/** The comps sheet's subject row (its header row is the one above). */
const COMPS_SUBJECT_ROW = 9;

/** What a rebuild reads back of an existing comps sheet: columns A:B from the subject row. */
export function keptCodesBlock(): string {
  return `A${COMPS_SUBJECT_ROW}:B${COMPS_SUBJECT_ROW + PEER_SHEET_MAX + 40}`;
}

/** The labels of the summary rows, in both languages and as earlier builds wrote them. */
const SUMMARY_WORDS: ReadonlySet<string> = new Set([
  ...(["median", "mean", "peerMedian", "peerMean", "peerCount"] as const).flatMap((id) => [
    sheetWord(id, "ja"),
    sheetWord(id, "en"),
  ]),
]);

/**
 * The codes in column A of an existing comps sheet (values of keptCodesBlock), after the subject
 * row and before the summary rows: what a rebuild keeps, so a code the analyst added survives.
 * @example codesOnSheet([["7203", "大和"], ["7201", "x"], ["", ""], ["", "中央値"]]) // ["7201"]
 */
export function codesOnSheet(values: readonly (readonly unknown[])[]): string[] {
  const codes: string[] = [];
  for (const [a, b] of values.slice(1)) {
    if (typeof b === "string" && SUMMARY_WORDS.has(b)) break;
    const code = typeof a === "number" ? String(a) : typeof a === "string" ? a.trim() : "";
    if (/^[0-9A-Za-z]{4,5}$/.test(code)) codes.push(code.toUpperCase());
  }
  return codes;
}

/**
 * The name of a code typed into a row, by KAISHA.COMPANY: the card's text where the host has data
 * types (one cell), else the name under the header row of its one-row table.
 */
function nameFormula(r: number): string {
  const card = `KAISHA.COMPANY($A${r})`;
  return `=IF($A${r}="","",IFERROR(INDEX(${card},2,1),${card}))`;
}

/** The capital tie written beside an API peer (from /peers at the build). */
function relationText(relation: PeerRelation, lang: Lang): string {
  const pct =
    relation.pct === null
      ? ""
      : lang === "ja"
        ? `（議決権 ${relation.pct.toFixed(1)}%）`
        : ` (${relation.pct.toFixed(1)}% of votes)`;
  return `${sheetWord(RELATION_WORDS[relation.kind], lang)}${pct}`;
}

const RELATION_WORDS = {
  subsidiary: "relationSubsidiary",
  related: "relationRelated",
  parent: "relationParent",
  sharedParent: "relationSharedParent",
} as const;

/** Where a comps sheet's parts sit (1-based Excel rows; columns by id). */
export interface CompsLayout {
  header: number;
  subjectRow: number;
  /** the peers' rows and the spare rows after them. */
  firstPeerRow: number;
  lastPeerRow: number;
  medianRow: number;
  meanRow: number;
  countRow: number;
  /** the 出典 line; the source lines follow it. */
  sourcesRow: number;
  column: Record<string, string>;
}

/** The datasets a comps sheet shows, each with its ATTRIBUTION line at the foot. */
const SOURCES = [
  ["peers", "sourcePeers"],
  ["financials", "sourceFinancials"],
  ["valuations", "sourceValuations"],
  ["prices", "sourcePrices"],
  ["company", "sourceCompany"],
] as const;

/**
 * The cells of a comps sheet. Column A holds the codes as text; every figure of a row is a formula
 * reading its code cell, so overwriting a code or typing one in a spare row brings that company's
 * figures and name; the summary rows cover the peers' rows (the subject excluded, as comps do) and
 * skip NM. Throws RangeError for a company without peers.
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
  const subjectRow = COMPS_SUBJECT_ROW;
  const header = subjectRow - 1;
  const firstPeerRow = subjectRow + 1;
  const lastPeerRow = firstPeerRow + n + SPARE_ROWS - 1;
  const medianRow = lastPeerRow + 1;
  const meanRow = medianRow + 1;
  const countRow = meanRow + 1;
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
    { address: "A7", value: w("compsNmNote") },
    { address: `A${header}`, value: w("code"), bold: true },
    { address: `B${header}`, value: w("name"), bold: true },
    { address: `C${header}`, value: w("industry"), bold: true },
  ];
  for (const c of COMPS_COLUMNS)
    cells.push({ address: `${col(c.id)}${header}`, value: c.header[lang], bold: true });
  // A row: an API company (code, name, industry written), a code the analyst added (its code and
  // a name formula that keeps what they typed), or a spare row (the code cell left for the analyst).
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
    } else {
      cells.push({ address: `B${r}`, formula: nameFormula(r), keepEdits: true });
    }
    for (const c of COMPS_COLUMNS) {
      const address = `${col(c.id)}${r}`;
      const format = c.format?.(lang);
      const align = c.multiple ? { alignRight: true } : {};
      if (c.formula) {
        cells.push({
          address,
          formula: c.formula(r, col, lang),
          ...(format ? { numberFormat: format } : {}),
          ...align,
          ...(bold && c.id === "fiscal_year" ? { bold } : {}),
        });
      } else if (c.id === "relation" && company?.relation) {
        cells.push({ address, value: relationText(company.relation, lang), numberFormat: "@" });
      }
    }
  });
  for (const [row, fn, label] of [
    [medianRow, "MEDIAN", w("peerMedian")],
    [meanRow, "AVERAGE", w("peerMean")],
    [countRow, "COUNT", w("peerCount")],
  ] as const) {
    cells.push({ address: `B${row}`, value: label, bold: true });
    for (const c of COMPS_COLUMNS.filter((x) => x.stats)) {
      const letter = col(c.id);
      const format = fn === "COUNT" ? SHEET_FORMATS.count : c.format?.(lang);
      // Errors stay visible in the peers' own rows; the summary says "" when no peer has a value.
      cells.push({
        address: `${letter}${row}`,
        formula: `=IFERROR(${fn}(${letter}${firstPeerRow}:${letter}${lastPeerRow}),"")`,
        bold: fn !== "COUNT",
        ...(format ? { numberFormat: format } : {}),
      });
    }
  }
  // The sources at the foot (a condition of use): 出典, then each dataset's ATTRIBUTION line.
  const sourcesRow = countRow + 2;
  cells.push({ address: `A${sourcesRow}`, value: w("sources"), bold: true });
  SOURCES.forEach(([dataset, word], i) => {
    const r = sourcesRow + 1 + i;
    cells.push({ address: `A${r}`, value: w(word) });
    cells.push({ address: `B${r}`, formula: `=KAISHA.ATTRIBUTION("${dataset}")` });
  });
  const widths: Record<string, number> = { A: 90, B: 200, C: 130 };
  for (const c of COMPS_COLUMNS) widths[col(c.id)] = 95;
  widths[col("fiscal_year_flag")] = 160;
  widths[col("relation")] = 200;
  const lastCol = columnLetter(3 + COMPS_COLUMNS.length - 1);
  return {
    plan: {
      sheetName: peerSheetName(code),
      cells,
      widths,
      // A sheet built before builds were recorded: its median/mean rows and row formulas, while
      // unchanged (company-sheet.ts clears by the build record otherwise).
      leftovers: {
        block: `A${subjectRow}:${lastCol}${subjectRow + PEER_SHEET_MAX + 40}`,
        owned: (address, content) => {
          const ref = parseAddress(address);
          const r = ref.row + 1;
          const letter = columnLetter(ref.col);
          if (letter === "B") return SUMMARY_WORDS.has(content);
          if (/^=IFERROR\((MEDIAN|AVERAGE)\([A-Z]+\d+:[A-Z]+\d+\),""\)$/.test(content)) return true;
          if (/^=KAISHA\.ATTRIBUTION\("\w+"\)$/.test(content)) return true;
          if (/^(出典|Source): /.test(content)) return letter === "A";
          const spec = COMPS_COLUMNS.find((c) => column[c.id] === letter);
          return spec?.formula !== undefined && content === spec.formula(r, col, lang);
        },
      },
    },
    layout: {
      header,
      subjectRow,
      firstPeerRow,
      lastPeerRow,
      medianRow,
      meanRow,
      countRow,
      sourcesRow,
      column,
    },
  };
}
