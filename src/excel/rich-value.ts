// Rich argument values (Excel data types) unwrapped to plain ones, and entities read for a company.

import { labelJa } from "./labels";
import { ownValue } from "./own-key";

/**
 * With `allowCustomDataForDataTypeAny` an `any` parameter receives Excel's data-type JSON instead of
 * the plain value (Microsoft: custom-functions-data-types-concepts; Excel.CellValue): a formatted
 * number `{type:"Double", basicValue, numberFormat}` (also `"FormattedNumber"`), a typed
 * `{type:"String"|"Boolean", basicValue}`, an entity `{type:"Entity", text, properties}` or a linked
 * entity such as a Stocks cell `{type:"LinkedEntity", text, id, properties}`.
 */
export interface RichObject {
  type: string;
  basicValue?: unknown;
  numberFormat?: unknown;
  text?: unknown;
  properties?: unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** True for a data-type object (anything with a string `type`), whatever its type. */
export function isRichObject(value: unknown): value is RichObject {
  return isRecord(value) && typeof value.type === "string";
}

const BASIC_TYPES: Readonly<Record<string, "number" | "string" | "boolean">> = {
  double: "number",
  formattednumber: "number",
  string: "string",
  boolean: "boolean",
};

/**
 * The plain value of a formatted number, typed string or typed boolean; other values unchanged
 * (entities and unknown objects are left for the parser to accept or refuse by name).
 *
 * @example unwrapBasic({ type: "Double", basicValue: 45382, numberFormat: "yyyy-mm-dd" }) // 45382
 */
export function unwrapBasic(value: unknown): unknown {
  if (!isRichObject(value)) return value;
  const expected = ownValue(BASIC_TYPES, value.type.toLowerCase());
  if (expected !== undefined && typeof value.basicValue === expected) return value.basicValue;
  return value;
}

/** True when the value is an entity (own or linked). */
export function isEntity(value: unknown): value is RichObject {
  return isRichObject(value) && /^(linked)?entity$/i.test(value.type);
}

/**
 * True for a formatted number whose format shows a date (has y, or d with m, outside quotes; or
 * shows a year and month only, see `isMonthFormatted`), e.g. the dates KAISHA itself returns
 * ("yyyy-mm-dd"): its number is a date serial, never a year.
 */
export function isDateFormatted(value: unknown): boolean {
  const bare = bareFormat(value);
  if (bare === undefined) return false;
  return /y/.test(bare) || (/d/.test(bare) && /m/.test(bare)) || showsMonthOnly(bare);
}

/**
 * True for a formatted number whose format is a date showing a year and a month and no day
 * (`yyyy/m`, `yyyy"年"m"月"`, `mmm-yy`, `yyyy/mm`, ja `ggge"年"m"月"`): the analyst typed a month
 * (`2024/3`; Excel keeps 2024-03-01 and shows it so), and the cell names that month, not its
 * first day.
 *
 * @example isMonthFormatted({ type: "Double", basicValue: 45352, numberFormat: "yyyy/m" }) // true
 * @example isMonthFormatted({ type: "Double", basicValue: 45352, numberFormat: "yyyy/m/d" }) // false
 */
export function isMonthFormatted(value: unknown): boolean {
  const bare = bareFormat(value);
  return bare !== undefined && showsMonthOnly(bare);
}

/**
 * A formatted number's format without quoted text, escapes and bracketed parts (`[$-ja-JP]`,
 * `[DBNum1]`, colours, elapsed times), lowercased: its first section, what a positive number
 * shows. Undefined for anything but a formatted number.
 */
function bareFormat(value: unknown): string | undefined {
  if (!isRichObject(value) || typeof value.numberFormat !== "string") return undefined;
  if (ownValue(BASIC_TYPES, value.type.toLowerCase()) !== "number") return undefined;
  const bare = value.numberFormat.replace(/"[^"]*"|\\.|\[[^\]]*\]/g, "").toLowerCase();
  return bare.split(";")[0] ?? "";
}

/**
 * A year (y, or a Japanese era: g, e not part of a scientific E+) and a month (m), with no day
 * (d, or the Japanese weekday aaa), no time (h, s: m next to them would be minutes) and no digit
 * placeholder (a number format, not a date).
 */
function showsMonthOnly(bare: string): boolean {
  if (/[0#?]/.test(bare) || /[dhs]|aaa/.test(bare)) return false;
  return /m/.test(bare) && /y|g|e(?![+-])/.test(bare);
}

/** One property of an entity, by any of `names` (case- and space-insensitive), as plain text. */
function entityText(entity: RichObject, names: readonly string[]): string | undefined {
  if (!isRecord(entity.properties)) return undefined;
  const wanted = new Set(names.map(squash));
  for (const [key, raw] of Object.entries(entity.properties)) {
    if (!wanted.has(squash(key))) continue;
    const v = unwrapBasic(raw);
    if (typeof v === "string" && v.trim() !== "") return v.trim();
    if (typeof v === "number" && Number.isFinite(v)) return String(v);
  }
  return undefined;
}

function squash(name: string): string {
  return name.replace(/[\s_]/g, "").toLowerCase();
}

/**
 * Property names of COMPANY's own card (English keys or the Japanese headers it writes, see
 * functions/company.ts and labels.ts) and of Excel's Stocks data type ("Ticker symbol",
 * "Exchange abbreviation": Microsoft, "Excel data types: Stocks and geography").
 */
const SECURITY_CODE_NAMES = [
  "security_code",
  labelJa("security_code") ?? "証券コード",
  "Ticker symbol",
  "Ticker",
];
const EDINET_CODE_NAMES = ["edinet_code", labelJa("edinet_code") ?? "EDINETコード"];
const EXCHANGE_NAMES = ["Exchange abbreviation", "Exchange", "Exchange code"];

/**
 * Exchanges whose tickers are Japanese security codes: the ISO 10383 MICs of Tokyo, Nagoya,
 * Fukuoka and Sapporo and the names the Stocks card shows for them.
 */
const JAPANESE_EXCHANGE =
  /^(XTKS|XTK1|XTAM|XJPX|XNGO|XNKS|XFKA|XSAP|TYO|TSE|JPX|NSE JP|Tokyo.*|Nagoya.*|Fukuoka.*|Sapporo.*|Japan Exchange.*|東京.*|名古屋.*|福岡.*|札幌.*)$/i;

/** What an entity names, or why it names nothing usable. */
export type EntityCompany =
  | { ok: true; code: string }
  | { ok: false; reason: "no_code" | "foreign_exchange"; exchange?: string };

/**
 * The company code an entity carries: COMPANY's card by its security or EDINET code, a Stocks
 * cell by its ticker when its exchange is Japanese (or not stated).
 */
export function companyCodeOfEntity(entity: RichObject): EntityCompany {
  const exchange = entityText(entity, EXCHANGE_NAMES);
  const ticker = entityText(entity, SECURITY_CODE_NAMES);
  if (ticker !== undefined) {
    if (exchange !== undefined && !JAPANESE_EXCHANGE.test(exchange))
      return { ok: false, reason: "foreign_exchange", exchange };
    return { ok: true, code: ticker };
  }
  const edinet = entityText(entity, EDINET_CODE_NAMES);
  if (edinet !== undefined) return { ok: true, code: edinet };
  return { ok: false, reason: "no_code" };
}

/** Short description of a rich object for messages: `entity "Toyota"`, `Double`, `WebImage`. */
export function describeRich(value: RichObject): string {
  if (isEntity(value)) {
    const text = typeof value.text === "string" ? value.text.slice(0, 24) : "";
    return `(${value.type}${text ? ` ${JSON.stringify(text)}` : ""})`;
  }
  return `(${(value as RichObject).type})`;
}
