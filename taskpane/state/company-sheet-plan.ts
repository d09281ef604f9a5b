// The layout of a company sheet: card, 10-year FINANCIAL summary, VALUATION history (issue 5 part 7).

import type { Lang } from "../i18n/language";
import type { CompanySheetPlan, SheetCell } from "../excel/company-sheet";
import { cellAddress, columnLetter } from "./a1";
import { quoteText } from "./formula-text";
import { numberFormatFor } from "./units";

interface SummaryItem {
  key: string;
  unit: string;
  ja: string;
  en: string;
}

/** spec 2.5 keys and units of the summary rows. */
export const SUMMARY_ITEMS: readonly SummaryItem[] = [
  { key: "sales", unit: "jpy", ja: "売上高", en: "Sales" },
  { key: "operating_profit", unit: "jpy", ja: "営業利益", en: "Operating profit" },
  { key: "ordinary_income", unit: "jpy", ja: "経常利益", en: "Ordinary income" },
  { key: "net_income", unit: "jpy", ja: "親会社株主に帰属する当期純利益", en: "Net income" },
  { key: "total_assets", unit: "jpy", ja: "総資産", en: "Total assets" },
  { key: "net_assets", unit: "jpy", ja: "純資産", en: "Net assets" },
  { key: "operating_cf", unit: "jpy", ja: "営業キャッシュフロー", en: "Operating cash flow" },
  { key: "fcf", unit: "jpy", ja: "フリーキャッシュフロー", en: "Free cash flow" },
  { key: "eps", unit: "jpy_per_share", ja: "EPS（円）", en: "EPS (JPY)" },
  { key: "bps", unit: "jpy_per_share", ja: "BPS（円）", en: "BPS (JPY)" },
  { key: "dps", unit: "jpy_per_share", ja: "1株当たり配当（円）", en: "DPS (JPY)" },
  { key: "roe", unit: "percent", ja: "ROE", en: "ROE" },
  { key: "equity_ratio", unit: "ratio", ja: "自己資本比率", en: "Equity ratio" },
  { key: "number_of_employees", unit: "people", ja: "従業員数（人）", en: "Employees" },
];

/** Fields of the VALUATION spill on the sheet (spec 2.4 keys). */
export const VALUATION_FIELDS =
  "fiscal_year,stock_price_adjusted,per,pbr_adjusted,dividend_yield_adjusted,market_cap";

export interface CompanyLayout {
  plan: CompanySheetPlan;
  /** where the price table goes (the caller imports prices there and charts them). */
  pricesAnchor: string;
}

const TEXT = {
  ja: {
    title: "企業シート",
    code: "コード",
    card: "企業概要",
    summary: "業績サマリー（金額: 百万円）",
    item: "項目",
    key: "キー",
    valuation: "バリュエーション推移",
    prices: "株価（過去1年）",
    offsets: '0;0"期前";"最新期"',
  },
  en: {
    title: "Company sheet",
    code: "Code",
    card: "Profile",
    summary: "Summary (amounts in JPY mn)",
    item: "Item",
    key: "Key",
    valuation: "Valuation history",
    prices: "Prices (past year)",
    offsets: '0;0" yr ago";"Latest"',
  },
} as const;

/** Sheet names cannot hold []:*?/\ and are at most 31 characters. */
export function companySheetName(code: string): string {
  return `Kaisha_${code.replace(/[[\]:*?/\\]/g, "")}`.slice(0, 31);
}

/**
 * The cells of a company sheet. Summary cells are FINANCIAL formulas that refer to the code cell and
 * the relative-period header (0 latest, -1, -2...), so the model stays live and editable.
 */
export function companySheetLayout(code: string, years: number, lang: Lang): CompanyLayout {
  const t = TEXT[lang];
  const n = Math.max(1, Math.min(30, Math.trunc(years)));
  const cells: SheetCell[] = [
    { address: "A1", value: t.title, bold: true },
    { address: "A2", value: t.code, bold: true },
    { address: "B2", value: code, numberFormat: "@" },
    { address: "A4", value: t.card, bold: true },
    { address: "A5", formula: "=KAISHA.COMPANY($B$2)" },
    { address: "A8", value: t.summary, bold: true },
    { address: "A9", value: t.item, bold: true },
    { address: "B9", value: t.key, bold: true },
  ];
  // Header row 9: oldest on the left, latest on the right.
  for (let i = 0; i < n; i++) {
    cells.push({
      address: cellAddress(8, 2 + i),
      value: i - (n - 1),
      numberFormat: t.offsets,
      bold: true,
    });
  }
  SUMMARY_ITEMS.forEach((item, r) => {
    const row = 9 + r;
    cells.push({ address: cellAddress(row, 0), value: item[lang] });
    cells.push({ address: cellAddress(row, 1), value: item.key, numberFormat: "@" });
    const unit = item.unit === "jpy" ? "million_jpy" : undefined;
    const format = numberFormatFor("number", unit ?? item.unit);
    for (let i = 0; i < n; i++) {
      const col = columnLetter(2 + i);
      // FINANCIAL(company, item, fiscal_period, period, quarter, unit): cell references, not text.
      const tail = unit ? `,"annual",,${quoteText(unit)}` : `,"annual"`;
      const formula = `=KAISHA.FINANCIAL($B$2,$B${row + 1},${col}$9${tail})`;
      cells.push({ address: `${col}${row + 1}`, formula, numberFormat: format });
    }
  });
  const valuationRow = 9 + SUMMARY_ITEMS.length + 2;
  cells.push({ address: cellAddress(valuationRow, 0), value: t.valuation, bold: true });
  cells.push({
    address: cellAddress(valuationRow + 1, 0),
    formula: `=KAISHA.VALUATION($B$2,"${VALUATION_FIELDS}",${n})`,
  });
  const pricesRow = valuationRow + 1 + n + 3;
  cells.push({ address: cellAddress(pricesRow, 0), value: t.prices, bold: true });
  return {
    plan: { sheetName: companySheetName(code), cells, widths: { A: 170, B: 110 } },
    pricesAnchor: cellAddress(pricesRow + 1, 0),
  };
}
