// Period tokens: FY0, FY-1, FQ-2, FH0, LTM-1, 2024Q2, 2024H1, 2024H2, 2024/03, 202403, 2024年3月期(第2四半期), 令和6年3月期, 2024年度, 令和元年度, FY2024, dates.

import { normalizeText } from "../util/normalize";
import { isDateFormatted, isMonthFormatted } from "./rich-value";
import { periodNumber } from "./period-number";
import { ownValue } from "./own-key";

/**
 * openapi.json FinancialsPeriod.quarter: Q1..Q4, H1, full_year. Plus H2, which the API does not
 * send: the second half, derived as full_year − H1 of the same fiscal year (never a 12-month figure).
 */
export type Quarter = "Q1" | "Q2" | "Q3" | "Q4" | "H1" | "H2" | "full_year";

/** The period series a relative token moves along. */
export type PeriodUnit = "FY" | "FQ" | "FH" | "LTM";

/** A parsed period token. */
export type PeriodToken =
  /** 0, -1 (unit from the `period` argument), FY-1, FQ0, FH-1, LTM, LTM-1. */
  | { kind: "relative"; offset: number; unit?: PeriodUnit }
  /** The fiscal year ending in `year` (2024, FY2024), or one of its quarters (2024Q2, FY2024H1). */
  | { kind: "year"; year: number; quarter?: Quarter }
  /** The fiscal year ending in `month` ("YYYY/MM": 2024/03, 202403, 2024年3月期), or one of its quarters. */
  | { kind: "month"; month: string; quarter?: Quarter }
  /**
   * 年度: the fiscal year that starts in `year` (2024年度, 令和6年度, 令和元年度): for a March
   * year end 2024年度 is 2025年3月期, for a December one 2024年12月期.
   */
  | { kind: "startYear"; year: number; quarter?: Quarter }
  /** A day ("YYYY-MM-DD"): the latest period ended on or before it. */
  | { kind: "date"; iso: string };

/** Every accepted form, for #VALUE! messages. */
export const PERIOD_FORMS = {
  en: "FY0, FY-1, LTM, LTM-1, FQ0, FQ-2, FH0, FH-1, 2024Q2, 2024H1, 2024H2, 2024/03, 202403, 2024年3月期, 令和6年3月期, 2024年度 (the fiscal year starting in 2024), 令和6年度, FY2024, a year 1900-2100, 0 / -1 (relative) or a date",
  ja: "FY0、FY-1、LTM、LTM-1、FQ0、FQ-2、FH0、FH-1、2024Q2、2024H1、2024H2、2024/03、202403、2024年3月期、2024年3月期第2四半期、令和6年3月期、2024年度（2024年に始まる事業年度）、令和6年度、FY2024、年（1900〜2100）、0 / -1（最新からの相対）、または日付",
};

/** Japanese eras in use for fiscal years (the first year of each era is 元年). */
const ERA_START: Readonly<Record<string, number>> = {
  令和: 2019,
  R: 2019,
  平成: 1989,
  H: 1989,
  昭和: 1926,
  S: 1926,
};

function monthText(year: number, month: number): string {
  return `${year}/${String(month).padStart(2, "0")}`;
}

function quarterOfText(text: string | undefined): Quarter | undefined | null {
  if (text === undefined || text === "") return undefined;
  const t = text.replace(/\s+/g, "").toUpperCase();
  const q = /^(?:Q([1-4])|([1-4])Q|第([1-4])四半期)$/.exec(t);
  if (q) return `Q${q[1] ?? q[2] ?? q[3]}` as Quarter;
  if (/^(H1|1H|中間期?|上期|上半期|第2四半期累計)$/.test(t)) return "H1";
  if (/^(H2|2H|下期|下半期)$/.test(t)) return "H2";
  return null; // present but not a quarter we know
}

const MAX_OFFSET = 120;

/**
 * Parses one period token. Numbers follow the range rule of period-number.ts; a formatted number
 * with a date format is a date, one whose format shows only a year and month is that month. Undefined when the value is no period token (the caller names the
 * argument and lists PERIOD_FORMS).
 *
 * @example periodToken("FY-1")            // { kind: "relative", offset: -1, unit: "FY" }
 * @example periodToken(202403)            // { kind: "month", month: "2024/03" }
 * @example periodToken("2024年3月期第2四半期") // { kind: "month", month: "2024/03", quarter: "Q2" }
 */
export function periodToken(value: unknown, rich?: unknown): PeriodToken | undefined {
  if (typeof value === "number") {
    // A date shown as a month (`yyyy/m`: the analyst typed 2024/3) names that month, as the text
    // "2024/03" does; a date shown with its day keeps the date rule.
    if (isMonthFormatted(rich)) return monthOfSerial(value);
    return fromNumber(value, isDateFormatted(rich));
  }
  if (typeof value !== "string") return undefined;
  const text = (normalizeText(value) ?? "").replace(/\s+/g, " ");
  const upper = text.toUpperCase();
  if (/^[-+]?\d+(\.\d+)?$/.test(text)) return fromNumber(Number(text), false);

  const relative = /^(FY|FQ|FH|LTM) ?([-+] ?\d+|0)?$/.exec(upper);
  if (relative) {
    const offset = relative[2] === undefined ? 0 : Number(relative[2].replace(/ /g, ""));
    if (!Number.isInteger(offset) || offset > 0 || offset < -MAX_OFFSET) return undefined;
    return { kind: "relative", offset: offset === 0 ? 0 : offset, unit: relative[1] as PeriodUnit };
  }

  const fyYear = /^(?:FY ?)?(\d{4}) ?(Q[1-4]|[1-4]Q|H[12]|[12]H)?$/.exec(upper);
  if (fyYear && (upper.startsWith("FY") || fyYear[2] !== undefined)) {
    const quarter = quarterOfText(fyYear[2]);
    const year = Number(fyYear[1]);
    if (quarter === null || year < 1900 || year > 2100) return undefined;
    return quarter === undefined ? { kind: "year", year } : { kind: "year", year, quarter };
  }

  // 2024年3月期, 令和6年3月期, R6年3月期, 2024/03, 2024-3期, each optionally with a quarter.
  const western = upper.replace(
    /^(令和|平成|昭和|R|H|S) ?(元|\d{1,2}) ?年/,
    (_all, era: string, y: string) =>
      `${(ownValue(ERA_START, era) ?? 0) + (y === "元" ? 1 : Number(y)) - 1}年`,
  );
  // 2024年度 / 令和6年度 (the era already made western): the fiscal year starting in that year.
  const nendo = /^(\d{4}) ?年度 ?(.*)$/.exec(western);
  if (nendo) {
    const year = Number(nendo[1]);
    const quarter = quarterOfText(nendo[2]);
    if (quarter === null || year < 1900 || year > 2100) return undefined;
    return quarter === undefined
      ? { kind: "startYear", year }
      : { kind: "startYear", year, quarter };
  }
  const month = /^(\d{4}) ?(?:年|[-/.]) ?(\d{1,2}) ?(月期|月|期)? ?(.*)$/.exec(western);
  if (month) {
    const year = Number(month[1]);
    const m = Number(month[2]);
    const rest = month[4] ?? "";
    // "2024/03/31" and "2024年3月31日" are dates, not months with a quarter.
    const day =
      month[3] === "月"
        ? /^(\d{1,2}) ?日$/.exec(rest)
        : month[3] === undefined
          ? /^[-/.] ?(\d{1,2})$/.exec(rest)
          : null;
    if (day) return dateToken(year, m, Number(day[1]));
    const quarter = quarterOfText(rest);
    if (quarter === null || m < 1 || m > 12 || year < 1900 || year > 2100) return undefined;
    const out = { kind: "month" as const, month: monthText(year, m) };
    return quarter === undefined ? out : { ...out, quarter };
  }
  return undefined;
}

/** The month of a date serial, as a month token; undefined for a number that is no date. */
function monthOfSerial(n: number): PeriodToken | undefined {
  const parsed = periodNumber(n, true);
  if (parsed?.kind !== "date") return undefined;
  return {
    kind: "month",
    month: monthText(Number(parsed.iso.slice(0, 4)), Number(parsed.iso.slice(5, 7))),
  };
}

function dateToken(year: number, month: number, day: number): PeriodToken | undefined {
  const n = year * 10_000 + month * 100 + day;
  const parsed = periodNumber(n);
  return parsed?.kind === "date" ? { kind: "date", iso: parsed.iso } : undefined;
}

function fromNumber(n: number, isDate: boolean): PeriodToken | undefined {
  if (!isDate && Number.isInteger(n) && n <= 0)
    return n >= -MAX_OFFSET ? { kind: "relative", offset: n === 0 ? 0 : n } : undefined;
  const parsed = periodNumber(n, isDate);
  if (parsed === undefined) return undefined;
  if (parsed.kind === "year") return { kind: "year", year: parsed.year };
  if (parsed.kind === "month")
    return { kind: "month", month: monthText(parsed.year, parsed.month) };
  return { kind: "date", iso: parsed.iso };
}
