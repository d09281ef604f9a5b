// ISO dates <-> Excel date serials (days since 1899-12-30), on JST calendar days, with no time-zone drift.

const DAY_MS = 86_400_000;
/** Serial of 1970-01-01: days from 1899-12-30 (Excel's day 0 after its 1900 leap-year bug). */
const UNIX_EPOCH_SERIAL = 25_569;
/** JST is UTC+9 all year (no daylight saving); spec: dates are JST calendar days. */
const JST_OFFSET_MS = 9 * 3_600_000;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * "YYYY-MM-DD" -> Excel serial. UTC arithmetic on the calendar day, so the result is the same in
 * every time zone. Undefined for text that is not a valid date.
 *
 * @example isoToSerial("2024-03-31") // 45382
 */
export function isoToSerial(iso: string): number | undefined {
  const m = ISO_DATE.exec(iso);
  if (!m) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const ms = Date.UTC(year, month - 1, day);
  const check = new Date(ms);
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day
  ) {
    return undefined;
  }
  return ms / DAY_MS + UNIX_EPOCH_SERIAL;
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
 * An instant (ISO 8601 with zone, e.g. the spec's UTC `disclosed_at`) -> Excel date-time serial of
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

/** "YYYY-MM-DD" shifted by whole days (UTC arithmetic, no drift). */
export function addDays(iso: string, days: number): string {
  const serial = isoToSerial(iso);
  if (serial === undefined) throw new RangeError(`not a date: ${iso}`);
  return serialToIso(serial + days);
}

/** "YYYY-MM-DD" one calendar year earlier (Feb 29 -> Feb 28). */
export function minusOneYear(iso: string): string {
  const year = Number(iso.slice(0, 4)) - 1;
  const rest = iso.slice(4);
  const candidate = `${year}${rest}`;
  return isoToSerial(candidate) === undefined ? `${year}-02-28` : candidate;
}
