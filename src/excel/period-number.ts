// The one rule for what a number typed as a period or date means: year, YYYYMM, date serial or YYYYMMDD.

import { isoToSerial, serialToIso } from "./dates";

/**
 * Number ranges, one meaning each (documented in assets/help.html "Periods and dates"). Nothing
 * is guessed: a number outside these ranges (e.g. 2500, 300000, 1.5) is refused with the forms.
 *
 * | range                         | meaning                                   |
 * |-------------------------------|-------------------------------------------|
 * | 1900 – 2100                   | a year (fiscal year ending in that year)  |
 * | 18264 – 73415                 | an Excel date serial (1950-01-01 – 2100-12-31) |
 * | 190001 – 210012, month 01–12  | YYYYMM (the period ending that month)     |
 * | 19000101 – 21001231, a real day | YYYYMMDD, a date                        |
 *
 * Serials 1900–2100 would be days of 1905, which no data reaches: they are years. A formatted
 * number whose format shows a date (a date cell KAISHA returned) is always a serial.
 */
const FIRST_YEAR = 1900;
const LAST_YEAR = 2100;
/** 1950-01-01: older serials are refused (no listed-company data is that old). */
const FIRST_SERIAL = 18_264;
/** 2100-12-31. */
const LAST_SERIAL = 73_415;

/** What a positive number means under the rule above. */
export type PeriodNumber =
  | { kind: "year"; year: number }
  | { kind: "month"; year: number; month: number }
  | { kind: "date"; iso: string };

/**
 * Classifies a number by the range table; undefined when no range holds it.
 *
 * @example periodNumber(2024)     // { kind: "year", year: 2024 }
 * @example periodNumber(202403)   // { kind: "month", year: 2024, month: 3 }
 * @example periodNumber(45366)    // { kind: "date", iso: "2024-03-15" }
 * @example periodNumber(20240315) // { kind: "date", iso: "2024-03-15" }
 */
export function periodNumber(n: number, isDate = false): PeriodNumber | undefined {
  if (!Number.isFinite(n)) return undefined;
  if (isDate || !Number.isInteger(n)) {
    // A time of day on a serial is dropped; a fraction elsewhere means nothing.
    if (n >= FIRST_SERIAL && n < LAST_SERIAL + 1) return { kind: "date", iso: serialToIso(n) };
    return undefined;
  }
  if (n >= FIRST_YEAR && n <= LAST_YEAR) return { kind: "year", year: n };
  if (n >= FIRST_SERIAL && n <= LAST_SERIAL) return { kind: "date", iso: serialToIso(n) };
  if (n >= 190_001 && n <= 210_012) {
    const month = n % 100;
    if (month >= 1 && month <= 12) return { kind: "month", year: Math.floor(n / 100), month };
    return undefined;
  }
  if (n >= 19_000_101 && n <= 21_001_231) {
    const text = String(n);
    const iso = `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}`;
    return isoToSerial(iso) === undefined ? undefined : { kind: "date", iso };
  }
  return undefined;
}

/**
 * The latest month whose period has surely ended on or before `iso`: a fiscal period is known by
 * its month (openapi.json getFinancials: YYYY/MM, as_of "end of the as_of month"), so a period
 * counts as ending on the last day of its month. 2024-03-31 -> "2024/03"; 2024-03-15 -> "2024/02".
 */
export function lastEndedMonth(iso: string): string {
  const year = Number(iso.slice(0, 4));
  const month = Number(iso.slice(5, 7));
  const serial = isoToSerial(iso) ?? 0;
  const monthEnd = serialToIso(serial + 1).slice(8, 10) === "01";
  if (monthEnd) return `${year}/${String(month).padStart(2, "0")}`;
  const before = month === 1 ? { y: year - 1, m: 12 } : { y: year, m: month - 1 };
  return `${before.y}/${String(before.m).padStart(2, "0")}`;
}
