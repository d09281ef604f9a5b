// The layout of a company sheet: card, 10-year FINANCIAL summary, VALUATION history (issue 5 part 7).

import type { Lang } from "../i18n/language";
import type { CompanySheetPlan, SheetCell } from "../excel/company-sheet";
import { cellAddress, columnLetter } from "./a1";
import { quoteText } from "./formula-text";
import { numberFormatFor } from "./units";
import { englishLabel } from "./metric-labels";
import { translator } from "../i18n/messages";
import { fieldInfo } from "../../src/excel/labels";

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

/** Fields of the VALUATION spill on the sheet (spec 2.4 keys). */
export const VALUATION_FIELDS =
  "fiscal_year,stock_price_adjusted,per,pbr_adjusted,dividend_yield_adjusted,market_cap";

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
 * the relative-period header (0 latest, -1, -2...), so the model stays live and editable.
 */
export function companySheetLayout(code: string, years: number, lang: Lang): CompanyLayout {
  const t = translator(lang);
  const n = Math.max(1, Math.min(30, Math.trunc(years)));
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
  for (let i = 0; i < n; i++) {
    cells.push({
      address: cellAddress(8, 2 + i),
      value: i - (n - 1),
      numberFormat: t("sheetOffsets"),
      bold: true,
    });
  }
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
