// Reads a cell's KAISHA formula back into the builder's form: the function and one input per argument.

import { parseKaishaCall } from "./refresh-cost";
import type { BuilderFunction } from "./function-catalogue";

/** What the builder opens on: the function and the text of each parameter's input. */
export interface ParsedFormula {
  name: string;
  values: Record<string, string>;
}

/** Why a formula cannot be opened in the builder. */
export type ParseRefusal = "not_kaisha" | "not_one_call" | "unknown_function" | "too_many_args";

/**
 * One argument as the builder's input holds it: quoted text unquoted ("" -> "), numbers and
 * TRUE/FALSE as typed, an empty slot as "", anything else (a reference such as B2 or $B$2, an
 * expression) as "=…", the builder's way of writing a reference (function-catalogue builderArgs).
 * @internal Tests check argument reading directly.
 */
export function argumentInput(arg: string): string {
  const a = arg.trim();
  if (a === "") return "";
  const quoted = /^"((?:[^"]|"")*)"$/.exec(a);
  if (quoted) return (quoted[1] ?? "").replace(/""/g, '"');
  if (/^-?\d+(\.\d+)?$/.test(a) || /^(TRUE|FALSE)$/i.test(a)) return a;
  return `=${a}`;
}

/**
 * The builder's form for a formula that is exactly one KAISHA call (`=KAISHA.FINANCIAL(7203,
 * "sales",-1)`), or why it is not: a formula around the call (`=KAISHA.PRICE(…)*2`) or an unknown
 * function cannot be edited field by field without losing something.
 * @example parseBuilderFormula('=KAISHA.FINANCIAL(7203,"sales",-1)', catalogue)
 * // { name: "FINANCIAL", values: { company: "7203", item: "sales", fiscal_period: "-1" } }
 */
export function parseBuilderFormula(
  formula: string,
  catalogue: readonly BuilderFunction[],
): ParsedFormula | ParseRefusal {
  const text = formula.trim();
  const call = parseKaishaCall(text);
  if (!call) return "not_kaisha";
  // Only "=KAISHA.NAME(...)" itself: no prefix (other than "=") and nothing after the call.
  if (!/^=\s*$/.test(text.slice(0, call.start)) || text.slice(call.end).trim() !== "")
    return "not_one_call";
  const fn = catalogue.find((f) => f.name === call.name);
  if (!fn) return "unknown_function";
  if (call.args.length > fn.params.length) return "too_many_args";
  const values: Record<string, string> = {};
  fn.params.forEach((p, i) => {
    const input = argumentInput(call.args[i] ?? "");
    if (input !== "") values[p.name] = input;
  });
  return { name: fn.name, values };
}
