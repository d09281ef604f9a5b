// Text and calendar days as the add-in reads them (NFKC text, blank arguments, JST and local days), for every layer.

/** A calendar day without any time zone. */
export interface CalendarDay {
  year: number;
  month: number;
  day: number;
}

/** JST is UTC+9 all year (no daylight saving). */
const JST_OFFSET_MS = 9 * 3_600_000;

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
export function jstDay(instant: Date | number): CalendarDay {
  const ms = typeof instant === "number" ? instant : instant.getTime();
  const d = new Date(ms + JST_OFFSET_MS);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}

/** "YYYY-MM-DD". */
export function formatDay(day: CalendarDay): string {
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
