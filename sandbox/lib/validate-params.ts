// Generic parameter validation driven by the contract's OPERATIONS table (openapi.json ErrorDetail
// reasons).
import { ApiError, type ErrorDetail } from "./api-error";
import type { OperationRule, ParamRule } from "../../src/contract/rules";
import { Params, type ParamValue } from "./params";

const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Validates raw path and query values against an operation's rules and returns typed values with
 * defaults applied. Every problem is reported at once as 400 `invalid_parameter` (openapi.json
 * ErrorResponse). Unknown query parameters are ignored.
 * @example validateParams(OPERATIONS.getFinancials, {}, (n) => url.searchParams.get(n) ?? undefined)
 */
export function validateParams(
  rule: OperationRule,
  pathValues: Readonly<Record<string, string>>,
  query: (name: string) => string | undefined,
): Params {
  const values = new Map<string, ParamValue>();
  const details: ErrorDetail[] = [];
  for (const param of rule.params) {
    const raw = param.in === "path" ? pathValues[param.name] : query(param.name);
    if (raw === undefined) {
      if (param.required) details.push(detail(param.name, "missing", describe(param)));
      else if (param.default !== undefined) values.set(param.name, param.default);
      continue;
    }
    const problem = check(param, raw);
    if (problem !== null) details.push(problem);
    else values.set(param.name, param.type === "string" ? raw : Number(raw));
  }
  // openapi.json getFinancials: exactly one of edinet_code / security_code (x-exactly-one-of in the
  // contract).
  const group = rule.exactlyOneOf;
  if (group !== undefined) {
    const given = group.filter((name) => query(name) !== undefined);
    const expected = `exactly one of ${group.join(", ")}`;
    if (given.length === 0) {
      for (const name of group) details.push(detail(name, "missing", expected));
    } else if (given.length > 1) {
      for (const name of given) details.push(detail(name, "conflict", expected));
    }
  }
  if (details.length > 0) throw ApiError.invalid(details);
  return new Params(values);
}

/** Checks one present value; null when it is acceptable. */
function check(param: ParamRule, raw: string): ErrorDetail | null {
  const { name } = param;
  if (param.type === "integer" || param.type === "number") {
    const ok = param.type === "integer" ? INTEGER.test(raw) : NUMBER.test(raw);
    if (!ok) return detail(name, "invalid_type", describe(param));
    const value = Number(raw);
    if (!Number.isFinite(value)) return detail(name, "invalid_type", describe(param));
    if (param.enum !== undefined && !param.enum.includes(String(value))) {
      return detail(name, "unknown_value", describe(param));
    }
    if (
      (param.minimum !== undefined && value < param.minimum) ||
      (param.maximum !== undefined && value > param.maximum)
    ) {
      return detail(name, "out_of_range", describe(param));
    }
    return null;
  }
  if (param.enum !== undefined) {
    return param.enum.includes(raw) ? null : detail(name, "unknown_value", describe(param));
  }
  const length = [...raw].length;
  if (
    (param.minLength !== undefined && length < param.minLength) ||
    (param.maxLength !== undefined && length > param.maxLength)
  ) {
    return detail(name, "out_of_range", lengthRange(param));
  }
  if (param.pattern !== undefined && !compile(param.pattern).test(raw)) {
    return detail(name, "invalid_format", formatHint(param));
  }
  // A pattern like ^\d{4}-\d{2}-\d{2}$ admits 2024-02-30: reject dates that do not exist. Only
  // in a date parameter: free text (listSecurities `q`) that looks like a date is a search.
  if (isDateParam(param) && ISO_DATE.test(raw) && !isRealDate(raw)) {
    return detail(name, "invalid_format", "a real calendar date YYYY-MM-DD");
  }
  return null;
}

/**
 * A date parameter by the contract's own rules (generated/param-rules.ts): `format: date`, a
 * `x-min-date`, or a pattern made for a YYYY-MM-DD day (openapi.json getPrices `from`/`to`,
 * getFinancials `as_of` "now" or a day).
 */
function isDateParam(param: ParamRule): boolean {
  return (
    param.format === "date" ||
    param.minDate !== undefined ||
    (param.pattern?.includes("\\d{4}-\\d{2}-\\d{2}") ?? false)
  );
}

/** True when YYYY-MM-DD names a day that exists. */
function isRealDate(text: string): boolean {
  const match = ISO_DATE.exec(text);
  if (match === null) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function detail(param: string, reason: ErrorDetail["reason"], expected?: string): ErrorDetail {
  return expected === undefined ? { param, reason } : { param, reason, expected };
}

/** openapi.json ErrorResponse: `expected` summarizes accepted values (range, type, enumeration). */
function describe(param: ParamRule): string {
  if (param.enum !== undefined) return `one of ${param.enum.join(", ")}`;
  if (param.type === "integer" || param.type === "number") {
    const kind = param.type === "integer" ? "integer" : "number";
    if (param.minimum !== undefined && param.maximum !== undefined) {
      return `${kind} ${param.minimum}..${param.maximum}`;
    }
    if (param.minimum !== undefined) return `${kind} >= ${param.minimum}`;
    if (param.maximum !== undefined) return `${kind} <= ${param.maximum}`;
    return kind;
  }
  if (param.pattern !== undefined) return formatHint(param);
  if (param.minLength !== undefined || param.maxLength !== undefined) return lengthRange(param);
  return "string";
}

function lengthRange(param: ParamRule): string {
  const min = param.minLength ?? 0;
  return param.maxLength === undefined ? `length >= ${min}` : `length ${min}..${param.maxLength}`;
}

/** Human-readable format for the patterns openapi.json uses; the raw pattern otherwise. */
function formatHint(param: ParamRule): string {
  const hints: Record<string, string> = {
    "^\\d{4}-\\d{2}-\\d{2}$": "YYYY-MM-DD",
    "^\\d{4}\\/(0[1-9]|1[0-2])$": "YYYY/MM",
    "^\\d{4}/(0[1-9]|1[0-2])$": "YYYY/MM",
    "^[0-9A-Z]{4,5}$": "security code: 4-5 characters 0-9 A-Z",
    "^[EG]\\d{5}$": "EDINET code: E or G followed by 5 digits",
    "^\\d+$": "digits only",
  };
  const pattern = param.pattern ?? "";
  return hints[pattern] ?? `string matching ${pattern}`;
}

const compiled = new Map<string, RegExp>();

/** Compiles (once) a contract pattern; JSON Schema patterns are ECMA-262 regular expressions. */
function compile(pattern: string): RegExp {
  let regex = compiled.get(pattern);
  if (regex === undefined) {
    regex = new RegExp(pattern);
    compiled.set(pattern, regex);
  }
  return regex;
}
