// Fiscal period arithmetic on "YYYY/MM" labels (openapi.json ValuationHistoryPoint,
// FinancialsPeriod: fiscal_year is YYYY/MM).
import { addMonths } from "./data-clock";

/** The last day (YYYY-MM-DD) of a "YYYY/MM" month. */
export function monthEnd(yearMonth: string): string {
  const [year, month] = yearMonth.split("/").map(Number) as [number, number];
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(last).padStart(2, "0")}`;
}

/**
 * Months from the end of a quarter row's period to its fiscal year end (openapi.json
 * FinancialsPeriod `quarter`).
 */
const MONTHS_BEFORE_YEAR_END: Record<string, number> = {
  Q1: 9,
  Q2: 6,
  H1: 6,
  Q3: 3,
  Q4: 0,
  full_year: 0,
};

/** The end date (YYYY-MM-DD) of the period a financial row covers. */
export function periodEnd(fiscalYear: string, quarter?: string): string {
  const back = quarter === undefined ? 0 : (MONTHS_BEFORE_YEAR_END[quarter] ?? 0);
  return monthEnd(
    addMonths(`${fiscalYear.replace("/", "-")}-01`, -back)
      .slice(0, 7)
      .replace("-", "/"),
  );
}
