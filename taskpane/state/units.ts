// Unit handling for imports: money scaling, Excel number formats and header unit notes by unit id
// (openapi.json FieldUnit).

import type { Lang } from "../i18n/language";
import { isPercentage, toSheetScale } from "../../src/excel/percent-scale";

/** Money scales a table import can use (issue 4 `unit`). */
export type MoneyScale = "jpy" | "thousand_jpy" | "million_jpy" | "hundred_million_jpy";
export const MONEY_SCALES: readonly MoneyScale[] = [
  "jpy",
  "thousand_jpy",
  "million_jpy",
  "hundred_million_jpy",
];

const SCALE_DIVISOR: Record<MoneyScale, number> = {
  jpy: 1,
  thousand_jpy: 1_000,
  million_jpy: 1_000_000,
  hundred_million_jpy: 100_000_000,
};

/** One format for every percentage column, whichever scale the API sent it on. */
const PERCENT_COLUMN_FORMAT = "0.00%";

/** Column kinds beyond the API's unit ids: dates, date-times, links and plain text. */
export type ColumnKind = "number" | "date" | "datetime" | "text" | "link" | "boolean";

const UNIT_NOTE: Record<Lang, Record<string, string>> = {
  ja: {
    jpy: "円",
    thousand_jpy: "千円",
    million_jpy: "百万円",
    hundred_million_jpy: "億円",
    jpy_per_share: "円/株",
    percent: "%",
    ratio: "%",
    times: "倍",
    points: "pt",
    years: "年",
    days: "日",
    months: "か月",
    shares: "株",
    people: "人",
    t_co2e: "t-CO2e",
    count: "件",
  },
  en: {
    jpy: "JPY",
    thousand_jpy: "JPY k",
    million_jpy: "JPY mn",
    hundred_million_jpy: "JPY 100mn",
    jpy_per_share: "JPY/share",
    percent: "%",
    ratio: "%",
    times: "x",
    points: "pt",
    years: "years",
    days: "days",
    months: "months",
    shares: "shares",
    people: "people",
    t_co2e: "t-CO2e",
    count: "count",
  },
};

/** The unit a money column is shown in once scaled; other units are unchanged. */
export function displayUnit(unit: string | undefined, scale: MoneyScale): string | undefined {
  return unit === "jpy" ? scale : unit;
}

/**
 * A number as the table holds it: yen amounts divided by the scale (issue 4 `unit`), a `percent`
 * as a fraction (percent-scale.ts: 3.68 -> 0.0368, as the functions write it); every other unit
 * as sent.
 */
export function scaleValue(value: number, unit: string | undefined, scale: MoneyScale): number {
  return unit === "jpy" ? value / SCALE_DIVISOR[scale] : toSheetScale(value, unit);
}

/** Header note such as "百万円" for a column, or undefined when the unit needs none. */
export function unitNote(unit: string | undefined, lang: Lang): string | undefined {
  return unit === undefined ? undefined : UNIT_NOTE[lang][unit];
}

/**
 * Excel number format for a column. Percentages (`percent` and `ratio`) are fractions in the
 * table (scaleValue), shown with Excel's percent format to two decimals (a 3.68% yield, a 45.23%
 * equity ratio).
 */
export function numberFormatFor(kind: ColumnKind, unit: string | undefined): string {
  if (kind === "date") return "yyyy-mm-dd";
  if (kind === "datetime") return "yyyy-mm-dd hh:mm";
  if (kind === "text") return "@";
  // A text format would store the HYPERLINK formula as text.
  if (kind === "link") return "General";
  if (kind === "boolean") return "General";
  if (isPercentage(unit)) return PERCENT_COLUMN_FORMAT;
  switch (unit) {
    case "jpy":
    case "shares":
    case "people":
    case "count":
    case "t_co2e":
    case "days":
      return "#,##0";
    case "thousand_jpy":
    case "million_jpy":
    case "hundred_million_jpy":
      return "#,##0";
    case "jpy_per_share":
      return "#,##0.00";
    case "times":
    case "points":
      return "0.00";
    case "years":
    case "months":
      return "0.0";
    default:
      return "General";
  }
}

/** Excel date serial (days since 1899-12-30) of a YYYY-MM-DD date, or undefined. */
export function dateSerial(text: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return undefined;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Number.isNaN(ms) ? undefined : ms / 86_400_000 + 25_569;
}

/** Excel serial of an ISO 8601 UTC timestamp, shown in Japan time (spec: dates are JST). */
export function dateTimeSerialJst(text: string): number | undefined {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return undefined;
  return (ms + 9 * 3_600_000) / 86_400_000 + 25_569;
}
