// Parameter validation before any request (openapi.json parameters, ErrorDetail reasons).

import { OPERATIONS } from "../contract/generated/param-rules";
import type { OperationId, OperationRule, ParamRule } from "../contract/rules";
import { ValidationError, type ErrorDetail } from "./errors";
import { isBlank, todayJst } from "../util/normalize";
import { lazyCode } from "./lazy-code";
import type { CleanParams, ParamValue } from "./params";


/** openapi.json getScreening: comparison operators of a screening filter. */
const FILTER_OPS = ["gte", "lte", "gt", "lt", "eq"] as const;
/** openapi.json FieldUnit: unit identifiers, plus the screening threshold units. */
const SCREENING_UNITS = [
  "jpy",
  "million_jpy",
  "hundred_million_jpy",
  "jpy_per_share",
  "percent",
  "points",
  "times",
  "ratio",
  "years",
  "days",
  "months",
  "shares",
  "people",
  "t_co2e",
  "count",
] as const;
/**
 * openapi.json getScreening: filters + sector + industry never above 20 (the tier may allow fewer).
 */
const MAX_SCREENING_CONDITIONS = 20;
/**
 * openapi.json getPrices / getScreening as_of: no data before this day (prices, screening as_of).
 */
export const EARLIEST_DATE = "2005-01-01";

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const NUMBER_TEXT = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const FIELD_KEY = /^[A-Za-z][A-Za-z0-9_]*$/;
const CODE_PARAMS = new Set(["code", "security_code", "edinet_code", "doc_id"]);

export interface ValidateOptions {
  /** Clock for "not in the future" checks. @default Date.now */
  now?: () => number;
}

function isRealDate(text: string): boolean {
  if (!DATE_PATTERN.test(text)) return false;
  const [y, m, d] = text.split("-").map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function rangeText(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return `${min}..${max}`;
  if (min !== undefined) return `>= ${min}`;
  return `<= ${max}`;
}

function patternText(rule: ParamRule): string {
  if (rule.pattern === "^\\d{4}-\\d{2}-\\d{2}$") return "YYYY-MM-DD";
  if (rule.pattern === "^\\d{4}/(0[1-9]|1[0-2])$") return "YYYY/MM";
  if (rule.pattern === "^[0-9A-Z]{4,5}$") return "a security code such as 7203";
  if (rule.pattern === "^[EG]\\d{5}$") return "an EDINET code such as E02144";
  if (rule.pattern === "^\\d+$") return "a numeric id";
  return `pattern ${rule.pattern ?? ""}`;
}

/**
 * One value against its rule. Returns the cleaned value, or a detail describing the problem.
 * Numbers are accepted for string parameters (7203 -> "7203"); numeric text for integers.
 */
function checkValue(rule: ParamRule, raw: unknown): ParamValue | ErrorDetail {
  const param = rule.name;
  if (rule.type === "integer" || rule.type === "number") {
    let n: number;
    if (typeof raw === "number") n = raw;
    else if (typeof raw === "string" && NUMBER_TEXT.test(raw.trim())) n = Number(raw.trim());
    else return { param, reason: "invalid_type", expected: rule.type };
    if (!Number.isFinite(n) || (rule.type === "integer" && !Number.isInteger(n))) {
      return { param, reason: "invalid_type", expected: rule.type };
    }
    if (
      (rule.minimum !== undefined && n < rule.minimum) ||
      (rule.maximum !== undefined && n > rule.maximum)
    ) {
      return { param, reason: "out_of_range", expected: rangeText(rule.minimum, rule.maximum) };
    }
    return n;
  }
  let text: string;
  if (typeof raw === "string") text = raw.trim();
  else if (typeof raw === "number" && Number.isFinite(raw)) text = String(raw);
  else return { param, reason: "invalid_type", expected: "string" };
  if (CODE_PARAMS.has(param)) text = text.toUpperCase();
  if (rule.enum !== undefined && !rule.enum.includes(text)) {
    return { param, reason: "unknown_value", expected: rule.enum.join(", ") };
  }
  if (
    (rule.minLength !== undefined && text.length < rule.minLength) ||
    (rule.maxLength !== undefined && text.length > rule.maxLength)
  ) {
    return {
      param,
      reason: "out_of_range",
      expected: `length ${rangeText(rule.minLength, rule.maxLength)}`,
    };
  }
  if (rule.pattern !== undefined && !new RegExp(rule.pattern, "u").test(text)) {
    return { param, reason: "invalid_format", expected: patternText(rule) };
  }
  if (rule.pattern === "^\\d{4}-\\d{2}-\\d{2}$" && !isRealDate(text)) {
    return { param, reason: "invalid_format", expected: "a real calendar date YYYY-MM-DD" };
  }
  return text;
}

/**
 * openapi.json getScreening: `field:op:value[:unit]`, comma-separated. Returns the number of
 * conditions.
 */
function checkFilters(filters: string, details: ErrorDetail[]): number {
  const parts = filters.split(",").map((p) => p.trim());
  for (const part of parts) {
    const seg = part.split(":");
    const [field, op, value, unit] = seg;
    if (seg.length < 3 || seg.length > 4 || !field || !op || value === undefined) {
      details.push({
        param: "filters",
        reason: "invalid_format",
        expected: "field:op:value[:unit], e.g. per:lte:15",
      });
      continue;
    }
    if (!FIELD_KEY.test(field)) {
      details.push({
        param: "filters",
        reason: "invalid_format",
        expected: "a metric key of /screening/fields, e.g. marketCap",
      });
    } else if (!(FILTER_OPS as readonly string[]).includes(op)) {
      details.push({ param: "filters", reason: "unknown_value", expected: FILTER_OPS.join(", ") });
    } else if (!NUMBER_TEXT.test(value)) {
      details.push({ param: "filters", reason: "invalid_format", expected: "a numeric threshold" });
    } else if (unit !== undefined && !(SCREENING_UNITS as readonly string[]).includes(unit)) {
      details.push({
        param: "filters",
        reason: "unknown_value",
        expected: SCREENING_UNITS.join(", "),
      });
    }
  }
  return parts.length;
}

function checkEarliest(param: string, value: ParamValue | undefined, details: ErrorDetail[]): void {
  if (typeof value === "string" && isRealDate(value) && value < EARLIEST_DATE) {
    details.push({ param, reason: "out_of_range", expected: `${EARLIEST_DATE} or later` });
  }
}

type IndustryNames = typeof import("./industry-names");
let loadedNames: IndustryNames | undefined;
const fetchIndustryNames = lazyCode(
  () => import(/* webpackChunkName: "industry-names" */ "./industry-names"),
);

/**
 * Whether validating `params` of `opId` reads the TSE sector / industry names (a lazy chunk, off
 * the runtime page: only screening and the securities list take them). Await
 * `loadIndustryNames()` first when it does.
 */
export function needsIndustryNames(
  opId: OperationId,
  params: Readonly<Record<string, unknown>>,
): boolean {
  if (opId === "getScreening") return params.sector != null || params.industry != null;
  return opId === "listSecurities" && params.industry != null;
}

/** Fetches the TSE name tables once (see needsIndustryNames); a failed load is a ConnectionError. */
export async function loadIndustryNames(): Promise<void> {
  loadedNames ??= await fetchIndustryNames();
}

function industryNames(): IndustryNames {
  if (loadedNames === undefined)
    throw new Error("TSE industry names not loaded: await loadIndustryNames() first");
  return loadedNames;
}

/** Endpoint-specific rules the parameter table cannot express. */
function checkOperationRules(
  opId: OperationId,
  params: CleanParams,
  details: ErrorDetail[],
  now: () => number,
): void {
  if (opId === "getScreening") {
    let conditions = 0;
    if (typeof params.filters === "string") conditions += checkFilters(params.filters, details);
    if (params.sector !== undefined) conditions += 1;
    if (params.industry !== undefined) conditions += 1;
    if (params.sector !== undefined || params.industry !== undefined)
      industryNames().checkScreeningNames(params, details);
    // openapi.json getScreening: filters + sector + industry, never above 20.
    if (conditions > MAX_SCREENING_CONDITIONS) {
      details.push({
        param: "filters",
        reason: "too_many_items",
        expected: `at most ${MAX_SCREENING_CONDITIONS} conditions (filters + sector + industry); got ${conditions}`,
      });
    }
    const asOf = params.as_of;
    if (typeof asOf === "string" && asOf !== "now") {
      if (!isRealDate(asOf)) {
        if (!details.some((d) => d.param === "as_of")) {
          details.push({ param: "as_of", reason: "invalid_format", expected: "now or YYYY-MM-DD" });
        }
      } else if (asOf < EARLIEST_DATE || asOf > todayJst(now())) {
        details.push({
          param: "as_of",
          reason: "out_of_range",
          expected: `${EARLIEST_DATE}..today (JST)`,
        });
      }
    }
  }
  if (opId === "listSecurities" && typeof params.industry === "string")
    industryNames().checkSecuritiesIndustry(params, details);
  if (opId === "getPrices") {
    // openapi.json getPrices: dates not before 2005-01-01.
    checkEarliest("from", params.from, details);
    checkEarliest("to", params.to, details);
  }
}

/**
 * Validates and cleans `params` against one operation rule; throws ValidationError listing every
 * problem (openapi.json ErrorDetail reasons). Blank values (undefined, null, "") count as omitted.
 */
function checkParams(
  opId: OperationId,
  rule: OperationRule,
  params: Readonly<Record<string, unknown>>,
  options: ValidateOptions = {},
): CleanParams {
  const details: ErrorDetail[] = [];
  const clean: CleanParams = {};
  const known = new Set(rule.params.map((p) => p.name));
  for (const name of Object.keys(params)) {
    if (!known.has(name) && !isBlank(params[name])) {
      details.push({
        param: name,
        reason: "invalid",
        expected: known.size > 0 ? `one of ${[...known].join(", ")}` : "no parameters",
      });
    }
  }
  const oneOf = rule.exactlyOneOf ?? [];
  for (const p of rule.params) {
    const raw = params[p.name];
    if (isBlank(raw)) {
      if (p.required && !oneOf.includes(p.name)) details.push({ param: p.name, reason: "missing" });
      continue;
    }
    const checked = checkValue(p, raw);
    if (typeof checked === "object") details.push(checked);
    else clean[p.name] = checked;
  }
  if (oneOf.length > 0) {
    const given = oneOf.filter((n) => !isBlank(params[n]));
    const expected = `exactly one of ${oneOf.join(", ")}`;
    // One detail per parameter, as the API reports it (openapi.json getFinancials: `missing` /
    // `conflict`).
    if (given.length === 0)
      for (const name of oneOf) details.push({ param: name, reason: "missing", expected });
    if (given.length > 1)
      for (const name of given) details.push({ param: name, reason: "conflict", expected });
  }
  checkOperationRules(opId, clean, details, options.now ?? Date.now);
  if (details.length > 0) throw new ValidationError(details, { values: params });
  return clean;
}

/**
 * Validates parameters of `opId` against the generated contract rules (OPERATIONS).
 *
 * @example validateParams("getFinancials", { security_code: 7203, years: "5" })
 * // -> { security_code: "7203", years: 5 }
 */
export function validateParams(
  opId: OperationId,
  params: Readonly<Record<string, unknown>>,
  options: ValidateOptions = {},
): CleanParams {
  return checkParams(opId, OPERATIONS[opId], params, options);
}
