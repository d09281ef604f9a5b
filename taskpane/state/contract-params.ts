// The contract's parameter rules as the pane's forms and builder use them: enums, patterns, bounds
// and defaults read from OPERATIONS (src/contract, generated from openapi.json), never copied.

import { OPERATIONS, type OperationId } from "../../src/contract";
import type { ParamRule } from "../../src/contract/rules";
import type { ParamsOf } from "../../src/client/types";

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
export function eitherPattern(op: OperationId, a: string, b: string): string {
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
