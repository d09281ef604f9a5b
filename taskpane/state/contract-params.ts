// The contract's parameter rules as the pane's forms and builder use them: enums, patterns, bounds
// and defaults read from OPERATIONS (src/contract, generated from openapi.json), never copied.

import { OPERATIONS, type OperationId } from "../../src/contract";
import type { ParamRule } from "../../src/contract/rules";
import type { ParamsOf } from "../../src/client";

/**
 * The rule of one parameter of an operation; a name the contract does not have throws, so a
 * renamed parameter fails the pane's tests instead of silently losing its check.
 */
export function paramRule(op: OperationId, name: string): ParamRule {
  const rule = OPERATIONS[op].params.find((p) => p.name === name);
  if (!rule) throw new Error(`openapi.json ${op} has no parameter ${name}`);
  return rule;
}

/** The accepted values of an enum parameter (openapi.json `enum`), in the contract's order. */
export function paramEnum(op: OperationId, name: string): readonly string[] {
  const values = paramRule(op, name).enum;
  if (!values) throw new Error(`openapi.json ${op} ${name} is not an enum`);
  return values;
}

/**
 * One pattern accepting either of two parameters' patterns: the pane's company fields take a
 * security code or an EDINET code (openapi.json getFinancials: exactly one of security_code and
 * edinet_code).
 *
 * @example eitherPattern("getFinancials", "security_code", "edinet_code")
 * // "^([0-9A-Z]{4,5}|[EG]\\d{5})$"
 */
function eitherPattern(op: OperationId, a: string, b: string): string {
  const bare = (name: string): string => {
    const p = paramRule(op, name).pattern;
    if (!p) throw new Error(`openapi.json ${op} ${name} has no pattern`);
    return p.replace(/^\^/, "").replace(/\$$/, "");
  };
  return `^(${bare(a)}|${bare(b)})$`;
}

/**
 * Form values (text, as typed and stored) as an operation's query: integers as numbers, text as
 * text, empty values left out; only `names` are taken.
 *
 * @example contractQuery("getFinancials", { period: "annual", years: "10" }, ["period", "years"])
 * // { period: "annual", years: 10 }
 */
export function contractQuery<O extends OperationId>(
  op: O,
  values: Readonly<Record<string, string | undefined>>,
  names: readonly string[],
): Partial<ParamsOf<O>> {
  const out: Record<string, string | number> = {};
  for (const name of names) {
    const v = (values[name] ?? "").trim();
    if (v === "") continue;
    out[name] = paramRule(op, name).type === "string" ? v : Number(v);
  }
  // Typed by the contract's own rule per name; the forms check values against the same rules
  // (datasets.ts checkParams) and the client validates every request again before sending.
  return out as Partial<ParamsOf<O>>;
}

/** openapi.json getFinancials edinet_code: an EDINET code (E or G and five digits). */
const EDINET_CODE = new RegExp(paramRule("getFinancials", "edinet_code").pattern ?? "^$");

/**
 * Whether a code is an EDINET code (openapi.json getFinancials edinet_code); anything else is
 * taken as a security code.
 */
export function isEdinetCode(code: string): boolean {
  return EDINET_CODE.test(code);
}

/** A company as the pane's code fields take it: a security code or an EDINET code. */
export const COMPANY_CODE_PATTERN = eitherPattern("getFinancials", "security_code", "edinet_code");

/**
 * The bounds of an operation's `limit` (openapi.json): the largest page it gives, the smallest
 * and its default.
 */
export function limitOf(op: OperationId): { min: number; max: number; default: number } {
  const r = paramRule(op, "limit");
  if (r.minimum === undefined || r.maximum === undefined || typeof r.default !== "number") {
    throw new Error(`openapi.json ${op} limit has no bounds`);
  }
  return { min: r.minimum, max: r.maximum, default: r.default };
}
