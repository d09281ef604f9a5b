// Checks an API answer before anyone reads it: required fields (from the contract), finite numbers, Excel-sized text.

import { RESPONSE_FIELDS } from "../contract/response-fields.generated";
import type { OperationId } from "../contract/rules";
import { BadResponseError } from "./errors";
import { MESSAGES } from "./messages";

/** Excel's limit on the characters of one cell's text. */
export const EXCEL_MAX_TEXT = 32_767;
/** Ends a text cut to Excel's limit, so a cut value never passes for the whole one. */
export const CUT_MARKER = "…[cut / 省略]";

interface Rule {
  name: string;
  kind: string;
  nullable: boolean;
  nested: Rule[];
}

/** Parses `a:s b:a(c:n d:o?) e:n?` (scripts/generate-types.ts buildResponseFields). */
function parseRules(text: string): Rule[] {
  let at = 0;
  const list = (): Rule[] => {
    const out: Rule[] = [];
    while (at < text.length && text[at] !== ")") {
      if (text[at] === " ") {
        at += 1;
        continue;
      }
      const m = /^([^:\s()]+):([a-z])(\??)/.exec(text.slice(at));
      if (m === null) throw new Error(`response rules: cannot read "${text.slice(at, at + 20)}"`);
      at += m[0].length;
      let nested: Rule[] = [];
      if (text[at] === "(") {
        at += 1;
        nested = list();
        at += 1; // ")"
      }
      out.push({ name: m[1] ?? "", kind: m[2] ?? "", nullable: m[3] === "?", nested });
    }
    return out;
  };
  return list();
}

const parsed = new Map<OperationId, Rule[]>();

function rulesFor(opId: OperationId): Rule[] {
  let rules = parsed.get(opId);
  if (rules === undefined) {
    rules = parseRules(RESPONSE_FIELDS[opId] ?? "");
    parsed.set(opId, rules);
  }
  return rules;
}

function fieldError(path: string): BadResponseError {
  return new BadResponseError(path, { kind: "field", message: MESSAGES.unexpectedField(path) });
}

function hasKind(value: unknown, kind: string): boolean {
  switch (kind) {
    case "a":
      return Array.isArray(value);
    case "o":
      return value !== null && typeof value === "object" && !Array.isArray(value);
    case "s":
      return typeof value === "string";
    case "n":
      return typeof value === "number";
    case "b":
      return typeof value === "boolean";
    default:
      return true;
  }
}

function checkFields(value: Record<string, unknown>, rules: Rule[], prefix: string): void {
  for (const rule of rules) {
    const path = `${prefix}${rule.name}`;
    const v = value[rule.name];
    if (v === null && rule.nullable) continue;
    if (!hasKind(v, rule.kind)) throw fieldError(path);
    if (rule.nested.length === 0) continue;
    if (Array.isArray(v)) {
      v.forEach((item, i) => {
        if (!hasKind(item, "o")) throw fieldError(`${path}[${i}]`);
        checkFields(item as Record<string, unknown>, rule.nested, `${path}[${i}].`);
      });
    } else checkFields(v as Record<string, unknown>, rule.nested, `${path}.`);
  }
}

/**
 * Refuses non-finite numbers (JSON.parse turns `1e999` into Infinity) and cuts strings longer than
 * Excel's cell limit with a marker. Returns `value` itself when nothing was cut (no copy).
 */
function clean(value: unknown, path: string): unknown {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw fieldError(path);
    return value;
  }
  if (typeof value === "string") {
    return value.length > EXCEL_MAX_TEXT
      ? value.slice(0, EXCEL_MAX_TEXT - CUT_MARKER.length) + CUT_MARKER
      : value;
  }
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, i) => {
      const next = clean(item, `${path}[${i}]`);
      if (next !== item) (copy ??= [...value])[i] = next;
    });
    return copy ?? value;
  }
  if (value !== null && typeof value === "object") {
    let copy: Record<string, unknown> | undefined;
    for (const [k, item] of Object.entries(value)) {
      const next = clean(item, path === "" ? k : `${path}.${k}`);
      if (next !== item) (copy ??= { ...(value as Record<string, unknown>) })[k] = next;
    }
    return copy ?? value;
  }
  return value;
}

/**
 * The answer of `opId` as callers may read it, or BadResponseError "unexpected answer from the API
 * (field x)" when a required field (contract: RESPONSE_FIELDS) is missing or of the wrong kind, or
 * a number is not finite. Unknown extra fields are kept (REFERENCE: the API keeps growing).
 * `requiredFields` false skips the field table (clients fed hand-made partial answers in tests).
 *
 * @example checkAnswer("getUsage", { remaining: 10 }) // { remaining: 10 }
 */
export function checkAnswer(opId: OperationId, body: unknown, requiredFields = true): unknown {
  if (!hasKind(body, "o")) throw fieldError("(answer)");
  if (requiredFields) checkFields(body as Record<string, unknown>, rulesFor(opId), "");
  return clean(body, "");
}
