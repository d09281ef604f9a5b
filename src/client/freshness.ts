// When a cached answer can have changed: the company's filing calendar for statements, the close for prices.

import type { OperationId } from "../contract/rules";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** JST is UTC+9 all year (no daylight saving). */
const JST_OFFSET_MS = 9 * HOUR;

/**
 * Longest an answer on the filing calendar is trusted without asking again: corrections (訂正)
 * arrive as filings at any time. Each company's week has its own slot (`maxAgeSlot`), so a model
 * revalidates about a seventh of its companies a day instead of all of them on one day.
 *
 * @internal exported for the rule's own tests (test/client/freshness.test.ts)
 */
export const MAX_AGE_MS = 7 * DAY;
/**
 * A revalidated answer is trusted at least this long before its company's weekly slot comes up.
 *
 * @internal exported for the rule's own tests (test/client/freshness.test.ts)
 */
export const MIN_AGE_MS = 1 * DAY;
/** TSE: quarterly results (決算短信) and the half-year report within 45 days of the period end. */
const RESULTS_WINDOW_DAYS = 45;
/** The annual report (有価証券報告書) is due within three months of the fiscal year end. */
const ANNUAL_REPORT_WINDOW_MONTHS = 3;
/** openapi.json getPrices: daily prices; the TSE's afternoon session closes at 15:30 JST. */
const CLOSE_MINUTE_JST = 15 * 60 + 30;
/** Most listed Japanese companies end their fiscal year in March: the guess when no answer says. */
const DEFAULT_FISCAL_YEAR_END_MONTH = 3;

/** Operations whose answers change only when the company files. */
const FILING_OPERATIONS: ReadonlySet<OperationId> = new Set<OperationId>([
  "getFinancials",
  "getSegments",
  "getDividends",
  "getValuations",
]);

/** True for answers that change only when the company files (revalidated company by company). */
export function isFilingOperation(operationId: OperationId): boolean {
  return FILING_OPERATIONS.has(operationId);
}

/** How long an answer stays fresh, and what it means when that time has passed. */
export interface Lifetime {
  /** Fresh before this instant; due for revalidation from it on. @unit ms since epoch */
  freshUntil: number;
  /**
   * Once due, whether the data can have changed (a period ended and its filing window is open, or
   * the market closed since): cells showing it are marked stale until the answer is revalidated.
   * False for a due answer that is only being checked (the weekly slot, a plain TTL).
   */
  changeExpected: boolean;
  /** The company the answer belongs to (revalidation groups and spreads by it), when it has one. */
  company: string | undefined;
  /**
   * The period (month index) whose expected results day `CompanyKnowledge.dailyChecksFrom` did not
   * know yet: the client looks it up (src/client/results-day-history.ts).
   */
  awaits?: number;
  /** `freshUntil` may move once `awaits` is known: the client does not keep it before. */
  provisional?: boolean;
}

/**
 * What the lifetime is computed from: the request's parameters and the answer itself.
 *
 * @internal exported for the rule's own tests (test/client/freshness.test.ts)
 */
export interface AnswerFacts {
  operationId: OperationId;
  params: Readonly<Record<string, unknown>>;
  body: unknown;
  /** When the answer was received. @unit ms since epoch */
  storedAt: number;
  /** The operation's plain TTL, for operations not on the filing calendar or the close. @unit ms */
  ttlMs: number;
  /** What other answers told of the company (the client's code registry); none when absent. */
  known?: CompanyKnowledge;
}

/**
 * What answers told of companies, for answers that do not say it themselves: the client's code
 * registry (code-map.ts `CodeRegistry.knowledge`, per key partition) provides it.
 */
export interface CompanyKnowledge {
  /** The EDINET code paired with a security code (/financials by security code, /dividends). */
  edinetOf(security: string): string | undefined;
  /** The fiscal year-end month (0..11) an answer of the company showed. */
  yearEndOf(code: string): number | undefined;
  learnYearEnd(code: string, month: number): void;
  /**
   * From when the company is checked daily for the period ending in month `period`: its expected
   * results day from its history (src/client/results-day.ts); null when its history predicts
   * nothing (the window's cadence, windowCheckDay); undefined while not looked up. Absent: null.
   */
  dailyChecksFrom?(company: string, period: number): number | null | undefined;
}

/** Knowledge of nothing: each answer read on its own. */
const NOTHING_KNOWN: CompanyKnowledge = {
  edinetOf: () => undefined,
  yearEndOf: () => undefined,
  learnYearEnd: () => undefined,
};

/**
 * The lifetime of an answer. Filing data (financials, segments, dividends, valuations) stays fresh
 * until the next period of the company ends (its periods come from the answer's own fiscal_year
 * and quarter, so December and changed year ends are right), or while a window is open and the
 * period has not arrived, until the company's next check day (windowCheckDay: every third JST
 * day in the window's first half, daily in its second; daily for a late filer's period, for three
 * months from its end); and never past the company's weekly slot.
 * "Up to latest" daily prices stay fresh until the next close (15:30 JST on a weekday);
 * closed ranges change only with a split and follow the weekly slot. Anything else: its TTL.
 *
 * @example lifetimeOf({ operationId: "getPrices", params: { code: "7203" }, body, storedAt, ttlMs }).freshUntil // next 15:30 JST
 *
 * @internal exported for the rule's own tests (test/client/freshness.test.ts)
 */
export function lifetimeOf(facts: AnswerFacts): Lifetime {
  const { operationId, params, storedAt } = facts;
  const known = facts.known ?? NOTHING_KNOWN;
  const company = companyOf(params, facts.body, known);
  if (operationId === "getPrices") return pricesLifetime(params, storedAt, company);
  // A company's disclosures over a range that ended before it was asked (results-day.ts
  // historyQuery): nothing new can enter it, so it is not asked again for a year.
  if (
    operationId === "listSecurityDisclosures" &&
    (params.to as string | undefined)! < jstDate(storedAt)
  )
    return { freshUntil: storedAt + 365 * DAY, changeExpected: false, company };
  if (!FILING_OPERATIONS.has(operationId) || company === undefined)
    return { freshUntil: storedAt + facts.ttlMs, changeExpected: false, company };
  const slot = maxAgeSlot(company, storedAt);
  const calendar = filingCalendar(operationId, params, facts.body, known);
  if (calendar === undefined) return { freshUntil: slot, changeExpected: false, company };
  return filingLifetime(calendar, storedAt, slot, company, known);
}

/**
 * The first instant at least MIN_AGE_MS after `storedAt` that falls on the company's weekly slot
 * (a phase within the week from a hash of its code): the same company is due on the same weekday
 * and hour every week, and a model's companies are spread over the week.
 *
 * @internal exported for the rule's own tests (test/client/freshness.test.ts)
 */
export function maxAgeSlot(company: string, storedAt: number): number {
  const phase = Math.floor((hashOf(company) / 0x1_0000_0000) * MAX_AGE_MS);
  const earliest = storedAt + MIN_AGE_MS;
  const weeks = Math.ceil((earliest - phase) / MAX_AGE_MS);
  return phase + weeks * MAX_AGE_MS;
}

/** FNV-1a of the text: stable across runs and platforms (the slot must not move between opens). */
function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * The company an answer belongs to, one name for all its answers: the EDINET code where the answer
 * or an earlier one names it (a company asked as 7203 and as E02144 is one company), else the code
 * asked.
 */
function companyOf(
  params: Readonly<Record<string, unknown>>,
  body: unknown,
  known: CompanyKnowledge,
): string | undefined {
  const b = body as { security_code?: unknown; edinet_code?: unknown } | null;
  const security = [params.security_code, params.code, b?.security_code].find(
    (v): v is string => typeof v === "string" && v !== "",
  );
  const edinet = [params.edinet_code, b?.edinet_code].find(
    (v): v is string => typeof v === "string" && v !== "",
  );
  if (edinet !== undefined) return edinet;
  return security === undefined ? undefined : (known.edinetOf(security) ?? security);
}

// ---- prices --------------------------------------------------------------------------------

function pricesLifetime(
  params: Readonly<Record<string, unknown>>,
  storedAt: number,
  company: string | undefined,
): Lifetime {
  const to = params.to;
  // openapi.json getPrices: a range ending before today holds only closed days (adj_close moves
  // only with a split): checked on the weekly slot like filings.
  if (typeof to === "string" && to < jstDate(storedAt))
    return {
      freshUntil: company === undefined ? storedAt + MAX_AGE_MS : maxAgeSlot(company, storedAt),
      changeExpected: false,
      company,
    };
  return { freshUntil: nextClose(storedAt), changeExpected: true, company };
}

/**
 * A daily-prices answer's expiry by `lifetimeOf`'s rule, from its request alone (`code`, `to`): the
 * one price rule for a reader that holds no client (taskpane/open/due-record.ts). "Up to latest":
 * the next close; a closed range: the company's weekly slot, hashed from the code asked (as the
 * client does while it knows no EDINET code for it).
 *
 * @example pricesExpiry({ code: "7203" }, storedAt) // the next close (15:30 JST)
 */
export function pricesExpiry(params: Readonly<Record<string, unknown>>, storedAt: number): number {
  return pricesLifetime(params, storedAt, companyOf(params, undefined, NOTHING_KNOWN)).freshUntil;
}

/** The next weekday close (15:30 JST) after `t`; the TSE is shut from 31 December to 3 January. */
export function nextClose(t: number): number {
  const jst = t + JST_OFFSET_MS;
  let day = Math.floor(jst / DAY);
  if (jst - day * DAY >= CLOSE_MINUTE_JST * MINUTE) day += 1;
  while (!isTradingDay(day)) day += 1;
  return day * DAY + CLOSE_MINUTE_JST * MINUTE - JST_OFFSET_MS;
}

/** Weekdays except the exchange's year-end holidays (national holidays are not known here). */
function isTradingDay(epochDay: number): boolean {
  const d = new Date(epochDay * DAY);
  const weekday = d.getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  const m = d.getUTCMonth() + 1;
  const dd = d.getUTCDate();
  return !((m === 12 && dd === 31) || (m === 1 && dd <= 3));
}

function jstDate(t: number): string {
  return new Date(t + JST_OFFSET_MS).toISOString().slice(0, 10);
}

/** The start of the next JST day after `t` (the revalidator's budget rolls over then too). */
export function nextJstMidnight(t: number): number {
  return (Math.floor((t + JST_OFFSET_MS) / DAY) + 1) * DAY - JST_OFFSET_MS;
}

/**
 * JST days between a company's checks in the first half of a filing window.
 *
 * @internal exported for the rule's own tests (test/client/freshness.test.ts)
 */
export const EARLY_WINDOW_CHECK_DAYS = 3;

/**
 * The start of the company's next check day after `t` while a filing window is open (the window
 * from `opened`, a period's end, to `closes`, its deadline): in the window's first half every
 * third JST day, on a day of the company's own (a hash of its code), so a third of a model's
 * unfiled companies are checked each morning; in its second half every day. Why: companies file
 * mostly late in their window (TSE results cluster in its last weeks), and checking every unfiled
 * company every day cost a 500-company model ~500 checks on top of its 500 price pages each
 * morning from the day the quarter ended (bench: a week in the window of the quarter ended 30
 * September), over the 800 a day the background is held to. An early filer is on the sheet within
 * three mornings of reaching the API; a filing in the busy second half, the next morning (the
 * daily budget then decides, oldest checks first).
 *
 * @example windowCheckDay("E02144", t, quarterEnd, quarterEnd + 45 * DAY) // a JST midnight 1-3 days after t
 *
 * @internal exported for the rule's own tests (test/client/freshness.test.ts)
 */
export function windowCheckDay(company: string, t: number, opened: number, closes: number): number {
  const next = nextJstMidnight(t);
  if (t >= opened + (closes - opened) / 2) return next;
  const every = EARLY_WINDOW_CHECK_DAYS;
  const day = Math.round((next + JST_OFFSET_MS) / DAY);
  const offset = (hashOf(company) - (day % every) + every) % every;
  return next + offset * DAY;
}

// ---- the filing calendar -------------------------------------------------------------------

/** A company's periods as one answer shows them. Months are indexes: year * 12 + month - 1. */
interface FilingCalendar {
  /** The latest period end the answer holds. */
  latest: number;
  /** Months between the periods this answer holds (12 annual, 6 half-year, 3 quarterly). */
  step: number;
  /** The fiscal year end's month (0..11). */
  yearEndMonth: number;
  /** No period after this month can enter the answer (as_of, fiscal_year, to_fiscal_year). */
  bound: number | undefined;
  /** Every period end the answer holds (a period held a year earlier is one the company reports). */
  held: ReadonlySet<number>;
}

/**
 * "YYYY/MM" -> month index, or undefined. Tested, not matched (no match array): every row of every
 * answer a reopened model reads is dated here once (its lifetime, `filingCalendar`).
 */
function monthIndex(text: unknown): number | undefined {
  if (typeof text !== "string" || !YEAR_MONTH.test(text)) return undefined;
  return Number(text.slice(0, 4)) * 12 + Number(text.slice(5)) - 1;
}

const YEAR_MONTH = /^\d{4}\/\d{2}$/;

/** openapi.json FinancialsPeriod.quarter: a row's own period end from its fiscal year's end. */
function quarterEnd(fyEnd: number, quarter: unknown): number {
  switch (quarter) {
    case "Q1":
    case 1:
      return fyEnd - 9;
    case "Q2":
    case "H1":
    case 2:
      return fyEnd - 6;
    case "Q3":
    case 3:
      return fyEnd - 3;
    default:
      return fyEnd;
  }
}

function filingCalendar(
  operationId: OperationId,
  params: Readonly<Record<string, unknown>>,
  body: unknown,
  known: CompanyKnowledge,
): FilingCalendar | undefined {
  const b = (body ?? {}) as Record<string, unknown>;
  const codes = [params.security_code, params.edinet_code, b.security_code, b.edinet_code].filter(
    (c): c is string => typeof c === "string",
  );
  let rows: unknown[];
  let step: number;
  let bound: number | undefined;
  switch (operationId) {
    case "getFinancials":
      rows = Array.isArray(b.periods) ? b.periods : [];
      step = params.period === "quarterly" ? 3 : params.period === "semiannual" ? 6 : 12;
      // openapi.json getFinancials: as_of is an upper bound month on the fiscal year end.
      bound = monthIndex(params.as_of);
      break;
    case "getSegments":
      rows = Array.isArray(b.segments) ? b.segments : [];
      step = params.period === "quarter" ? 3 : 12;
      break;
    case "getValuations":
      rows = Array.isArray(b.history) ? b.history : [];
      step = 12;
      break;
    default:
      return dividendsCalendar(params, b, codes, known);
  }
  let latest: number | undefined;
  let yearEnd: number | undefined;
  const held = new Set<number>();
  for (const row of rows) {
    const r = row as { fiscal_year?: unknown; quarter?: unknown };
    const fy = monthIndex(r.fiscal_year);
    if (fy === undefined) continue;
    const end = quarterEnd(fy, r.quarter);
    held.add(end);
    if (latest === undefined || end > latest) latest = end;
    if (yearEnd === undefined || fy > yearEnd) yearEnd = fy;
  }
  if (latest === undefined || yearEnd === undefined) return undefined;
  // Dividends name a year, not its month: they read the month learned here.
  for (const code of codes) known.learnYearEnd(code, yearEnd % 12);
  // openapi.json getSegments: fiscal_year asks one year; nothing after its end can arrive.
  if (operationId === "getSegments" && typeof params.fiscal_year === "number")
    bound = params.fiscal_year * 12 + (yearEnd % 12);
  return { latest, step, yearEndMonth: yearEnd % 12, bound, held };
}

/** openapi.json DividendRecord.fiscal_year is a year: the month comes from the company's other answers. */
function dividendsCalendar(
  params: Readonly<Record<string, unknown>>,
  b: Record<string, unknown>,
  codes: readonly string[],
  known: CompanyKnowledge,
): FilingCalendar | undefined {
  const records = Array.isArray(b.records) ? b.records : [];
  let year: number | undefined;
  const years = new Set<number>();
  for (const r of records) {
    const fy = (r as { fiscal_year?: unknown }).fiscal_year;
    if (typeof fy === "number") years.add(fy);
    if (typeof fy === "number" && (year === undefined || fy > year)) year = fy;
  }
  if (year === undefined) return undefined;
  let month = DEFAULT_FISCAL_YEAR_END_MONTH - 1;
  for (const code of codes) {
    const learned = known.yearEndOf(code);
    if (learned !== undefined) {
      month = learned;
      break;
    }
  }
  const to = params.to_fiscal_year;
  return {
    latest: year * 12 + month,
    step: 12,
    yearEndMonth: month,
    bound: typeof to === "number" ? to * 12 + month : undefined,
    held: new Set([...years].map((y) => y * 12 + month)),
  };
}

/** The instant a month ends (the next month's first JST midnight). */
function monthEnd(index: number): number {
  const next = index + 1;
  return Date.UTC(Math.floor(next / 12), next % 12, 1) - JST_OFFSET_MS;
}

/**
 * Months after a period's end its results can still come from a company that reports it: the
 * annual report's three months (ANNUAL_REPORT_WINDOW_MONTHS), which is also the range a company's
 * year-earlier results day is read from (src/client/results-day.ts historyQuery). A quarter's
 * results past 45 days are a late filer's (決算発表の延期), and they do come.
 */
const LATE_RESULTS_MONTHS = 3;

/** When the filing window of the period ending in month `index` closes. */
function windowClose(index: number, yearEndMonth: number): number {
  if (((index % 12) + 12) % 12 === yearEndMonth)
    return monthEnd(index + ANNUAL_REPORT_WINDOW_MONTHS);
  return monthEnd(index) + RESULTS_WINDOW_DAYS * DAY;
}

/**
 * The company's next check after `t` in the window of the period ending in month `next`: daily
 * from its expected results day's checks on (`from`, results-day.ts dailyChecksFrom), nothing
 * before them but the weekly slot; the cadence (windowCheckDay) when its history predicts nothing.
 */
function checkAfter(
  company: string,
  t: number,
  ended: number,
  closes: number,
  from: number | null | undefined,
): number {
  if (typeof from !== "number") return windowCheckDay(company, t, ended, closes);
  return t < from ? Math.max(from, nextJstMidnight(ended)) : nextJstMidnight(t);
}

function filingLifetime(
  cal: FilingCalendar,
  storedAt: number,
  slot: number,
  company: string,
  known: CompanyKnowledge,
): Lifetime {
  // The periods after the latest one held: each can arrive from its end until its window closes.
  for (let next = cal.latest + cal.step; ; next += cal.step) {
    if (cal.bound !== undefined && next > cal.bound) break;
    const ended = monthEnd(next);
    const closes = windowClose(next, cal.yearEndMonth);
    if (ended > storedAt && ended >= slot)
      return { freshUntil: slot, changeExpected: false, company };
    const from = (): number | null | undefined =>
      known.dailyChecksFrom === undefined ? null : known.dailyChecksFrom(company, next);
    // The window closed without the period, yet the company reports it (the answer holds it a
    // year earlier, or its history gives it a results day): late, its results can come any day
    // within LATE_RESULTS_MONTHS, so cells showing the answer are marked until it is checked.
    const late =
      ended <= storedAt &&
      storedAt >= closes &&
      storedAt < monthEnd(next + LATE_RESULTS_MONTHS) &&
      (cal.held.has(next - 12) || from() !== null);
    if (ended > storedAt || storedAt < closes || late) {
      // The window is open or opens before the weekly slot: when the company is next checked
      // depends on its expected results day (undefined until looked up, then kept).
      const expected = from();
      const awaits = expected === undefined ? { awaits: next, provisional: true } : {};
      // Not ended yet: nothing new can be filed before it ends, nor on the day it ends; the
      // answer is next due on the company's first check day in the window, so a model's
      // companies are not all checked on the morning after a quarter ends. Ended, window open,
      // not in the answer: it can arrive any day (timely-system data reaches the API 24 hours
      // after disclosure), so it is asked again on the company's next check day.
      const check = checkAfter(company, Math.max(storedAt, ended), ended, closes, expected);
      return check < slot
        ? { freshUntil: check, changeExpected: true, company, ...awaits }
        : { freshUntil: slot, changeExpected: ended <= storedAt, company, ...awaits };
    }
    // Window closed without this period, one the company does not report (or three months on):
    // look at the next one.
  }
  return { freshUntil: slot, changeExpected: false, company };
}

/**
 * What a company's lifetimes were decided under: `moved` once something learned of it can change
 * them (its expected results day, src/client/results-day-history.ts). Per company, because the
 * only knowledge a lifetime reads that can move is its own company's (`filingLifetime` asks
 * `dailyChecksFrom` of its company alone): a reopen learns results days company by company, and a
 * bump for one must not decide every other company's answers again.
 */
export interface LifetimeBasis {
  moved: boolean;
}

/** The current basis per company; an answer without one reads nothing that can move. */
const bases = new Map<string, LifetimeBasis>();
let noCompany: LifetimeBasis = { moved: false };

/** The basis lifetimes of `company` are decided under now. */
export function basisOf(company: string | undefined): LifetimeBasis {
  if (company === undefined) return noCompany;
  let basis = bases.get(company);
  if (basis === undefined) bases.set(company, (basis = { moved: false }));
  return basis;
}

/**
 * Something was learned that moves `company`'s lifetimes (absent: everyone's, when the results-day
 * code could not load): they are decided again at their next read.
 */
export function lifetimesMoved(company?: string): void {
  if (company !== undefined) {
    const basis = bases.get(company);
    if (basis === undefined) return;
    basis.moved = true;
    bases.delete(company);
    return;
  }
  for (const basis of bases.values()) basis.moved = true;
  bases.clear();
  noCompany.moved = true;
  noCompany = { moved: false };
}

/** Lifetimes per stored entry object (an entry's answer and receive time never change). */
const lifetimes = new WeakMap<object, { life: Lifetime; basis: LifetimeBasis }>();

/**
 * The lifetime of a cached entry, computed once per entry object until its company's basis moves
 * (`lifetimesMoved`): a recalculation asks it for every cell, so it must be one WeakMap read after
 * the first.
 */
export function entryLifetime(
  entry: { body: unknown; storedAt: number },
  operationId: OperationId,
  params: Readonly<Record<string, unknown>>,
  ttlMs: number,
  known: () => CompanyKnowledge,
): Lifetime {
  const kept = lifetimes.get(entry);
  if (kept !== undefined && !kept.basis.moved) return kept.life;
  const life = lifetimeOf({
    operationId,
    params,
    body: entry.body,
    storedAt: entry.storedAt,
    ttlMs,
    known: known(),
  });
  lifetimes.set(entry, { life, basis: basisOf(life.company) });
  return life;
}
