// Dates for the sample dataset: day arithmetic on YYYY-MM-DD strings and an approximate JPX trading calendar.

// Module-local alias: global lookups are slow inside vm contexts (jest builds the dataset there).
const math = Math;

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a YYYY-MM-DD date. */
const dayNumberCache = new Map<string, number>();

export function toDayNumber(date: string): number {
  let n = dayNumberCache.get(date);
  if (n === undefined) {
    n = math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
    dayNumberCache.set(date, n);
  }
  return n;
}

function fromDayNumber(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return fromDayNumber(toDayNumber(date) + days);
}

/** 0 = Sunday .. 6 = Saturday. */
export function weekday(date: string): number {
  return (toDayNumber(date) + 4) % 7;
}

/** Last calendar day of a month (month 1..12). */
export function monthEnd(year: number, month: number): string {
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${pad2(month)}-${pad2(last)}`;
}

export function pad2(n: number): string {
  return String(n).padStart(2, "0");
}

/** "YYYY/MM" label of a fiscal year ending in that month. */
export function fiscalLabel(year: number, month: number): string {
  return `${year}/${pad2(month)}`;
}

/** Add whole months to (year, month), returning [year, month]. */
export function addMonths(year: number, month: number, delta: number): [number, number] {
  const idx = year * 12 + (month - 1) + delta;
  return [math.floor(idx / 12), (idx % 12) + 1];
}

/** Whole years from `from` to `to` (YYYY-MM-DD), never negative. */
export function wholeYears(from: string, to: string): number {
  const [fy, fm, fd] = from.split("-").map(Number) as [number, number, number];
  const [ty, tm, td] = to.split("-").map(Number) as [number, number, number];
  let years = ty - fy;
  if (tm < fm || (tm === fm && td < fd)) years -= 1;
  return math.max(0, years);
}

function nthWeekday(year: number, month: number, nth: number, wd: number): string {
  const first = `${year}-${pad2(month)}-01`;
  const offset = (wd - weekday(first) + 7) % 7;
  return addDays(first, offset + (nth - 1) * 7);
}

// Equinox days by the usual approximation formula (valid 1980-2099).
function vernalEquinox(year: number): number {
  return math.floor(20.8431 + 0.242194 * (year - 1980) - math.floor((year - 1980) / 4));
}
function autumnalEquinox(year: number): number {
  return math.floor(23.2488 + 0.242194 * (year - 1980) - math.floor((year - 1980) / 4));
}

const holidayCache = new Map<number, Set<string>>();

/** Japanese national holidays of a year, approximately (no one-off moves), with substitute days. */
function japaneseHolidays(year: number): Set<string> {
  const cached = holidayCache.get(year);
  if (cached) return cached;
  const d = (m: number, day: number): string => `${year}-${pad2(m)}-${pad2(day)}`;
  const days = [
    d(1, 1),
    nthWeekday(year, 1, 2, 1),
    d(2, 11),
    d(3, vernalEquinox(year)),
    d(4, 29),
    d(5, 3),
    d(5, 4),
    d(5, 5),
    nthWeekday(year, 7, 3, 1),
    nthWeekday(year, 9, 3, 1),
    d(9, autumnalEquinox(year)),
    nthWeekday(year, 10, 2, 1),
    d(11, 3),
    d(11, 23),
  ];
  if (year >= 2016) days.push(d(8, 11));
  if (year >= 2020) days.push(d(2, 23));
  if (year <= 2018) days.push(d(12, 23));
  const set = new Set(days);
  // Substitute holiday: a holiday on Sunday moves to the next non-holiday day.
  for (const h of [...set].sort()) {
    if (weekday(h) === 0) {
      let next = addDays(h, 1);
      while (set.has(next)) next = addDays(next, 1);
      set.add(next);
    }
  }
  // A weekday sandwiched between two holidays is a holiday (e.g. some September years).
  for (const h of [...set]) {
    const mid = addDays(h, 1);
    if (!set.has(mid) && set.has(addDays(h, 2)) && weekday(mid) !== 0 && weekday(mid) !== 6) {
      set.add(mid);
    }
  }
  holidayCache.set(year, set);
  return set;
}

/** Exchange business day: weekday, not a national holiday, not 12/31-1/3. */
export function isTradingDay(date: string): boolean {
  const wd = weekday(date);
  if (wd === 0 || wd === 6) return false;
  const md = date.slice(5);
  if (md === "12-31" || md === "01-01" || md === "01-02" || md === "01-03") return false;
  return !japaneseHolidays(Number(date.slice(0, 4))).has(date);
}

/** Trading days from `from` to `to` inclusive, ascending. */
export function tradingDays(from: string, to: string): string[] {
  const out: string[] = [];
  for (let day = toDayNumber(from), end = toDayNumber(to); day <= end; day += 1) {
    const date = fromDayNumber(day);
    if (isTradingDay(date)) out.push(date);
  }
  return out;
}

export function nextTradingDay(date: string): string {
  let d = addDays(date, 1);
  while (!isTradingDay(d)) d = addDays(d, 1);
  return d;
}

/** Index of the last element <= key in an ascending string array, or -1. */
export function lastIndexOnOrBefore(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as string) <= key) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
