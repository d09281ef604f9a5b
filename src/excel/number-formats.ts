// Number formats by contract unit (x-unit): money with separators, percentages as %, natural decimals; float-noise rounding.

import type { MoneyUnit } from "./args";
import { isPercentage, sheetScaleDivisor, toSheetScale } from "./percent-scale";
import { moneyDivisor, scaleValue } from "./units";
import { EMPTY, formattedNumber, plainCell, type Cell, type HostCapabilities } from "./values";

/**
 * Most decimals a format shows (the value keeps all of its own): reported per-share figures have at
 * most two (sen), and a computed multiple or split-adjusted EPS (41.1533333) reads as 41.15.
 */
const MAX_DECIMALS = 2;

/**
 * Decimals a number really has (float noise ignored): 62.5 -> 1, 0.4523 -> 4, 1500 -> 0,
 * 0.1 + 0.2 -> 1. Read from 12 significant digits, beyond which a double only carries noise from
 * arithmetic, never a digit the API sent.
 */
export function decimalsOf(value: number): number {
  if (!Number.isFinite(value) || Number.isInteger(value)) return 0;
  // Without text first (an LTM or H2 cell reads every figure of its item once per answer: the
  // strings were a tenth of a reopened model's garbage): the fewest decimals d whose integer k gives
  // the value back as k / 10^d is what the text below reads, when k has at most 12 digits (then the
  // 12-significant-digit text is that decimal, and the shortest text of the value has d decimals).
  // Anything else (float noise, 13+ digits, tiny numbers) is read from the text as before.
  let scale = 1;
  for (let d = 1; d <= 12; d += 1) {
    scale *= 10;
    const k = Math.round(value * scale);
    if (Math.abs(k) >= 1e12) break;
    if (k / scale === value) return d;
  }
  const text = Number(value.toPrecision(12)).toString();
  const exp = /e-(\d+)$/.exec(text);
  if (exp) {
    const mantissa = text.slice(0, text.indexOf("e"));
    const frac = mantissa.split(".")[1]?.length ?? 0;
    return frac + Number(exp[1]);
  }
  return text.split(".")[1]?.length ?? 0;
}

/** Most decimals sourceDecimals gives: beyond 12 significant digits a double carries only noise. */
const MAX_SOURCE_DECIMALS = 12;

/**
 * Decimals of the most precise of `sources` (at most 12), the precision a value computed from them
 * is rounded to: a sum of yen integers is an integer, a sum of two-decimal EPS figures has two
 * decimals (no 1234.5600000000002). See roundToDecimals. `read` picks each source's figure (an
 * item of each period row: no array of the figures is built).
 */
export function sourceDecimals<T>(
  sources: readonly T[],
  read: (source: T) => unknown = (source) => source,
): number {
  let d = 0;
  // By index, as keepTable (packed-table.ts): run once per answer and item, seldom optimised, and
  // an unoptimised for…of makes an iterator result per row.
  for (let i = 0; i < sources.length; i += 1) {
    const v = read(sources[i] as T);
    if (typeof v === "number") d = Math.max(d, decimalsOf(v));
    if (d >= MAX_SOURCE_DECIMALS) return MAX_SOURCE_DECIMALS;
  }
  return d;
}

/** `value` rounded to `decimals` places (no -0), for a precision read once with sourceDecimals. */
export function roundToDecimals(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  const rounded = Math.round(value * factor) / factor;
  return Object.is(rounded, -0) ? 0 : rounded;
}

function fixed(decimals: number): string {
  const d = Math.min(MAX_DECIMALS, Math.max(0, decimals));
  return d === 0 ? "#,##0" : `#,##0.${"0".repeat(d)}`;
}

/**
 * The money units a number format can show from yen: each comma after the last digit divides the
 * shown value by 1,000 (Microsoft Support, "Review guidelines for customizing a number format":
 * `#,##0,,` shows 12,200,000 as 12). 億円 (10^8) is no power of 1,000, so no format shows it.
 */
export type FormatMoneyUnit = Exclude<MoneyUnit, "hundred_million_jpy">;

const MONEY_FORMATS: Readonly<Record<FormatMoneyUnit, string>> = {
  jpy: "#,##0",
  thousand_jpy: "#,##0,",
  million_jpy: "#,##0,,",
};

/**
 * The format of a cell that keeps exact yen and shows them in `unit`, so the cell times a
 * FINANCIAL cell (yen too) is yen (the company sheet's 百万円 rows hold yen the same way).
 *
 * @example moneyFormat("million_jpy") // "#,##0,,"  (29,955,310,100,000 shows 29,955,310)
 */
export function moneyFormat(unit: FormatMoneyUnit): string {
  return MONEY_FORMATS[unit];
}

/** Whether a money unit can be shown by a number format over yen (moneyFormat). */
export function isFormatMoneyUnit(unit: MoneyUnit): unit is FormatMoneyUnit {
  return Object.hasOwn(MONEY_FORMATS, unit);
}

/**
 * The display format of a value of contract unit `unit` as the sheet holds it (money already
 * scaled to `money`, a percentage already a fraction: sheetValue), or undefined for units shown as
 * plain numbers:
 * - `jpy`: thousands separators in the chosen unit (`#,##0`; one decimal in 億円, whose values are
 *   small enough that a whole number would hide real differences); unscaled yen (prices) with
 *   their own decimals;
 * - `ratio` and `percent` (both fractions on the sheet, percent-scale.ts): Excel's percent format,
 *   `0.4523` -> `45.23%`, `0.0368` (a 3.68 `percent`) -> `3.68%`;
 * - `jpy_per_share`, `times`, `points`: separators and the value's natural decimals, at most two
 *   (`62.5`, `120`, `41.15` for 41.1533…);
 * - counts (`shares`, `people`, `count`, `t_co2e`): separators; `years`, `days`, `months` as they are.
 *
 * @example numberFormatFor("ratio", 0.4523, "jpy") // "0.00%"
 */
export function numberFormatFor(
  unit: string | null | undefined,
  value: number,
  money: MoneyUnit = "jpy",
): string | undefined {
  // Scaled money needs no decimals read (a string and a regex per cell otherwise).
  if (unit === "jpy" && money !== "jpy")
    return money === "hundred_million_jpy" ? "#,##0.0" : "#,##0";
  const natural = decimalsOf(value);
  if (isPercentage(unit)) {
    // Excel's % multiplies by 100 (Microsoft, Number format codes), so the fraction stays the
    // value and the format shows the percentage's own decimals, at most two: 0.0368 -> 3.68%.
    const d = Math.min(MAX_DECIMALS, Math.max(0, natural - 2));
    return d === 0 ? "0%" : `0.${"0".repeat(d)}%`;
  }
  switch (unit) {
    case "jpy":
      // Yen as sent keep their own decimals (a price of 2,845.5); scaled money is a whole number
      // of the unit asked for, 億円 with one decimal.
      if (money === "jpy") return fixed(natural);
      return money === "hundred_million_jpy" ? "#,##0.0" : "#,##0";
    case "jpy_per_share":
    case "times":
    case "points":
      return fixed(natural);
    case "shares":
    case "people":
    case "count":
    case "t_co2e":
      return fixed(natural);
    default:
      return undefined;
  }
}

/**
 * An API value as the sheet holds it: money scaled by the unit asked for (units.ts), a `percent`
 * as a fraction (percent-scale.ts: v / 100); anything else as sent.
 *
 * @example sheetValue(3.68, "percent", "jpy") // 0.0368
 */
export function sheetValue<T>(value: T, unit: string | null | undefined, money: MoneyUnit) {
  const scaled = scaleValue(value, unit, money);
  return typeof scaled === "number" ? toSheetScale(scaled, unit) : scaled;
}

/**
 * An API number as a cell: on the sheet's scale (sheetValue: money in the unit asked for,
 * percentages as fractions), shown with its unit's format where the host has formatted numbers
 * (CustomFunctionsRuntime 1.4), else the plain number. The value itself is never rounded: only
 * its display is formatted.
 *
 * @example unitCell(1_500_000_000, "jpy", "million_jpy", { dataTypes: true })
 * // { type: "Double", basicValue: 1500, numberFormat: "#,##0" }
 * @example unitCell(3.68, "percent", "jpy", { dataTypes: true })
 * // { type: "Double", basicValue: 0.0368, numberFormat: "0.00%" }
 */
export function unitCell(
  value: unknown,
  unit: string | null | undefined,
  money: MoneyUnit,
  host: HostCapabilities,
): Cell {
  return dividedCell(value, sheetDivisor(unit, money), unit, money, host);
}

/**
 * What `sheetValue` divides a number of contract unit `unit` by: the money unit's divisor for a
 * `jpy` amount, 100 for a `percent`, else 1 (never two of them: a field has one unit), so
 * `value / sheetDivisor(unit, money)` is `sheetValue(value, unit, money)` exactly.
 *
 * @example sheetDivisor("jpy", "million_jpy") // 1000000
 */
export function sheetDivisor(unit: string | null | undefined, money: MoneyUnit): number {
  return moneyDivisor(unit, money) * sheetScaleDivisor(unit);
}

/**
 * `unitCell` with its divisor found before (`sheetDivisor`, once per item and unit: a cell's
 * arguments carry it), so a warm cell shapes its number in this module alone.
 *
 * @example dividedCell(1_500_000_000, 1_000_000, "jpy", "million_jpy", { dataTypes: false }) // 1500
 */
export function dividedCell(
  value: unknown,
  divisor: number,
  unit: string | null | undefined,
  money: MoneyUnit,
  host: HostCapabilities,
): Cell {
  if (typeof value !== "number") return plainCell(value);
  const scaled = value / divisor;
  if (!Number.isFinite(scaled)) return EMPTY;
  // No formatted numbers on this host: the number itself, as formattedNumber would give (the
  // format's text is not built for every cell of a warm recalculation only to be dropped).
  if (!host.dataTypes) return scaled;
  const format = numberFormatFor(unit, scaled, money);
  return format === undefined ? scaled : formattedNumber(scaled, format, host);
}
