// Text and calendar days as the add-in reads them (NFKC text, blank arguments, JST and local days), for every layer.

/** A calendar day without any time zone. */
interface CalendarDay {
  year: number;
  month: number;
  day: number;
}

/** JST is UTC+9 all year (no daylight saving). */
const JST_OFFSET_MS = 9 * 3_600_000;
/** Days from 1899-12-30 (Excel's serial day 0, counting the 1900 leap-year bug) to 1970-01-01. */
const EXCEL_EPOCH_OFFSET_DAYS = 25569;
const DAY_MS = 86_400_000;
/** Largest Excel serial: 9999-12-31. */
const MAX_SERIAL = 2_958_465;

/**
 * Text as typed in a cell: NFKC (full-width digits and letters become ASCII, as Japanese IMEs often
 * produce them) and trimmed. Numbers become their decimal text.
 */
export function normalizeText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === "boolean") return String(value);
  if (typeof value !== "string") return undefined;
  const text = value.normalize("NFKC").trim();
  return text === "" ? undefined : text;
}

/** True for undefined, null, "" and whitespace-only text: an omitted Excel argument. */
export function isBlank(value: unknown): boolean {
  return (
    value === undefined || value === null || (typeof value === "string" && value.trim() === "")
  );
}

/** True when year-month-day is a real calendar day (years 1-9999). */
export function isValidDay(year: number, month: number, day: number): boolean {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return false;
  if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  // Arithmetic, no table per call: isoToSerial (src/excel/dates.ts) checks every spilled date.
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** The JST calendar day of an instant (a JS Date is an instant; spec: dates are JST). */
function jstDay(instant: Date | number): CalendarDay {
  const ms = typeof instant === "number" ? instant : instant.getTime();
  const d = new Date(ms + JST_OFFSET_MS);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}

/** "YYYY-MM-DD". */
function formatDay(day: CalendarDay): string {
  return `${pad(day.year, 4)}-${pad(day.month)}-${pad(day.day)}`;
}

/** Today's date in Japan as "YYYY-MM-DD". */
export function todayJst(nowMs: number = Date.now()): string {
  return formatDay(jstDay(nowMs));
}

/**
 * Today where the user is (the runtime's time zone: the day Excel's TODAY() gives), "YYYY-MM-DD".
 * Up to a day ahead of `todayJst` east of Japan, behind it west.
 */
export function todayLocal(nowMs: number = Date.now()): string {
  // By the zone's offset at that instant (what Date's local getters use).
  const d = new Date(nowMs - new Date(nowMs).getTimezoneOffset() * 60_000);
  return formatDay({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() });
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
 * A date from a cell -> "YYYY-MM-DD" (JST calendar day), or undefined when it is none.
 *
 * Accepts an Excel serial (45382 -> "2024-03-31", in any time zone), a JS Date (its JST day),
 * "2024/3/1", "2024-03-01", "20240301", "2024年3月1日".
 */
export function dayOf(value: unknown): string | undefined {
  if (value instanceof Date)
    return Number.isNaN(value.getTime()) ? undefined : formatDay(jstDay(value));
  if (typeof value === "number") {
    // 8-digit numbers are yyyymmdd typed as a number, not serials (serials stop at 2958465).
    return isSerial(value) && !looksLikeYear(value) ? formatDay(serialToDay(value)) : undefined;
  }
  const text = normalizeText(value);
  if (text === undefined) return undefined;
  if (/^\d+(\.\d+)?$/.test(text) && !/^\d{8}$/.test(text)) {
    const n = Number(text);
    if (isSerial(n) && !looksLikeYear(n)) return formatDay(serialToDay(n));
  }
  const day = parseDateText(text);
  return day === undefined || !isValidDay(day.year, day.month, day.day)
    ? undefined
    : formatDay(day);
}
