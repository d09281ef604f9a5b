// The one percent scale: every percentage the add-in writes is a fraction (7.7% is 0.077), shown with a % format.

/**
 * Why one scale: the API sends percentages on two scales. Fields of unit `ratio` are fractions
 * (openapi.json FieldUnit: "`ratio` means 1.0 = 100%"; getFinancials payout_ratio / equity_ratio
 * "1.0 = 100%") while fields of unit `percent` are percent numbers (getDividends payout_ratio,
 * getFinancials roe "As reported (%)", getValuations dividend_yield_*, getSegments revenue_share,
 * getRankings change_percent "% vs previous close"). Excel's own convention is the fraction with a
 * `%` number format, so every cell, import and threshold the add-in handles uses it: a formula
 * that combines roe and equity_ratio, or the payout ratio of FINANCIALS and DIVIDENDS, is never
 * off by 100.
 *
 * The documented conversion (README "Percentages"): a `percent` value `v` is written as the
 * JavaScript double `v / 100`, exactly (no rounding); a `ratio` value is written as sent.
 */

/** Contract units that are percentages: `percent` (7.7 = 7.7%) and `ratio` (0.077 = 7.7%). */
export function isPercentage(unit: string | null | undefined): boolean {
  return unit === "percent" || unit === "ratio";
}

/**
 * An API number of contract unit `unit` on the sheet's scale: `percent` divided by 100, anything
 * else unchanged (money scaling is units.ts's, a separate step).
 *
 * @example toSheetScale(3.68, "percent") // 0.0368
 * @example toSheetScale(0.655, "ratio") // 0.655
 */
export function toSheetScale(value: number, unit: string | null | undefined): number {
  return value / sheetScaleDivisor(unit);
}

/**
 * What `toSheetScale` divides by: 100 for `percent`, else 1 (a number divided by 1 is itself).
 *
 * @example sheetScaleDivisor("percent") // 100
 */
export function sheetScaleDivisor(unit: string | null | undefined): number {
  return unit === "percent" ? 100 : 1;
}

/**
 * A threshold typed on the sheet's scale (0.03 = 3%) -> the same threshold in the API's unit
 * `unit` (3 for a `percent` field). The product is read to 15 significant digits so a typed 0.07
 * becomes 7, not 7.000000000000001 (what a double multiplication gives).
 *
 * @example fromSheetScale(0.07, "percent") // 7
 * @example fromSheetScale(0.4, "ratio") // 0.4
 */
export function fromSheetScale(value: number, unit: string | null | undefined): number {
  return unit === "percent" ? Number((value * 100).toPrecision(15)) : value;
}

/**
 * A percentage in percent points, for text that prints the number beside a "%" (the pane's
 * screening preview and its histogram): a `ratio` 0.077 and a `percent` 7.7 both give 7.7.
 * Cells never hold this: they hold the fraction (toSheetScale).
 *
 * @example percentPoints(0.4567, "ratio") // 45.67
 */
export function percentPoints(value: number, unit: string | null | undefined): number {
  return unit === "ratio" ? Number((value * 100).toPrecision(15)) : value;
}
