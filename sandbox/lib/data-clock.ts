// The data clock: "now" for the dataset (as_of bounds, the 24-hour rule), separate from real time.

const HOUR_MS = 3_600_000;
const JST_OFFSET_MS = 9 * HOUR_MS;

/**
 * openapi.json info.description: timely-system items become available 24 hours after disclosure.
 */
const TIMELY_DELAY_MS = 24 * HOUR_MS;

/** The JST calendar date (YYYY-MM-DD) of an instant. */
export function jstDate(iso: string): string {
  return new Date(Date.parse(iso) + JST_OFFSET_MS).toISOString().slice(0, 10);
}

/** True when a timely-system item disclosed at `disclosedAt` is 24 hours or more old at `now`. */
export function isPastTimelyDelay(disclosedAt: string, now: string): boolean {
  return Date.parse(now) - Date.parse(disclosedAt) >= TIMELY_DELAY_MS;
}

/** Validates an ISO 8601 instant for setNow / options.now; throws a plain Error when invalid. */
export function checkInstant(iso: string): string {
  if (Number.isNaN(Date.parse(iso))) throw new Error(`Invalid data clock instant '${iso}'.`);
  return new Date(Date.parse(iso)).toISOString();
}

/** Adds calendar months to a YYYY-MM-DD date, clamping the day to the target month's length. */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(Math.min(d, last)).padStart(2, "0")}`;
}
