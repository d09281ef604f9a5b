// The layout of a company sheet: card, 10-year FINANCIAL summary by fiscal year, VALUATION history.

import type { Lang } from "../i18n/language";
import type { CompanySheetPlan, SheetCell } from "../excel/company-sheet";
import { cellAddress, columnLetter } from "./a1";
import { quoteText } from "./formula-text";
import { numberFormatFor } from "./units";
import { englishLabel } from "./metric-labels";
import { translator } from "../i18n/messages";
import { fieldInfo } from "../../src/excel/labels";
import { FINANCIALS_FETCH_YEARS } from "../../src/client/financials";
import { arrayProp, type PaneClient, type PaneRequestOptions } from "./pane-client";

/** spec 2.5 keys of the summary rows; labels and units come from the contract's field dictionary. */
export const SUMMARY_KEYS: readonly string[] = [
  "sales",
  "operating_profit",
  "ordinary_income",
  "net_income",
  "total_assets",
  "net_assets",
  "operating_cf",
  "fcf",
  "eps",
  "bps",
  "dps",
  "roe",
  "equity_ratio",
  "number_of_employees",
];

function summaryItem(key: string, lang: Lang): { label: string; unit: string } {
  const info = fieldInfo("financials", key);
  return {
    label: lang === "ja" ? (info?.label ?? key) : englishLabel(key),
    unit: info?.unit ?? "",
  };
}

/**
 * Fields of the VALUATION spill on the sheet (spec 2.4 keys). VALUATION always puts fiscal_year in
 * its first column, and spec 3 says fiscal_year is not in `fields[]`: naming it is #VALUE!.
 */
export const VALUATION_FIELDS =
  "stock_price_adjusted,per,pbr_adjusted,dividend_yield_adjusted,market_cap";

/**
 * The latest `years` annual fiscal years of a company ("YYYY/MM", spec 2.5), oldest first: the
 * company sheet's column headers. The client always fetches the 30-year window (spec 4.8), the same
 * request every FINANCIAL cell of the sheet makes, so the cells then read it from the cache.
 * @example await companyFiscalYears(client, "7203", 10) // ["2015/03", ..., "2024/03"]
 */
export async function companyFiscalYears(
  client: Pick<PaneClient, "financials">,
  code: string,
  years: number,
  options: PaneRequestOptions = {},
): Promise<string[]> {
  const body = await client.financials(
    { security_code: code, period: "annual", years: FINANCIALS_FETCH_YEARS },
    options,
  );
  const found = new Set<string>();
  for (const p of arrayProp(body, "periods")) {
    // spec 2.5: annual rows carry no quarter; fiscal_year is YYYY/MM.
    if (p["quarter"] == null && typeof p["fiscal_year"] === "string") found.add(p["fiscal_year"]);
  }
  return [...found].sort().slice(-clampYears(years));
}

function clampYears(years: number): number {
  return Math.max(1, Math.min(FINANCIALS_FETCH_YEARS, Math.trunc(years) || 10));
}

/**
 * The header text of a fiscal year column, also what its FINANCIAL cells read as fiscal_period:
 * "2024/03期" (ja) or "2024/03" (en), both accepted by fiscalPeriodArg. Written as text ("@"), so
 * Excel never turns it into a date.
 */
export function fiscalYearHeader(fiscalYear: string, lang: Lang): string {
  return lang === "ja" ? `${fiscalYear}期` : fiscalYear;
}

export interface CompanyLayout {
  plan: CompanySheetPlan;
  /** where the price table goes (the caller imports prices there and charts them). */
  pricesAnchor: string;
}

/** Sheet names cannot hold []:*?/\ and are at most 31 characters. */
export function companySheetName(code: string): string {
  return `Kaisha_${code.replace(/[[\]:*?/\\]/g, "")}`.slice(0, 31);
}

/**
 * The cells of a company sheet. Summary cells are FINANCIAL formulas that refer to the code cell and
 * their column's fiscal-year header, so the model stays live and editable, and a column keeps its
 * year when a newer year is disclosed (an analyst's model must not shift under them).
 * @param fiscalYears "YYYY/MM" column years, oldest first (companyFiscalYears).
 */
export function companySheetLayout(
  code: string,
  fiscalYears: readonly string[],
  lang: Lang,
): CompanyLayout {
  const t = translator(lang);
  const n = fiscalYears.length;
  if (n === 0) throw new RangeError("companySheetLayout: no fiscal years");
  const cells: SheetCell[] = [
    { address: "A1", value: t("sheetTitle"), bold: true },
    { address: "A2", value: t("sheetCode"), bold: true },
    { address: "B2", value: code, numberFormat: "@" },
    { address: "A4", value: t("sheetCard"), bold: true },
    { address: "A5", formula: "=KAISHA.COMPANY($B$2)" },
    { address: "A8", value: t("sheetSummary"), bold: true },
    { address: "A9", value: t("sheetItem"), bold: true },
    { address: "B9", value: t("sheetKey"), bold: true },
  ];
  // Header row 9: oldest on the left, latest on the right.
  fiscalYears.forEach((year, i) => {
    cells.push({
      address: cellAddress(8, 2 + i),
      value: fiscalYearHeader(year, lang),
      numberFormat: "@",
      bold: true,
    });
  });
  SUMMARY_KEYS.forEach((key, r) => {
    const row = 9 + r;
    const item = summaryItem(key, lang);
    cells.push({ address: cellAddress(row, 0), value: item.label });
    cells.push({ address: cellAddress(row, 1), value: key, numberFormat: "@" });
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
  // REFERENCE: the source must be shown with the data; the summary is FINANCIAL cells without one.
  cells.push({
    address: cellAddress(9 + SUMMARY_KEYS.length, 0),
    formula: '=KAISHA.ATTRIBUTION("financials")',
  });
  const valuationRow = 9 + SUMMARY_KEYS.length + 2;
  cells.push({ address: cellAddress(valuationRow, 0), value: t("sheetValuation"), bold: true });
  cells.push({
    address: cellAddress(valuationRow + 1, 0),
    formula: `=KAISHA.VALUATION($B$2,"${VALUATION_FIELDS}",${n})`,
  });
  const pricesRow = valuationRow + 1 + n + 3;
  cells.push({ address: cellAddress(pricesRow, 0), value: t("sheetPrices"), bold: true });
  return {
    plan: { sheetName: companySheetName(code), cells, widths: { A: 170, B: 110 } },
    pricesAnchor: cellAddress(pricesRow + 1, 0),
  };
}
