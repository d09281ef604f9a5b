// The layout of a company sheet: header card, annual results by fiscal year (FINANCIAL cells and
// derived Excel formulas), valuation history, and a price chart on the split-adjusted close.

import type { Lang } from "../i18n/language";
import type { CompanySheetPlan, SheetCell } from "../excel/company-sheet";
import { columnLetter, parseAddress } from "./a1";
import { FINANCIALS_FETCH_YEARS } from "../../src/domain/financials-window";
import type { PaneClient, PaneRequestOptions } from "./pane-client";
import { sheetWord, UNIT_WORDS, type Bilingual, type UnitWord } from "./sheet-labels";

/** One fiscal year of the company: its "YYYY/MM" and what its accounting context says. */
export interface FiscalYearInfo {
  fiscalYear: string;
  /** openapi.json FinancialsPeriod.accounting_standard: J-GAAP, IFRS or US-GAAP. */
  standard: string;
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

/** Number formats: decimals fixed per row, money in 百万円 by format while the cell keeps yen. */
export const SHEET_FORMATS = {
  /** "#,##0,," shows yen in millions (two trailing commas divide by 1,000,000). */
  millionYen: "#,##0,,",
  perShare: "#,##0.00",
  price: "#,##0.0",
  percent: "0.0%",
  yieldPercent: "0.00%",
  count: "#,##0",
  date: "yyyy/mm/dd",
  stamp: "yyyy/mm/dd hh:mm",
} as const;

/** A row of the results block: a fetched item, ROE (roe ?? roe_computed) or a derived formula. */
type SummaryRow =
  | { id: string; kind: "item"; key: string; label: Bilingual; unit: UnitWord; format: string }
  | { id: "roe"; kind: "roe"; label: Bilingual; unit: UnitWord; format: string }
  | {
      id: string;
      kind: "derived";
      label: Bilingual;
      unit: UnitWord;
      format: string;
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
  item("number_of_employees", "従業員数", "Employees", "people", SHEET_FORMATS.count),
];

/**
 * The VALUATION fields of the valuation block (openapi.json ValuationHistoryPoint), with their
 * column labels and formats; VALUATION puts fiscal_year first itself.
 */
const VALUATION_COLUMNS: readonly {
  key: string;
  label: Bilingual;
  format: (lang: Lang) => string;
}[] = [
  {
    key: "stock_price_adjusted",
    label: { ja: "株価（期末、分割調整後、円）", en: "Price (year end, split-adjusted, JPY)" },
    format: () => SHEET_FORMATS.price,
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
    label: { ja: "時価総額（百万円）", en: "Market cap (JPY mn)" },
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

/** True when the item does not exist under that year's accounting standard (shown "—"). */
function notUnderStandard(key: string, year: FiscalYearInfo): boolean {
  return (
    JGAAP_ONLY_ITEMS.includes(key) &&
    year.standard !== "" &&
    year.standard !== "J-GAAP" &&
    !year.jgaapExceptions.includes(key)
  );
}

/**
 * The header text of a fiscal year column, also what its FINANCIAL cells read as fiscal_period:
 * "2024/03期" (ja) or "2024/03" (en), both accepted by fiscalPeriodChoice. Written as text ("@"), so
 * Excel never turns it into a date.
 */
function fiscalYearHeader(fiscalYear: string, lang: Lang): string {
  return lang === "ja" ? `${fiscalYear}期` : fiscalYear;
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

/**
 * The formula of a results row in the fiscal-year column `i` (0 = C): FINANCIAL reads the code
 * cell and the column's year header; derived rows read the cells above and to the left.
 */
function rowFormula(
  r: SummaryRow,
  i: number,
  row: (id: string) => number,
  header: number,
): string | undefined {
  const c = columnLetter(2 + i);
  // FINANCIAL(company, item, fiscal_period, period): the code cell and the column's year.
  const fin = (key: string) => `KAISHA.FINANCIAL($B$2,"${key}",${c}$${header},"annual")`;
  if (r.kind === "item") return `=${fin(r.key)}`;
  if (r.kind === "roe") {
    // openapi.json ValuationHistoryPoint.roe_computed: "roe ?? roe_computed gives a gap-free series".
    const roe = fin("roe");
    return `=IF(ISNUMBER(${roe}),${roe},${fin("roe_computed")})`;
  }
  return r.formula(c, i > 0 ? columnLetter(1 + i) : undefined, row);
}

/** Where the blocks of a company sheet sit (1-based Excel rows), for the pane and the tests. */
export interface CompanyLayoutRows {
  /** the fiscal-year header row of the results block. */
  header: number;
  /** Excel row of each results row id (sales, operating_margin, roe, …). */
  rows: Record<string, number>;
  /** the header row of the valuation block (its VALUATION spill starts one row below). */
  valuationHeader: number;
  /** the header row of the chart data (date, split-adjusted close), in columns AK:AL. */
  chartHeader: number;
}

/** The first column of the chart data: right of the widest results block (30 years end at AF). */
const CHART_DATA_COL = 36; // AK

/**
 * The cells of a company sheet. Results cells are FINANCIAL formulas reading the code cell and
 * their column's fiscal-year header, so the model stays live and a column keeps its year when a
 * newer one is disclosed; derived rows are plain Excel formulas over those cells.
 * @param years the columns' years, oldest first (companyFiscalYears).
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
    { address: "B4", formula: "=KAISHA.PRICE($B$2)", numberFormat: SHEET_FORMATS.price },
    { address: "A5", value: w("closeDate"), bold: true },
    { address: "B5", formula: '=KAISHA.PRICE($B$2,"date")', numberFormat: SHEET_FORMATS.date },
    { address: "A6", value: w("refreshed"), bold: true },
    { address: "B6", value: excelSerial(now), numberFormat: SHEET_FORMATS.stamp },
    { address: "A7", value: w("unitNote") },
    { address: "A9", value: w("summary"), bold: true },
  ];
  const header = 10;
  cells.push({ address: `A${header}`, value: w("item"), bold: true });
  cells.push({ address: `B${header}`, value: w("unit"), bold: true });
  const col = (i: number) => columnLetter(2 + i);
  years.forEach((y, i) => {
    cells.push({
      address: `${col(i)}${header}`,
      value: fiscalYearHeader(y.fiscalYear, lang),
      numberFormat: "@",
      bold: true,
    });
  });
  const rowOf: Record<string, number> = {};
  SUMMARY_ROWS.forEach((r, i) => (rowOf[r.id] = header + 1 + i));
  const row = (id: string): number => {
    const at = rowOf[id];
    if (at === undefined) throw new RangeError(`companySheetLayout: no row ${id}`);
    return at;
  };
  for (const r of SUMMARY_ROWS) {
    const at = row(r.id);
    cells.push({ address: `A${at}`, value: r.label[lang] });
    cells.push({ address: `B${at}`, value: UNIT_WORDS[r.unit][lang] });
    years.forEach((y, i) => {
      const c = col(i);
      const address = `${c}${at}`;
      if (r.kind === "item" && notUnderStandard(r.key, y)) {
        cells.push({ address, value: "—", alignRight: true });
        return;
      }
      const formula = rowFormula(r, i, row, header);
      if (formula !== undefined) cells.push({ address, formula, numberFormat: r.format });
    });
  }
  let next = header + SUMMARY_ROWS.length + 1;
  if (years.some((y) => notUnderStandard("ordinary_income", y))) {
    cells.push({ address: `A${next++}`, value: w("notApplicableNote") });
  }
  cells.push({ address: `A${next++}`, value: w("derivedNote") });
  // The source must be shown with the data (attribution.source_label, a condition of use).
  cells.push({ address: `A${next++}`, formula: '=KAISHA.ATTRIBUTION("financials")' });
  // Above the valuation block, not under it: a longer VALUATION spill on a rebuild must not meet it.
  cells.push({ address: `A${next++}`, formula: '=KAISHA.ATTRIBUTION("valuations")' });

  const valuationTitle = next + 1;
  const valuationHeader = valuationTitle + 1;
  cells.push({ address: `A${valuationTitle}`, value: w("valuation"), bold: true });
  cells.push({ address: `A${valuationHeader}`, value: w("fiscalYear"), bold: true });
  VALUATION_COLUMNS.forEach((v, i) => {
    const letter = columnLetter(1 + i);
    cells.push({ address: `${letter}${valuationHeader}`, value: v.label[lang], bold: true });
    cells.push({
      address: `${letter}${valuationHeader + 1}:${letter}${valuationHeader + n}`,
      numberFormat: v.format(lang),
    });
  });
  // VALUATION(company, fields, years, headers 0, order asc): oldest first like the results.
  const fields = VALUATION_COLUMNS.map((v) => v.key).join(",");
  cells.push({
    address: `A${valuationHeader + 1}`,
    formula: `=KAISHA.VALUATION($B$2,"${fields}",${n},0,"asc")`,
  });

  // The chart's data: a year of split-adjusted closes, newest first, right of the results.
  const chartHeader = 9;
  const d = columnLetter(CHART_DATA_COL);
  const v = columnLetter(CHART_DATA_COL + 1);
  cells.push({ address: `${d}${chartHeader - 1}`, value: w("chartData"), bold: true });
  cells.push({ address: `${d}${chartHeader}`, value: w("date"), bold: true });
  cells.push({ address: `${v}${chartHeader}`, value: w("chartSeries"), bold: true });
  const first = chartHeader + 1;
  const last = chartHeader + CHART_DAYS;
  cells.push({ address: `${d}${first}:${d}${last}`, numberFormat: SHEET_FORMATS.date });
  cells.push({ address: `${v}${first}:${v}${last}`, numberFormat: SHEET_FORMATS.price });
  // PRICES(company, from, to, fields, order, headers): the default window is the past year.
  cells.push({ address: `${d}${first}`, formula: '=KAISHA.PRICES($B$2,,,"adj_close","desc",0)' });
  const chartTop = valuationHeader + n + 4;

  const lastRow = header + SUMMARY_ROWS.length;
  return {
    plan: {
      sheetName: companySheetName(code),
      cells,
      // A rebuild with fewer years: the columns it no longer writes, while still the template's.
      leftovers: {
        block: `C${header}:${col(FINANCIALS_FETCH_YEARS - 1)}${lastRow}`,
        owned: (address, content) => {
          const ref = parseAddress(address);
          if (ref.row + 1 === header) return /^\d{4}\/\d{2}(期)?$/.test(content);
          const r = SUMMARY_ROWS[ref.row - header];
          if (!r) return false;
          if (content === "—") return r.kind === "item";
          return content === rowFormula(r, ref.col - 2, row, header);
        },
      },
      widths: { A: 230, B: 70, [d]: 80 },
      chart: {
        name: `${companySheetName(code)}_price`,
        title: sheetWord("chartTitle", lang, { code }),
        seriesName: w("chartSeries"),
        x: `${d}${first}:${d}${last}`,
        y: `${v}${first}:${v}${last}`,
        newestFirst: true,
        from: `A${chartTop}`,
        to: `H${chartTop + 18}`,
      },
    },
    rows: { header, rows: rowOf, valuationHeader, chartHeader },
  };
}
