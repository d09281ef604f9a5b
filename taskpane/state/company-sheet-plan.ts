// The layout of a company sheet: header card, annual results by fiscal year (FINANCIAL cells and
// derived Excel formulas), valuation history, and a price chart on the split-adjusted close.

import type { Lang } from "../i18n/language";
import type { CompanySheetPlan, SheetCell } from "../excel/company-sheet";
import { columnLetter, parseAddress, qualify } from "./a1";
import { FINANCIALS_FETCH_YEARS } from "../../src/domain/financials-window";
import { ltmKind } from "../../src/excel/ltm-kind";
import type { PaneClient, PaneRequestOptions } from "./pane-client";
import { sheetWord, UNIT_WORDS, type Bilingual, type UnitWord } from "./sheet-labels";
import { DISPLAY_FORMATS } from "../../src/excel/display-formats";

/** One fiscal year of the company: its "YYYY/MM" and what its accounting context says. */
export interface FiscalYearInfo {
  fiscalYear: string;
  /** openapi.json FinancialsPeriod.accounting_standard: J-GAAP, IFRS or US-GAAP. */
  standard: string;
  /** openapi.json FinancialsPeriod.is_consolidated (absent: not known). */
  consolidated?: boolean;
  /** item keys adopted under J-GAAP although the period's standard is another (standard_exceptions). */
  jgaapExceptions: readonly string[];
}

/**
 * Items that exist under J-GAAP only: openapi.json FinancialsPeriod marks them "J-GAAP only; null
 * for IFRS / US-GAAP filers" (test/taskpane/company-sheet-plan.test.ts checks this list against it).
 * @internal A test checks the list against openapi.json.
 */
export const JGAAP_ONLY_ITEMS: readonly string[] = [
  "ordinary_income",
  "extraordinary_income",
  "extraordinary_loss",
  "non_operating_expenses",
  "non_operating_income",
];

/**
 * Number formats: decimals fixed per row, money in 百万円 by format while the cell keeps yen; dates
 * as every cell the add-in writes (src/excel/display-formats.ts). Prices have no sheet format: a
 * price cell is a KAISHA cell whose value carries its own format (number-formats.ts
 * numberFormatFor, a price with its own decimals: 4,355 and 2,845.5), the one imported tables use,
 * where a fixed format would read 4,355.0 or hide a half-yen tick.
 */
export const SHEET_FORMATS = {
  /** "#,##0,," shows yen in millions (two trailing commas divide by 1,000,000). */
  millionYen: "#,##0,,",
  perShare: "#,##0.00",
  percent: "0.0%",
  yieldPercent: "0.00%",
  count: "#,##0",
  date: DISPLAY_FORMATS.date,
  stamp: DISPLAY_FORMATS.dateTime,
} as const;

/**
 * A row of the results block: a fetched item, ROE (roe ?? roe_computed), the row saying where ROE
 * is the computed fallback, or a derived formula.
 */
type SummaryRow =
  | { id: string; kind: "item"; key: string; label: Bilingual; unit: UnitWord; format: string }
  | { id: "roe"; kind: "roe"; label: Bilingual; unit: UnitWord; format: string }
  | {
      id: "roe_source";
      kind: "roeSource";
      label: Bilingual;
      unit?: undefined;
      format: string;
      /** what a year whose ROE is the computed fallback shows. */
      computedWord: Bilingual;
    }
  | {
      id: string;
      kind: "derived";
      label: Bilingual;
      unit: UnitWord;
      format: string;
      /** a change over the column to the left: nothing in the LTM column. */
      yearOnYear?: boolean;
      /** the formula of one column; `prev` is the column to its left, absent for the oldest. */
      formula(
        col: string,
        prev: string | undefined,
        row: (id: string) => number,
      ): string | undefined;
    };

const item = (key: string, ja: string, en: string, unit: UnitWord, format: string): SummaryRow => ({
  id: key,
  kind: "item",
  key,
  label: { ja, en },
  unit,
  format,
});

/**
 * `body` when every cell holds a number, else empty: a FINANCIAL null is "" and Excel's arithmetic
 * on "" is #VALUE!, so the guard says why a derived cell is empty instead of hiding an error.
 * @example numbersOnly(["C12", "C11"], "C12/C11") // '=IF(AND(ISNUMBER(C12),ISNUMBER(C11)),C12/C11,"")'
 */
export function numbersOnly(cells: readonly string[], body: string): string {
  const test = cells.map((c) => `ISNUMBER(${c})`).join(",");
  return `=IF(AND(${test}),${body},"")`;
}

/** Growth over the column to the left; empty for the oldest year and when the base is not > 0. */
const growth =
  (of: string) =>
  (col: string, prev: string | undefined, row: (id: string) => number): string | undefined => {
    if (prev === undefined) return undefined;
    const now = `${col}${row(of)}`;
    const before = `${prev}${row(of)}`;
    return numbersOnly([now, before], `IF(${before}>0,${now}/${before}-1,"")`);
  };

/** A ratio of two rows of one column; empty when the divisor is 0. */
const share =
  (top: string, bottom: string) =>
  (c: string, _p: string | undefined, row: (id: string) => number): string => {
    const a = `${c}${row(top)}`;
    const b = `${c}${row(bottom)}`;
    return numbersOnly([a, b], `IF(${b}<>0,${a}/${b},"")`);
  };

/**
 * The results rows, top to bottom. Per-share values are the split-adjusted fields (openapi.json
 * FinancialsPeriod eps_adjusted / bps_adjusted / dps_adjusted: current share basis), so a split
 * does not break the series; ROE is `roe ?? roe_computed`, the contract's gap-free rule.
 * @internal Tests (unit and e2e) read the sheet's rows by it.
 */
export const SUMMARY_ROWS: readonly SummaryRow[] = [
  item("sales", "売上高", "Sales", "million_jpy", SHEET_FORMATS.millionYen),
  {
    id: "sales_growth",
    kind: "derived",
    label: { ja: "売上高 前年比", en: "Sales growth (YoY)" },
    unit: "percent",
    format: SHEET_FORMATS.percent,
    formula: growth("sales"),
    yearOnYear: true,
  },
  item("operating_profit", "営業利益", "Operating profit", "million_jpy", SHEET_FORMATS.millionYen),
  {
    id: "operating_margin",
    kind: "derived",
    label: { ja: "営業利益率", en: "Operating margin" },
    unit: "percent",
    format: SHEET_FORMATS.percent,
    formula: share("operating_profit", "sales"),
  },
  {
    id: "operating_growth",
    kind: "derived",
    label: { ja: "営業利益 前年比", en: "Operating profit growth (YoY)" },
    unit: "percent",
    format: SHEET_FORMATS.percent,
    formula: growth("operating_profit"),
    yearOnYear: true,
  },
  item("ordinary_income", "経常利益", "Ordinary income", "million_jpy", SHEET_FORMATS.millionYen),
  item(
    "net_income",
    "親会社株主に帰属する当期純利益",
    "Net income (owners of parent)",
    "million_jpy",
    SHEET_FORMATS.millionYen,
  ),
  {
    id: "net_margin",
    kind: "derived",
    label: { ja: "純利益率", en: "Net margin" },
    unit: "percent",
    format: SHEET_FORMATS.percent,
    formula: share("net_income", "sales"),
  },
  item("total_assets", "総資産", "Total assets", "million_jpy", SHEET_FORMATS.millionYen),
  item("net_assets", "純資産", "Net assets", "million_jpy", SHEET_FORMATS.millionYen),
  // openapi.json FinancialsPeriod.equity_ratio: a ratio, 1.0 = 100%.
  item("equity_ratio", "自己資本比率", "Equity ratio", "percent", SHEET_FORMATS.percent),
  item(
    "cash_and_equivalents",
    "現金及び現金同等物",
    "Cash and equivalents",
    "million_jpy",
    SHEET_FORMATS.millionYen,
  ),
  item(
    "interest_bearing_debt",
    "有利子負債",
    "Interest-bearing debt",
    "million_jpy",
    SHEET_FORMATS.millionYen,
  ),
  {
    id: "net_cash",
    kind: "derived",
    label: { ja: "ネットキャッシュ（現金－有利子負債）", en: "Net cash (cash − debt)" },
    unit: "million_jpy",
    format: SHEET_FORMATS.millionYen,
    formula: (c, _p, row) => {
      const cash = `${c}${row("cash_and_equivalents")}`;
      const debt = `${c}${row("interest_bearing_debt")}`;
      return numbersOnly([cash, debt], `${cash}-${debt}`);
    },
  },
  item(
    "operating_cf",
    "営業キャッシュフロー",
    "Operating cash flow",
    "million_jpy",
    SHEET_FORMATS.millionYen,
  ),
  item("fcf", "フリーキャッシュフロー", "Free cash flow", "million_jpy", SHEET_FORMATS.millionYen),
  item("eps_adjusted", "EPS（1株当たり利益）", "EPS", "yen", SHEET_FORMATS.perShare),
  item("bps_adjusted", "BPS（1株当たり純資産）", "BPS", "yen", SHEET_FORMATS.perShare),
  item("dps_adjusted", "1株当たり配当金", "DPS", "yen", SHEET_FORMATS.perShare),
  {
    id: "payout",
    kind: "derived",
    label: { ja: "配当性向（DPS÷EPS）", en: "Payout ratio (DPS ÷ EPS)" },
    unit: "percent",
    format: SHEET_FORMATS.percent,
    // Undefined for a loss year: a payout of a negative EPS means nothing.
    formula: (c, _p, row) => {
      const eps = `${c}${row("eps_adjusted")}`;
      const dps = `${c}${row("dps_adjusted")}`;
      return numbersOnly([dps, eps], `IF(${eps}>0,${dps}/${eps},"")`);
    },
  },
  {
    id: "roe",
    kind: "roe",
    label: { ja: "ROE", en: "ROE" },
    unit: "percent",
    format: SHEET_FORMATS.percent,
  },
  {
    id: "roe_source",
    kind: "roeSource",
    label: { ja: "ROE の出所（計算値の期）", en: "ROE basis (computed years)" },
    format: "General",
    computedWord: { ja: "計算値", en: "computed" },
  },
  item("number_of_employees", "従業員数", "Employees", "people", SHEET_FORMATS.count),
];

/**
 * The VALUATION fields of the valuation block (openapi.json ValuationHistoryPoint), with their
 * column labels and formats; VALUATION puts fiscal_year first itself.
 */
const VALUATION_COLUMNS: readonly {
  key: string;
  label: Bilingual;
  /** Absent for a price: VALUATION's own format shows (SHEET_FORMATS). */
  format?: (lang: Lang) => string;
}[] = [
  {
    key: "stock_price_adjusted",
    label: { ja: "株価（期末、分割調整後、円）", en: "Price (year end, split-adjusted, JPY)" },
  },
  { key: "per", label: { ja: "PER", en: "PER" }, format: (lang) => timesFormat(lang, 1) },
  { key: "pbr_adjusted", label: { ja: "PBR", en: "PBR" }, format: (lang) => timesFormat(lang, 2) },
  {
    key: "dividend_yield_adjusted",
    label: { ja: "配当利回り", en: "Dividend yield" },
    format: () => SHEET_FORMATS.yieldPercent,
  },
  {
    key: "market_cap",
    label: { ja: "時価総額（百万円）", en: "Market cap (JPY millions)" },
    format: () => SHEET_FORMATS.millionYen,
  },
];

/** Multiples with 倍 (ja) or x (en), decimals fixed per column. */
export function timesFormat(lang: Lang, decimals: number): string {
  const digits = decimals > 0 ? `0.${"0".repeat(decimals)}` : "0";
  return `${digits}"${UNIT_WORDS.times[lang]}"`;
}

/** Trading days a year of prices holds at least (the chart's window, newest first). */
const CHART_DAYS = 240;

/**
 * The company's annual fiscal years, oldest first, with their accounting standard: the latest
 * `years`. The client always fetches the 30-year window (openapi.json getFinancials: years 1..30),
 * the same request every FINANCIAL cell of the sheet makes, so the cells then read it from the cache.
 * @example await companyFiscalYears(client, "7203", 10) // [{ fiscalYear: "2016/03", standard: "US-GAAP", … }, …]
 */
export async function companyFiscalYears(
  client: Pick<PaneClient, "financials">,
  code: string,
  years: number,
  options: PaneRequestOptions = {},
): Promise<FiscalYearInfo[]> {
  const body = await client.financials(
    { security_code: code, period: "annual", years: FINANCIALS_FETCH_YEARS },
    options,
  );
  const found = new Map<string, FiscalYearInfo>();
  for (const p of body.periods) {
    // openapi.json FinancialsPeriod: annual rows carry no quarter; fiscal_year is YYYY/MM.
    if (p.quarter != null) continue;
    found.set(p.fiscal_year, {
      fiscalYear: p.fiscal_year,
      standard: p.accounting_standard,
      consolidated: p.is_consolidated,
      jgaapExceptions: p.standard_exceptions["J-GAAP"] ?? [],
    });
  }
  return [...found.values()]
    .sort((a, b) => (a.fiscalYear < b.fiscalYear ? -1 : a.fiscalYear > b.fiscalYear ? 1 : 0))
    .slice(-clampYears(years));
}

function clampYears(years: number): number {
  return Math.max(1, Math.min(FINANCIALS_FETCH_YEARS, Math.trunc(years) || 10));
}

/** The accounting standards in the sheet's words (openapi.json FinancialsPeriod.accounting_standard). */
const STANDARD_WORDS: Record<string, Bilingual> = {
  "J-GAAP": { ja: "日本基準", en: "J-GAAP" },
  IFRS: { ja: "IFRS", en: "IFRS" },
  "US-GAAP": { ja: "米国基準", en: "US GAAP" },
};

/** The standard in the sheet's words; "" for a value the contract does not list (never shown). */
function standardWord(standard: string, lang: Lang): string {
  return STANDARD_WORDS[standard]?.[lang] ?? "";
}

/** Sheet names cannot hold []:*?/\ and are at most 31 characters. */
function companySheetName(code: string): string {
  return `Kaisha_${code.replace(/[[\]:*?/\\]/g, "")}`.slice(0, 31);
}

/** A Date as an Excel serial in local time (what the analyst's clock shows). */
export function excelSerial(now: Date): number {
  const localMs = now.getTime() - now.getTimezoneOffset() * 60_000;
  return localMs / 86_400_000 + 25_569;
}

/** FINANCIAL(company, item, fiscal_period, period) of the code cell. */
const financial = (key: string, period: string) =>
  `KAISHA.FINANCIAL($B$2,"${key}",${period},"annual")`;

/**
 * The header of fiscal-year column `i` of `n` (oldest first): the label of FY-(n-1-i) of whichever
 * company B2 holds, read from FINANCIALS' latest `n` annual rows newest first (the 30-year answer
 * every FINANCIAL cell shares); "" where the company has fewer years. "2024/03期" (ja) or
 * "2024/03" (en), both read by FINANCIAL as fiscal_period.
 */
/**
 * The latest-half column's header: the newest row of the company's semiannual answer (the one
 * /financials window FINANCIAL's FH0 reads too): its fiscal year, and H1 when that row is the
 * first half, else H2 (a full_year row: FH0 is its second half, full year − H1). "2027/03期 上期"
 * (ja) or "2027/03 H1" (en); "" when the company has no halves.
 */
function halfHeaderFormula(lang: Lang): string {
  const rows = `KAISHA.FINANCIALS($B$2,"sales","semiannual",1,,,"periods_down",0,"desc")`;
  const first = `INDEX(${rows},1,2)="H1"`;
  return lang === "ja"
    ? `=IFERROR(INDEX(${rows},1,1)&"期 "&IF(${first},"上期","下期"),"")`
    : `=IFERROR(INDEX(${rows},1,1)&IF(${first}," H1"," H2"),"")`;
}

function yearHeaderFormula(i: number, n: number, lang: Lang): string {
  const rows = `KAISHA.FINANCIALS($B$2,"sales","annual",${n},,,"periods_down",0,"desc")`;
  const label = `INDEX(${rows},${n - i},1)`;
  return lang === "ja" ? `=IFERROR(${label}&"期","")` : `=IFERROR(${label},"")`;
}

/**
 * A fact of one fiscal year known at the build (accounting standard, consolidation): shown while
 * B2 and the column's header are still that company and year, blank once B2 names another company
 * or the years move on (no KAISHA function gives these facts; a rebuild fills them again).
 */
function builtFact(
  code: string,
  headerCell: string,
  label: string,
  fact: string | boolean,
): string {
  // A boolean stays a boolean (TRUE/FALSE, as an imported table's 連結 column holds it).
  const value = typeof fact === "boolean" ? (fact ? "TRUE" : "FALSE") : literal(fact);
  return `=IF(AND($B$2=${literal(code)},${headerCell}=${literal(label)}),${value},"")`;
}

/** An Excel string literal: quotes doubled, so API text can never end the string early. */
function literal(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/** True when the item does not exist under that year's accounting standard (shown "—"). */
function notUnderStandard(key: string, year: FiscalYearInfo): boolean {
  return (
    JGAAP_ONLY_ITEMS.includes(key) &&
    year.standard !== "" &&
    year.standard !== "J-GAAP" &&
    !year.jgaapExceptions.includes(key)
  );
}

/** The header text of a fiscal year as the header formula shows it: "2024/03期" (ja), "2024/03" (en). */
function fiscalYearHeader(fiscalYear: string, lang: Lang): string {
  return lang === "ja" ? `${fiscalYear}期` : fiscalYear;
}

/** Where the rows of the results block sit, by id (the two fact rows first). */
type RowOf = (id: string) => number;

/**
 * The formula of a results row in the fiscal-year column `c` (`prev` the column to its left, absent
 * for the oldest): FINANCIAL reads the code cell and the column's year header (empty while the
 * header is); derived rows read the cells above and to the left.
 */
function rowFormula(
  r: SummaryRow,
  c: string,
  prev: string | undefined,
  row: RowOf,
  header: number,
  lang: Lang,
): string | undefined {
  const year = `${c}$${header}`;
  const guarded = (body: string) => `=IF(${year}="","",${body})`;
  if (r.kind === "item") return guarded(financial(r.key, year));
  if (r.kind === "roe") {
    // openapi.json FinancialsPeriod.roe_computed: `roe ?? roe_computed` gives a gap-free series.
    const roe = financial("roe", year);
    return guarded(`IF(ISNUMBER(${roe}),${roe},${financial("roe_computed", year)})`);
  }
  if (r.kind === "roeSource") {
    // Says where the ROE above is the computed fallback rather than the reported figure.
    const roe = financial("roe", year);
    const computed = financial("roe_computed", year);
    return guarded(
      `IF(AND(NOT(ISNUMBER(${roe})),ISNUMBER(${computed})),"${r.computedWord[lang]}","")`,
    );
  }
  return r.formula(c, prev, row);
}

/**
 * The LTM column's formula of a results row: FINANCIAL's LTM (src/excel/period-ltm.ts: four
 * quarters of a flow, the latest balance of a stock); nothing for an item without an LTM meaning
 * (ratios, head count: openapi.json x-ltm-kind none) nor for year-on-year growth.
 */
function ltmFormula(
  r: SummaryRow,
  c: string,
  row: RowOf,
  period: "LTM" | "FH0" = "LTM",
): string | undefined {
  // #N/A where the company's quarters cannot give twelve months of the item (a J-GAAP-only item
  // of an IFRS filer, a dividend disclosed by the half): a deliberate blank, said by the LTM note.
  // The latest half (FH0) follows the same rule: flows for six months, stocks at the half's end
  // (period-ltm.ts), a ratio never (an H1 ROE is no year's ROE).
  if (r.kind === "item")
    return ltmKind(r.key) === undefined
      ? undefined
      : `=IFNA(KAISHA.FINANCIAL($B$2,"${r.key}","${period}"),"")`;
  if (r.kind === "derived" && !r.yearOnYear) return r.formula(c, undefined, row);
  return undefined;
}

/** Where the blocks of a company sheet sit (1-based Excel rows), for the pane and the tests. */
export interface CompanyLayoutRows {
  /** the fiscal-year header row of the results block. */
  header: number;
  /** Excel row of each results row id (standard, consolidated, sales, operating_margin, roe, …). */
  rows: Record<string, number>;
  /** the LTM column's letter (right of the newest fiscal year). */
  ltmColumn: string;
  /** the latest half's column letter (right of the LTM column). */
  halfColumn: string;
  /** the header row of the valuation block (its VALUATION spill starts one row below). */
  valuationHeader: number;
  /** the header row of the chart data (date, split-adjusted close), in columns AK:AL. */
  chartHeader: number;
  /** the 出典 line; the source lines follow it. */
  sourcesRow: number;
}

/** The first column of the chart data: right of the widest results block (30 years end at AF). */
const CHART_DATA_COL = 36; // AK

/** The datasets a company sheet shows, each with its ATTRIBUTION line at the foot. */
const SOURCES = [
  ["financials", "sourceFinancials"],
  ["valuations", "sourceValuations"],
  ["prices", "sourcePrices"],
  ["company", "sourceCompany"],
] as const;

/**
 * The headline block beside the card (row 2 labels, row 3 values): current figures on the latest
 * close (B4) over the latest fiscal year (FY0) of whichever company B2 holds; a multiple is "NM"
 * when its divisor is not above 0 (as on the comps sheet).
 */
function headlineCells(lang: Lang): SheetCell[] {
  const valuation = `KAISHA.VALUATION($B$2,"market_cap,stock_price_adjusted",1,0)`;
  const cap = `INDEX(${valuation},1,2)`;
  const price = `INDEX(${valuation},1,3)`;
  const fy0 = (key: string) => financial(key, '"FY0"');
  const multiple = (divisor: string) =>
    `=IF(AND(ISNUMBER($B$4),ISNUMBER(${divisor})),IF(${divisor}>0,$B$4/${divisor},"NM"),"NM")`;
  const items: { word: Parameters<typeof sheetWord>[0]; formula: string; format: string }[] = [
    {
      word: "headMarketCap",
      formula: `=IF(AND(ISNUMBER($B$4),ISNUMBER(${cap}),ISNUMBER(${price})),IF(${price}>0,$B$4*${cap}/${price},""),"")`,
      format: SHEET_FORMATS.millionYen,
    },
    { word: "headPer", formula: multiple(fy0("eps_adjusted")), format: timesFormat(lang, 1) },
    { word: "headPbr", formula: multiple(fy0("bps_adjusted")), format: timesFormat(lang, 2) },
    {
      word: "headYield",
      formula: `=IF(AND(ISNUMBER($B$4),ISNUMBER(${fy0("dps_adjusted")})),IF($B$4>0,${fy0("dps_adjusted")}/$B$4,""),"")`,
      format: SHEET_FORMATS.yieldPercent,
    },
  ];
  const cells: SheetCell[] = [];
  items.forEach((item, i) => {
    const letter = columnLetter(3 + i);
    cells.push({ address: `${letter}2`, value: sheetWord(item.word, lang), bold: true });
    cells.push({
      address: `${letter}3`,
      formula: item.formula,
      numberFormat: item.format,
      alignRight: true,
    });
  });
  cells.push({ address: "D4", value: sheetWord("headNote", lang) });
  return cells;
}

/**
 * The cells of a company sheet. Everything follows the code cell B2: the year headers are the
 * latest fiscal years of whichever company it holds (FY-9 … FY0 by FINANCIALS), results cells are
 * FINANCIAL formulas reading B2 and their column's header, derived rows plain Excel formulas over
 * them, then an LTM column, the headline valuation, the valuation history, the chart's prices and
 * the sources at the foot.
 * @param years the company's years at the build, oldest first (companyFiscalYears): their count
 *   sets the columns, their standards the facts rows and the "—" of J-GAAP-only items.
 * @param now the "sheet refreshed" stamp.
 */
export function companySheetLayout(
  code: string,
  years: readonly FiscalYearInfo[],
  lang: Lang,
  now: Date,
): { plan: CompanySheetPlan; rows: CompanyLayoutRows } {
  const n = years.length;
  if (n === 0) throw new RangeError("companySheetLayout: no fiscal years");
  const w = (id: Parameters<typeof sheetWord>[0]) => sheetWord(id, lang);
  const cells: SheetCell[] = [
    { address: "A1", value: w("companyTitle"), bold: true },
    { address: "A2", value: w("code"), bold: true },
    { address: "B2", value: code, numberFormat: "@" },
    { address: "A3", value: w("name"), bold: true },
    { address: "B3", formula: "=KAISHA.COMPANY($B$2)" },
    { address: "A4", value: w("close"), bold: true },
    { address: "B4", formula: "=KAISHA.PRICE($B$2)" },
    { address: "A5", value: w("closeDate"), bold: true },
    { address: "B5", formula: '=KAISHA.PRICE($B$2,"date")', numberFormat: SHEET_FORMATS.date },
    { address: "A6", value: w("refreshed"), bold: true },
    { address: "B6", value: excelSerial(now), numberFormat: SHEET_FORMATS.stamp },
    { address: "A7", value: w("unitNote") },
    ...headlineCells(lang),
    { address: "A9", value: w("summary"), bold: true },
  ];
  const header = 10;
  cells.push({ address: `A${header}`, value: w("item"), bold: true });
  cells.push({ address: `B${header}`, value: w("unit"), bold: true });
  const col = (i: number) => columnLetter(2 + i);
  const ltm = col(n);
  const half = col(n + 1);
  years.forEach((_y, i) => {
    cells.push({
      address: `${col(i)}${header}`,
      formula: yearHeaderFormula(i, n, lang),
      numberFormat: "@",
      bold: true,
    });
  });
  cells.push({ address: `${ltm}${header}`, value: w("ltmHeader"), bold: true, alignRight: true });
  // The latest half came after sheets were first built: where an analyst already typed into its
  // column (the first one right of LTM), a rebuild keeps what they typed (keepEdits).
  cells.push({
    address: `${half}${header}`,
    formula: halfHeaderFormula(lang),
    numberFormat: "@",
    bold: true,
    alignRight: true,
    keepEdits: true,
  });
  const rowOf: Record<string, number> = { standard: header + 1, consolidated: header + 2 };
  const first = header + 3;
  SUMMARY_ROWS.forEach((r, i) => (rowOf[r.id] = first + i));
  const row = (id: string): number => {
    const at = rowOf[id];
    if (at === undefined) throw new RangeError(`companySheetLayout: no row ${id}`);
    return at;
  };
  // The facts rows: accounting standard and consolidation of each year, as disclosed.
  cells.push({ address: `A${row("standard")}`, value: w("standardRow") });
  cells.push({ address: `A${row("consolidated")}`, value: w("consolidatedRow") });
  years.forEach((y, i) => {
    const head = `${col(i)}$${header}`;
    const label = fiscalYearHeader(y.fiscalYear, lang);
    const std = standardWord(y.standard, lang);
    if (std !== "")
      cells.push({
        address: `${col(i)}${row("standard")}`,
        formula: builtFact(code, head, label, std),
        alignRight: true,
      });
    if (y.consolidated !== undefined)
      cells.push({
        address: `${col(i)}${row("consolidated")}`,
        formula: builtFact(code, head, label, y.consolidated),
        alignRight: true,
      });
  });
  const jgaapWord = standardWord("J-GAAP", lang);
  for (const r of SUMMARY_ROWS) {
    const at = row(r.id);
    cells.push({ address: `A${at}`, value: r.label[lang] });
    if (r.unit) cells.push({ address: `B${at}`, value: UNIT_WORDS[r.unit][lang] });
    years.forEach((y, i) => {
      const c = col(i);
      const address = `${c}${at}`;
      const prev = i > 0 ? col(i - 1) : undefined;
      let formula = rowFormula(r, c, prev, row, header, lang);
      if (r.kind === "item" && notUnderStandard(r.key, y) && formula !== undefined) {
        // "—" while the facts row says the year's standard has no such item (J-GAAP only).
        const std = `${c}$${row("standard")}`;
        formula = `=IF(OR(${std}="",${std}="${jgaapWord}"),${formula.slice(1)},"—")`;
      }
      if (formula !== undefined)
        cells.push({
          address,
          formula,
          numberFormat: r.format,
          ...(r.kind === "item" && JGAAP_ONLY_ITEMS.includes(r.key) ? { alignRight: true } : {}),
        });
    });
    const ltmCell = ltmFormula(r, ltm, row);
    if (ltmCell !== undefined)
      cells.push({ address: `${ltm}${at}`, formula: ltmCell, numberFormat: r.format });
    const halfCell = ltmFormula(r, half, row, "FH0");
    if (halfCell !== undefined)
      cells.push({
        address: `${half}${at}`,
        formula: halfCell,
        numberFormat: r.format,
        keepEdits: true,
      });
  }
  let next = first + SUMMARY_ROWS.length;
  const lastRow = next - 1;
  if (years.some((y) => notUnderStandard("ordinary_income", y))) {
    cells.push({ address: `A${next++}`, value: w("notApplicableNote") });
  }
  cells.push({ address: `A${next++}`, value: sheetWord("factsNote", lang, { code }) });
  cells.push({ address: `A${next++}`, value: w("roeNote") });
  cells.push({ address: `A${next++}`, value: w("ltmNote") });
  cells.push({ address: `A${next++}`, value: w("halfNote") });
  cells.push({ address: `A${next++}`, value: w("derivedNote") });

  const valuationTitle = next + 1;
  const valuationHeader = valuationTitle + 1;
  cells.push({ address: `A${valuationTitle}`, value: w("valuation"), bold: true });
  cells.push({ address: `A${valuationHeader}`, value: w("fiscalYear"), bold: true });
  VALUATION_COLUMNS.forEach((v, i) => {
    const letter = columnLetter(1 + i);
    cells.push({ address: `${letter}${valuationHeader}`, value: v.label[lang], bold: true });
    if (v.format)
      cells.push({
        address: `${letter}${valuationHeader + 1}:${letter}${valuationHeader + n}`,
        numberFormat: v.format(lang),
      });
  });
  // VALUATION(company, fields, years, headers 0, order asc): oldest first like the results; at
  // most n rows, so the chart below never meets a longer spill.
  const fields = VALUATION_COLUMNS.map((v) => v.key).join(",");
  cells.push({
    address: `A${valuationHeader + 1}`,
    formula: `=KAISHA.VALUATION($B$2,"${fields}",${n},0,"asc")`,
  });

  // The chart's data: a year of split-adjusted closes, newest first, right of the results.
  const chartHeader = 9;
  const d = columnLetter(CHART_DATA_COL);
  const v = columnLetter(CHART_DATA_COL + 1);
  cells.push({
    address: `${d}${chartHeader - 1}`,
    formula: `=$B$2&"${w("chartDataOf")}"`,
    bold: true,
  });
  cells.push({ address: `${d}${chartHeader}`, value: w("date"), bold: true });
  cells.push({ address: `${v}${chartHeader}`, value: w("chartSeries"), bold: true });
  const firstDay = chartHeader + 1;
  const lastDay = chartHeader + CHART_DAYS;
  cells.push({ address: `${d}${firstDay}:${d}${lastDay}`, numberFormat: SHEET_FORMATS.date });
  // PRICES(company, from, to, fields, order, headers): the default window is the past year. Its
  // anchor cell keeps the date format (company-sheet.ts gives a cell its block's format).
  cells.push({
    address: `${d}${firstDay}`,
    formula: '=KAISHA.PRICES($B$2,,,"adj_close","desc",0)',
    numberFormat: SHEET_FORMATS.date,
  });
  const chartTop = valuationHeader + n + 4;
  const chartBottom = chartTop + 18;

  // The sources at the foot (a condition of use): 出典, then each dataset's ATTRIBUTION line.
  const sourcesRow = chartBottom + 2;
  cells.push({ address: `A${sourcesRow}`, value: w("sources"), bold: true });
  SOURCES.forEach(([dataset, word], i) => {
    const r = sourcesRow + 1 + i;
    cells.push({ address: `A${r}`, value: w(word) });
    cells.push({ address: `B${r}`, formula: `=KAISHA.ATTRIBUTION("${dataset}")` });
  });

  return {
    plan: {
      sheetName: companySheetName(code),
      cells,
      // A sheet built before builds were recorded: the columns this build no longer writes, while
      // still what an earlier template wrote there.
      leftovers: {
        block: `C${header}:${col(FINANCIALS_FETCH_YEARS)}${lastRow}`,
        owned: (address, content) => {
          const ref = parseAddress(address);
          if (ref.row + 1 === header)
            return (
              /^\d{4}\/\d{2}(期)?$/.test(content) ||
              /^=IFERROR\(INDEX\(KAISHA\.FINANCIALS\(/.test(content) ||
              content === w("ltmHeader")
            );
          if (content === "—") return true;
          return /^=(IF\([A-Z]+\$10="","",)?KAISHA\.FINANCIAL\(\$B\$2,"\w+",([A-Z]+\$10|"LTM"|"FH0"),?("annual")?\)\)?$/.test(
            content,
          );
        },
      },
      widths: { A: 230, B: 70, [d]: 80 },
      chart: {
        name: `${companySheetName(code)}_price`,
        title: w("chartTitle"),
        // The title shows the chart data's heading, which names the company in B2.
        titleFormula: `=${qualify(companySheetName(code), `$${d}$${chartHeader - 1}`)}`,
        seriesName: w("chartSeries"),
        x: `${d}${firstDay}:${d}${lastDay}`,
        y: `${v}${firstDay}:${v}${lastDay}`,
        newestFirst: true,
        from: `A${chartTop}`,
        to: `H${chartBottom}`,
      },
    },
    rows: {
      header,
      rows: rowOf,
      ltmColumn: ltm,
      halfColumn: half,
      valuationHeader,
      chartHeader,
      sourcesRow,
    },
  };
}
