// Excel argument parsing with errors that name the argument and what it accepts (#VALUE!, no request).

import { dayOf, isBlank, normalizeText } from "../util/normalize";
import { describeRich, isDateFormatted, isRichObject, unwrapBasic } from "./rich-value";
import { periodNumber } from "./period-number";
import { ownValue } from "./own-key";
import { argumentNameJa } from "./argument-names";
import { serialToIso } from "./dates";

/** A bilingual text. */
export interface Bilingual {
  en: string;
  ja: string;
}

/**
 * An argument the user typed cannot be used. Carries the Excel argument name and what it accepts,
 * in English (`message`) and Japanese (`messageJa`).
 *
 * @example throw new ArgumentError("years", { en: "an integer 1-30", ja: "1〜30 の整数" });
 */
export class ArgumentError extends Error {
  override readonly name = "ArgumentError";
  readonly argument: string;
  readonly accepted: Bilingual;
  readonly messageJa: string;

  /**
   * `cause`, when given, leads the message (what went wrong with what was typed), then the accepted
   * forms: "No listed company matches "X". company: use a security code (7203, …)".
   */
  constructor(argument: string, accepted: Bilingual, got?: unknown, cause?: Bilingual) {
    const shown = got === undefined ? "" : describeValue(got);
    super(
      cause
        ? `${cause.en}. ${argument}: use ${accepted.en}`
        : `${argument}${shown ? ` ${shown}` : ""}: use ${accepted.en}`,
    );
    this.argument = argument;
    this.accepted = accepted;
    // The Japanese message names the argument as Excel's Japanese formula help does (項目, 決算期).
    const nameJa = argumentNameJa(argument);
    const shownJa = got === undefined ? "" : describeValue(got, "ja");
    this.messageJa = cause
      ? `${cause.ja}。${nameJa} には${accepted.ja}を指定してください`
      : `${nameJa}${shownJa}：${accepted.ja} を指定してください`;
  }
}

/**
 * What to say when a name argument got a date: Excel passes DATE(2030,1,1) as its serial, and
 * "field 47484" hides that the date went one argument early (=PRICE(7203,DATE(2030,1,1))).
 * Undefined unless `value` is an Excel date serial (period-number.ts: 18264–73415, 1950–2100).
 * @example dateForName("field", 47484)?.ja // "項目 に日付 2030/01/01（47484）が入っています（日付は日付の引数に書きます）"
 */
export function dateForName(argument: string, value: unknown): Bilingual | undefined {
  const n = typeof value === "string" && /^\d{5}$/.test(value) ? Number(value) : value;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 18264 || n > 73415) return undefined;
  const date = serialToIso(n).replace(/-/g, "/");
  return {
    en: `${argument} got the date ${date} (${n}), not a name (a date goes in the date argument)`,
    ja: `${argumentNameJa(argument)} に日付 ${date}（${n}）が入っています（日付は日付の引数に書きます）`,
  };
}

/**
 * Short, safe rendering of what the user gave, for messages (Excel truncates long messages): text
 * in quotes ("salez"; 「salez」 in Japanese, right after the argument's name).
 */
function describeValue(value: unknown, lang: "en" | "ja" = "en"): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") {
    const text = value.length > 24 ? `${value.slice(0, 21)}...` : value;
    return lang === "ja" ? `「${text}」` : JSON.stringify(text);
  }
  if (lang === "ja") {
    const shown = describeValue(value);
    return shown === "" ? "" : ` ${shown}`;
  }
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return "(range)";
  if (isRichObject(value)) return describeRich(value);
  return "(object)";
}

/**
 * True when Excel passed nothing for the argument: omitted arguments arrive as null or undefined,
 * and an empty cell reference as null (Excel on the web) or "" (office-js#4702).
 */
export function isOmitted(value: unknown): boolean {
  return isBlank(value);
}

/** Unwraps a 1x1 range (Excel passes [[x]] for a single cell to a matrix parameter), rich or not. */
export function cellOf(value: unknown): unknown {
  if (Array.isArray(value) && value.length === 1) {
    const row: unknown = value[0];
    if (Array.isArray(row) && row.length === 1) return row[0];
  }
  return value;
}

/**
 * The plain value of an argument: a 1x1 range unwrapped, and a formatted number or typed
 * string/boolean (Excel data types, rich-value.ts) read as its basic value. Entities and unknown
 * objects are returned as they are, for the parser to accept (companies) or refuse by name.
 */
export function scalarOf(value: unknown): unknown {
  return unwrapBasic(cellOf(value));
}

/**
 * The plain scalar of an argument, or an ArgumentError: a range of several cells, an entity or an
 * object of an unknown type (named in the message: "unit (Entity "Toyota"): use ...").
 */
export function requireScalar(value: unknown, argument: string, accepted: Bilingual): unknown {
  const v = scalarOf(value);
  if (Array.isArray(v))
    throw new ArgumentError(argument, {
      en: `one cell: ${accepted.en}`,
      ja: `1 つのセル（${accepted.ja}）`,
    });
  if (v !== null && typeof v === "object") throw new ArgumentError(argument, accepted, v);
  return v;
}

/** Optional text, trimmed and NFKC-normalised; undefined when omitted. */
export function optionalText(
  value: unknown,
  argument: string,
  maxLength = 1000,
): string | undefined {
  const accepted = {
    en: `text of at most ${maxLength} characters`,
    ja: `${maxLength} 文字以内の文字列`,
  };
  const v = requireScalar(value, argument, accepted);
  if (isOmitted(v)) return undefined;
  if (typeof v !== "string" && typeof v !== "number")
    throw new ArgumentError(argument, accepted, v);
  const text = normalizeText(v);
  if (text === undefined) return undefined;
  if (text.length > maxLength) throw new ArgumentError(argument, accepted);
  return text;
}

/** Required text. */
export function requiredText(
  value: unknown,
  argument: string,
  accepted: Bilingual,
  maxLength = 1000,
): string {
  const text = optionalText(value, argument, maxLength);
  if (text === undefined) throw new ArgumentError(argument, accepted);
  return text;
}

export interface IntegerRule {
  min: number;
  max: number;
}

function integerAccepted(rule: IntegerRule): Bilingual {
  return { en: `a whole number ${rule.min}-${rule.max}`, ja: `${rule.min}〜${rule.max} の整数` };
}

/** Optional integer within a range: 10, 10.0, "10", "１０"; undefined when omitted. */
export function optionalInteger(
  value: unknown,
  argument: string,
  rule: IntegerRule,
): number | undefined {
  const accepted = integerAccepted(rule);
  const v = requireScalar(value, argument, accepted);
  if (isOmitted(v)) return undefined;
  let n: number;
  if (typeof v === "number") n = v;
  else if (typeof v === "string") {
    const text = normalizeText(v) ?? "";
    if (!/^[-+]?\d+(\.0+)?$/.test(text)) throw new ArgumentError(argument, accepted, v);
    n = Number(text);
  } else throw new ArgumentError(argument, accepted, v);
  if (!Number.isInteger(n) || n < rule.min || n > rule.max)
    throw new ArgumentError(argument, accepted, v);
  return n;
}

/**
 * Optional choice among `choices` (case-insensitive); returns the canonical spelling.
 * `aliases` maps extra spellings (lower case) to a canonical choice.
 */
export function optionalChoice<T extends string>(
  value: unknown,
  argument: string,
  choices: readonly T[],
  aliases: Readonly<Record<string, T>> = {},
): T | undefined {
  // Omitted in most cells; the accepted list is only built for a message (every recalculation
  // reads the choices of thousands of cells).
  if (value === null || value === undefined) return undefined;
  const v =
    typeof value === "string" || typeof value === "number"
      ? value
      : requireScalar(value, argument, acceptedChoices(choices));
  if (isOmitted(v)) return undefined;
  if (typeof v !== "string" && typeof v !== "number")
    throw new ArgumentError(argument, acceptedChoices(choices), v);
  const text = (normalizeText(v) ?? "").toLowerCase();
  for (const choice of choices) if (choice.toLowerCase() === text) return choice;
  const found = ownValue(aliases, text);
  if (found === undefined) throw new ArgumentError(argument, acceptedChoices(choices), v);
  return found;
}

/** The choices as a message lists them: "annual | quarterly". */
function acceptedChoices(choices: readonly string[]): Bilingual {
  const list = choices.join(" | ");
  return { en: list, ja: list };
}

/** Required choice among `choices` (case-insensitive). */
export function requiredChoice<T extends string>(
  value: unknown,
  argument: string,
  choices: readonly T[],
  aliases: Readonly<Record<string, T>> = {},
): T {
  const found = optionalChoice(value, argument, choices, aliases);
  if (found === undefined) throw new ArgumentError(argument, acceptedChoices(choices));
  return found;
}

/** Header modes: 0 none, 1 a header row, 2 a title row above the header row. */
export type HeaderMode = 0 | 1 | 2;

/** `headers`: 0 | 1 (default) | 2; TRUE and FALSE mean 1 and 0. */
export function headersArg(value: unknown, argument = "headers"): HeaderMode {
  const v = scalarOf(value);
  if (typeof v === "boolean") return v ? 1 : 0;
  const n = optionalInteger(v, argument, { min: 0, max: 2 });
  return (n ?? 1) as HeaderMode;
}

/** A company: a security code or an EDINET code (company-ref.ts reads the `company` argument). */
export type Company = { security_code: string } | { edinet_code: string };

/** An identifier typed as text or a whole number, NFKC-normalised and upper-cased. */
function codeText(value: unknown, argument: string, accepted: Bilingual): string {
  const v = requireScalar(value, argument, accepted);
  if (isOmitted(v)) throw new ArgumentError(argument, accepted);
  if (typeof v === "number" && !Number.isInteger(v)) throw new ArgumentError(argument, accepted, v);
  if (typeof v !== "string" && typeof v !== "number")
    throw new ArgumentError(argument, accepted, v);
  return (normalizeText(v) ?? "").toUpperCase();
}

/** `person_id`: digits (openapi.json info.description: `^\d+$`), as a number or text. */
export function personIdArg(value: unknown, argument = "person_id"): string {
  const accepted = {
    en: "a person id (digits) from OFFICERS",
    ja: "人物 ID（数字、OFFICERS で取得）",
  };
  const code = codeText(value, argument, accepted);
  if (!/^\d{1,20}$/.test(code)) throw new ArgumentError(argument, accepted, scalarOf(value));
  return code;
}

/**
 * `doc_id`: "S" + 7 alphanumerics (statutory) or 14 digits (timely) (openapi.json
 * info.description).
 */
export function docIdArg(value: unknown, argument = "doc_id"): string {
  const accepted = {
    en: "a document id such as S100ABCD or a 14-digit timely id",
    ja: "書類 ID（S100ABCD など、または 14 桁の適時開示 ID）",
  };
  const code = codeText(value, argument, accepted);
  if (!/^(S[0-9A-Z]{7}|\d{14})$/.test(code))
    throw new ArgumentError(argument, accepted, scalarOf(value));
  return code;
}

const DATE_ACCEPTED: Bilingual = {
  en: "a date (a date cell, 2024-03-31 or 20240331; a year or a YYYYMM month is not a day)",
  ja: "日付（日付セル、2024-03-31、20240331。年や年月 YYYYMM は日付ではありません）",
};

/**
 * Optional date -> "YYYY-MM-DD" (JST calendar day): a date cell (serial), date text, or YYYYMMDD.
 * Numbers follow period-number.ts's range rule, so 2024 or 202403 is refused, never read as a day
 * of 1905 or 2454.
 */
export function optionalDate(value: unknown, argument: string): string | undefined {
  const rich = cellOf(value);
  const v = requireScalar(value, argument, DATE_ACCEPTED);
  if (isOmitted(v)) return undefined;
  if (typeof v === "boolean") throw new ArgumentError(argument, DATE_ACCEPTED, v);
  const text = typeof v === "string" ? (normalizeText(v) ?? "") : undefined;
  if (typeof v === "number" || (text !== undefined && /^\d+(\.\d+)?$/.test(text))) {
    const parsed = periodNumber(Number(text ?? v), isDateFormatted(rich));
    if (parsed?.kind !== "date") throw new ArgumentError(argument, DATE_ACCEPTED, v);
    return parsed.iso;
  }
  const day = dayOf(v);
  if (day === undefined) throw new ArgumentError(argument, DATE_ACCEPTED, v);
  return day;
}

/**
 * Flattens a list argument: "a,b, c" (comma or 、 separated), or a range (2-D array, read row by
 * row). Empty cells are skipped; so is 0, which old desktop builds pass for an empty cell inside a
 * range (office-js#1951) and which no key can be.
 */
export function listArg(
  value: unknown,
  argument: string,
  accepted: Bilingual,
): string[] | undefined {
  if (value === null || value === undefined) return undefined;
  const cells: unknown[] = Array.isArray(value)
    ? (value as unknown[]).flatMap((row) => (Array.isArray(row) ? row : [row]))
    : [value];
  const out: string[] = [];
  for (const raw of cells) {
    const cell = unwrapBasic(raw);
    if (isOmitted(cell) || cell === 0) continue;
    if (typeof cell !== "string") {
      const date = dateForName(argument, cell);
      throw date
        ? new ArgumentError(argument, accepted, cell, date)
        : new ArgumentError(argument, accepted, cell);
    }
    for (const part of cell.split(/[,、，]/)) {
      const text = normalizeText(part);
      if (text !== undefined) out.push(text);
    }
  }
  // A URL carries the list: refuse what no real list of keys, conditions or names reaches.
  if (out.join(",").length > MAX_LIST_CHARS) {
    throw new ArgumentError(argument, {
      en: `${accepted.en}, at most ${MAX_LIST_CHARS} characters`,
      ja: `${accepted.ja}（${MAX_LIST_CHARS} 文字以内）`,
    });
  }
  return out.length === 0 ? undefined : out;
}

/** Longest list argument accepted (20 screening conditions take well under 1,000 characters). */
const MAX_LIST_CHARS = 4000;

/** The `unit` argument: how money fields are scaled (units.ts). */
export type MoneyUnit = "jpy" | "thousand_jpy" | "million_jpy" | "hundred_million_jpy";

/** `unit`: jpy (default) | thousand_jpy | million_jpy | hundred_million_jpy; 円/千円/百万円/億円 too. */
export function moneyUnitArg(value: unknown, argument = "unit"): MoneyUnit {
  // Read once per combination of a cell's arguments: the callers' readings are interned
  // (functions/cells/interned-args.ts), so a model's cells do not come here again.
  return optionalChoice<MoneyUnit>(value, argument, MONEY_UNITS, MONEY_UNIT_ALIASES) ?? "jpy";
}

const MONEY_UNITS: readonly MoneyUnit[] = [
  "jpy",
  "thousand_jpy",
  "million_jpy",
  "hundred_million_jpy",
];
const MONEY_UNIT_ALIASES: Readonly<Record<string, MoneyUnit>> = {
  円: "jpy",
  千円: "thousand_jpy",
  百万円: "million_jpy",
  億円: "hundred_million_jpy",
};
