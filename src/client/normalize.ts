// Excel inputs -> API parameter values: codes and JST calendar dates (a refusal is a ValidationError).

import { ValidationError } from "./errors";
import {
  formatDay,
  isBlank,
  isValidDay,
  jstDay,
  normalizeText,
  type CalendarDay,
} from "../util/normalize";

/** Days from 1899-12-30 (Excel's serial day 0, counting the 1900 leap-year bug) to 1970-01-01. */
const EXCEL_EPOCH_OFFSET_DAYS = 25569;
const DAY_MS = 86_400_000;
/** Largest Excel serial: 9999-12-31. */
const MAX_SERIAL = 2_958_465;

/** openapi.json info.description: identifier formats. */
const SECURITY_CODE_PATTERN = /^[0-9A-Z]{4,5}$/;
const EDINET_CODE_PATTERN = /^[EG]\d{5}$/;

function fail(
  param: string,
  expected: string,
  reason: "invalid_format" | "invalid_type" = "invalid_format",
  value?: unknown,
): never {
  throw new ValidationError([{ param, reason, expected }], { values: { [param]: value } });
}

/**
 * A code as the API wants it: 7203 -> "7203", " 130a " -> "130A", "Ｅ０２１４４" -> "E02144".
 * @internal The sandbox reads codes as the client does; tests check it directly.
 */
export function normalizeCode(value: unknown, param = "code"): string {
  if (typeof value === "number" && !Number.isInteger(value))
    fail(param, "a 4-5 character code such as 7203", "invalid_format", value);
  const text = normalizeText(value);
  if (text === undefined) {
    if (isBlank(value)) throw new ValidationError([{ param, reason: "missing" }]);
    fail(param, "a 4-5 character code such as 7203", "invalid_type", value);
  }
  return text.toUpperCase();
}

/** A company given either way. */
export type CompanyRef = { security_code: string } | { edinet_code: string };

/**
 * A company from a cell: EDINET code ("E02144") or security code (7203, "7203", "130A").
 *
 * @example normalizeCompany(7203) // { security_code: "7203" }
 */
export function normalizeCompany(value: unknown, param = "company"): CompanyRef {
  const code = normalizeCode(value, param);
  if (EDINET_CODE_PATTERN.test(code)) return { edinet_code: code };
  if (SECURITY_CODE_PATTERN.test(code)) return { security_code: code };
  return fail(
    param,
    "a security code such as 7203 or an EDINET code such as E02144",
    "invalid_format",
    value,
  );
}

/** Excel serial (days since 1899-12-30; a time fraction is ignored) -> calendar day, in UTC arithmetic. */
function serialToDay(serial: number): CalendarDay {
  const d = new Date((Math.floor(serial) - EXCEL_EPOCH_OFFSET_DAYS) * DAY_MS);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

const DATE_TEXT = [
  /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/,
  /^(\d{4})(\d{2})(\d{2})$/,
  /^(\d{4})年(\d{1,2})月(\d{1,2})日$/,
];

function parseDateText(text: string): CalendarDay | undefined {
  // Accept an ISO timestamp's date part ("2024-03-01T00:00:00Z") as the day written.
  const plain = /^(\d{4}-\d{2}-\d{2})T[\d:.]+(Z|[+-]\d{2}:?\d{2})?$/.exec(text)?.[1] ?? text;
  for (const re of DATE_TEXT) {
    const m = re.exec(plain);
    if (m) return { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  }
  return undefined;
}

function isSerial(value: number): boolean {
  return Number.isFinite(value) && value >= 1 && value <= MAX_SERIAL;
}

/** 1000..9999 typed where a date is expected is a year, not a serial (serial 2024 is 1905-07-16). */
function looksLikeYear(value: number): boolean {
  return Number.isInteger(value) && value >= 1000 && value <= 9999;
}

/**
 * A date from a cell -> "YYYY-MM-DD" (JST calendar day).
 *
 * Accepts an Excel serial (45382 -> "2024-03-31", in any time zone), a JS Date (its JST day),
 * "2024/3/1", "2024-03-01", "20240301", "2024年3月1日".
 */
export function normalizeDate(value: unknown, param = "date"): string {
  const expected = "a date such as 2024-03-31";
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) fail(param, expected, "invalid_format", value);
    return formatDay(jstDay(value));
  }
  if (typeof value === "number") {
    if (!isSerial(value) || looksLikeYear(value)) fail(param, expected, "invalid_format", value);
    // 8-digit numbers are yyyymmdd typed as a number, not serials (serials stop at 2958465).
    return formatDay(serialToDay(value));
  }
  const text = normalizeText(value);
  if (text === undefined) {
    if (isBlank(value)) throw new ValidationError([{ param, reason: "missing" }]);
    fail(param, expected, "invalid_type", value);
  }
  if (/^\d+(\.\d+)?$/.test(text) && !/^\d{8}$/.test(text)) {
    const n = Number(text);
    if (isSerial(n) && !looksLikeYear(n)) return formatDay(serialToDay(n));
  }
  const day = parseDateText(text);
  if (day === undefined || !isValidDay(day.year, day.month, day.day))
    fail(param, expected, "invalid_format", value);
  return formatDay(day);
}
