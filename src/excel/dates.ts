// ISO dates <-> Excel date serials (days since 1899-12-30), on JST calendar days, with no time-zone drift.

import { isValidDay } from "../util/normalize";

const DAY_MS = 86_400_000;
/** Serial of 1970-01-01: days from 1899-12-30 (Excel's day 0 after its 1900 leap-year bug). */
const UNIX_EPOCH_SERIAL = 25_569;
/** JST is UTC+9 all year (no daylight saving); spec: dates are JST calendar days. */
const JST_OFFSET_MS = 9 * 3_600_000;

/**
 * "YYYY-MM-DD" -> Excel serial. UTC arithmetic on the calendar day, so the result is the same in
 * every time zone. Undefined for text that is not a valid date.
 *
 * @example isoToSerial("2024-03-31") // 45382
 */
export function isoToSerial(iso: string): number | undefined {
  // By character codes: a PRICES spill converts every row's date on every recalculation, and a
  // regular expression match and a Date per row were most of its garbage (bench).
  if (iso.length !== 10 || iso.charCodeAt(4) !== DASH || iso.charCodeAt(7) !== DASH)
    return undefined;
  const year = digits(iso, 0, 4);
  const month = digits(iso, 5, 2);
  const day = digits(iso, 8, 2);
  // Date.UTC reads years 0-99 as 1900-1999: those are no dates here (as before).
  if (year < 100 || !isValidDay(year, month, day)) return undefined;
  return Date.UTC(year, month - 1, day) / DAY_MS + UNIX_EPOCH_SERIAL;
}

const DASH = 45;
const ZERO = 48;

/** The decimal number in `text` from `start`, `count` digits long; -1 when one is no digit. */
function digits(text: string, start: number, count: number): number {
  let n = 0;
  for (let i = start; i < start + count; i += 1) {
    const d = text.charCodeAt(i) - ZERO;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/**
 * Excel serial -> "YYYY-MM-DD" (a time fraction is dropped).
 *
 * @example serialToIso(45382) // "2024-03-31"
 */
export function serialToIso(serial: number): string {
  const d = new Date((Math.floor(serial) - UNIX_EPOCH_SERIAL) * DAY_MS);
  return d.toISOString().slice(0, 10);
}

/**
 * An instant (ISO 8601 with zone, e.g. the API's UTC `disclosed_at`) -> Excel date-time serial of
 * the JST wall-clock time. Undefined for unparseable text.
 *
 * @example isoInstantToJstSerial("2024-05-10T06:00:00Z") // 45422.625 (2024-05-10 15:00 JST)
 */
export function isoInstantToJstSerial(iso: string): number | undefined {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return undefined;
  return (ms + JST_OFFSET_MS) / DAY_MS + UNIX_EPOCH_SERIAL;
}

/** The JST calendar day of an instant as "YYYY-MM-DD". */
export function jstIsoDate(nowMs: number = Date.now()): string {
  return new Date(nowMs + JST_OFFSET_MS).toISOString().slice(0, 10);
}

/** "YYYY-MM-DD" one calendar year earlier (Feb 29 -> Feb 28). */
export function minusOneYear(iso: string): string {
  const year = Number(iso.slice(0, 4)) - 1;
  const rest = iso.slice(4);
  const candidate = `${year}${rest}`;
  return isoToSerial(candidate) === undefined ? `${year}-02-28` : candidate;
}

/**
 * True when the date `iso` is after JST `today` and is not the user's own today. East of Japan
 * after local midnight (Auckland 01:30 is 21:30 JST the day before) Excel's TODAY() is a day
 * ahead of JST for hours: that day asks for the latest day, not the future. Never more than one
 * day ahead (no time zone is a whole day east of JST).
 *
 * @example isFutureDate("2026-11-28", "2026-11-27", "2026-11-28") // false (Auckland, 01:30)
 * @example isFutureDate("2026-11-28", "2026-11-27", "2026-11-27") // true (Tokyo)
 */
export function isFutureDate(iso: string, today: string, userToday: string): boolean {
  if (iso <= today) return false;
  const nextDay = serialToIso((isoToSerial(today) ?? 0) + 1);
  return !(iso <= userToday && iso <= nextDay);
}

/**
 * A date argument as the query names it: the user's today east of Japan (a day ahead of JST,
 * allowed by isFutureDate) is JST `today`, so no request names a day the API has not reached
 * (openapi.json getScreening as_of: not in the future).
 *
 * @example upToToday("2026-11-28", "2026-11-27") // "2026-11-27"
 */
export function upToToday<T extends string | undefined>(iso: T, today: string): T | string {
  return iso !== undefined && iso > today ? today : iso;
}
