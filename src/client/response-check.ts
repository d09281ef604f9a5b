// Checks an API answer before anyone reads it: required fields (from the contract), finite numbers, Excel-sized text.

import { RESPONSE_FIELDS } from "../contract/response-fields.generated";
import type { OperationId } from "../contract/rules";
import { BadResponseError } from "./errors";
import { MESSAGES } from "./messages";

/** Excel's limit on the characters of one cell's text. */
export const EXCEL_MAX_TEXT = 32_767;
/** Ends a text cut to Excel's limit, so a cut value never passes for the whole one. */
export const CUT_MARKER = "…[cut / 省略]";
/**
 * Deepest nesting of objects and arrays read. The contract's answers nest a few levels (an answer,
 * its list, an item, a sub-list); a body nested far deeper (200,000 levels fit in 1.2 MB) is refused
 * before any recursion could run out of stack (issue 18), and the last good answer stands in.
 */
const MAX_ANSWER_DEPTH = 64;

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

/** Thrown from MAX_ANSWER_DEPTH down: no path is built (it would be as deep as the body). */
class TooDeep {}

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

/**
 * Where a bad field sits, built only when one is found: a 30-year answer has ~15,000 fields, and a
 * path string for each of them was most of the client's garbage on a cold model (bench).
 */
class BadField {
  readonly segments: string[] = [];
  at(segment: string): BadField {
    this.segments.push(segment);
    return this;
  }
  path(): string {
    let out = "";
    for (let i = this.segments.length - 1; i >= 0; i -= 1) {
      const seg = this.segments[i] as string;
      out += seg.startsWith("[") || out === "" ? seg : `.${seg}`;
    }
    return out;
  }
}

/** Adds `segment` to the path of a bad field found below it, and rethrows. */
function below(err: unknown, segment: string): never {
  if (err instanceof BadField) err.at(segment);
  throw err;
}

// No closures in the loops below: a loop body with one allocates a context per field.

function checkFields(value: Record<string, unknown>, rules: Rule[]): void {
  for (const rule of rules) {
    const v = value[rule.name];
    if (v === null && rule.nullable) continue;
    if (!hasKind(v, rule.kind)) throw new BadField().at(rule.name);
    if (rule.nested.length === 0) continue;
    try {
      if (Array.isArray(v)) checkItems(v, rule.nested);
      else checkFields(v as Record<string, unknown>, rule.nested);
    } catch (err) {
      below(err, rule.name);
    }
  }
}

function checkItems(items: unknown[], rules: Rule[]): void {
  for (let i = 0; i < items.length; i += 1) {
    const item: unknown = items[i];
    try {
      if (!hasKind(item, "o")) throw new BadField();
      checkFields(item as Record<string, unknown>, rules);
    } catch (err) {
      below(err, `[${i}]`);
    }
  }
}

/**
 * Refuses non-finite numbers (JSON.parse turns `1e999` into Infinity) and nesting deeper than
 * MAX_ANSWER_DEPTH, and cuts strings longer than Excel's cell limit with a marker. Returns `value`
 * itself when nothing was cut (no copy). The recursion is bounded by MAX_ANSWER_DEPTH.
 */
function clean(value: unknown, depth: number): unknown {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new BadField();
    return value;
  }
  if (typeof value === "string") {
    return value.length > EXCEL_MAX_TEXT
      ? value.slice(0, EXCEL_MAX_TEXT - CUT_MARKER.length) + CUT_MARKER
      : value;
  }
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_ANSWER_DEPTH) throw new TooDeep();
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i += 1) {
      const item: unknown = value[i];
      let next: unknown;
      try {
        next = clean(item, depth + 1);
      } catch (err) {
        below(err, `[${i}]`);
      }
      if (next !== item) (copy ??= [...value])[i] = next;
    }
    return copy ?? value;
  }
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const k in record) {
    const item = record[k];
    let next: unknown;
    try {
      next = clean(item, depth + 1);
    } catch (err) {
      below(err, k);
    }
    if (next !== item) (copy ??= { ...record })[k] = next;
  }
  return copy ?? value;
}

/**
 * The answer of `opId` as callers may read it, or BadResponseError "unexpected answer from the API
 * (field x)" when a required field (contract: RESPONSE_FIELDS) is missing or of the wrong kind, or
 * a number is not finite; "nested too deeply" past MAX_ANSWER_DEPTH levels. Each is `kind:
 * "field"`, a content error the last good answer may stand in for (retry.ts canServeStale). Unknown extra fields are kept (REFERENCE: the API keeps growing).
 * `requiredFields` false skips the field table (clients fed hand-made partial answers in tests).
 *
 * @example checkAnswer("getUsage", { remaining: 10 }) // { remaining: 10 }
 */
export function checkAnswer(opId: OperationId, body: unknown, requiredFields = true): unknown {
  if (!hasKind(body, "o")) throw fieldError("(answer)");
  try {
    if (requiredFields) checkFields(body as Record<string, unknown>, rulesFor(opId));
    return clean(body, 0);
  } catch (err) {
    if (err instanceof TooDeep)
      throw new BadResponseError("nested too deeply", {
        kind: "field",
        message: MESSAGES.tooDeep(MAX_ANSWER_DEPTH),
      });
    throw err instanceof BadField ? fieldError(err.path()) : err;
  }
}
