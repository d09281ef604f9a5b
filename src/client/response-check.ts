// Checks an API answer before anyone reads it: every value of the type the contract gives it, no period twice, finite numbers, Excel-sized text.

import { RESPONSE_ROOTS, RESPONSE_SCHEMAS } from "../contract/generated/response-fields";
import type { OperationId } from "../contract/rules";
import { distinctPeriods } from "./duplicate-rows";
import { BadResponseError } from "./errors";
import { ANSWER_MESSAGES } from "./answer-messages";
import type { MessagePair } from "./messages";

/** The code pairs an answer states travel with the check (client.ts reads them from each checked answer). */
export { codePairsIn } from "./code-pairs";

/** Excel's limit on the characters of one cell's text. */
export const EXCEL_MAX_TEXT = 32_767;
/** Ends a text cut to Excel's limit, so a cut value never passes for the whole one. */
export const CUT_MARKER = "…[cut / 省略]";
/**
 * Deepest nesting of objects and arrays read. The contract's answers nest a few levels (an answer,
 * its list, an item, a sub-list); a body nested far deeper (200,000 levels fit in 1.2 MB) is refused
 * before any recursion could run out of stack, and the last good answer stands in.
 */
const MAX_ANSWER_DEPTH = 64;

// Type bits of a kind's letters (the generated file's grammar).
const STRING = 1;
const NUMBER = 2;
const INTEGER = 4;
const BOOLEAN = 8;
const ARRAY = 16;
const OBJECT = 32;
const LETTER_BITS: Readonly<Record<string, number>> = {
  s: STRING,
  n: NUMBER,
  i: INTEGER,
  b: BOOLEAN,
  a: ARRAY,
  o: OBJECT,
};

/** What a value must be (src/contract/generated/response-fields.ts, parsed once per schema). */
interface Kind {
  types: number;
  nullable: boolean;
  /** May be absent: not required, or a nullable scalar (absent reads as null). */
  optional: boolean;
  /** An enum's values (null aside). */
  values: ReadonlySet<string | number> | undefined;
  /** An array's items. */
  items: Kind | undefined;
  /** An object's properties (others are allowed: the API adds fields). */
  fields: readonly Field[] | undefined;
}

interface Field {
  name: string;
  kind: Kind;
}

/** Component schemas parsed so far; an entry is claimed before it is filled (a schema may reach itself). */
const schemas = new Map<string, Field[]>();

function schemaFields(name: string): Field[] {
  let fields = schemas.get(name);
  if (fields === undefined) {
    fields = [];
    schemas.set(name, fields);
    const text = RESPONSE_SCHEMAS[name];
    if (text === undefined) throw new Error(`response rules: no schema ${name}`);
    new RuleReader(text).fields(fields);
  }
  return fields;
}

/** Reads the generated rule text (scripts/generate-types.ts kindText). */
class RuleReader {
  private at = 0;
  constructor(private readonly text: string) {}

  fields(out: Field[]): void {
    const { text } = this;
    while (this.at < text.length && text[this.at] !== ")") {
      if (text[this.at] === " ") {
        this.at += 1;
        continue;
      }
      const colon = text.indexOf(":", this.at);
      if (colon < 0)
        throw new Error(`response rules: cannot read "${text.slice(this.at, this.at + 20)}"`);
      const name = text.slice(this.at, colon);
      this.at = colon + 1;
      out.push({ name, kind: this.kind() });
    }
  }

  kind(): Kind {
    const { text } = this;
    const m = /^([a-z]+)(\??)(\*?)/.exec(text.slice(this.at, this.at + 12));
    if (m === null)
      throw new Error(`response rules: cannot read "${text.slice(this.at, this.at + 20)}"`);
    this.at += m[0].length;
    let types = 0;
    for (const letter of m[1] ?? "") types |= LETTER_BITS[letter] ?? 0;
    const kind: Kind = {
      types,
      nullable: m[2] === "?",
      optional: m[3] === "*",
      values: undefined,
      items: undefined,
      fields: undefined,
    };
    const next = text[this.at];
    if (next === "{") {
      const end = text.indexOf("}", this.at);
      const words = text.slice(this.at + 1, end).split("|");
      kind.values = new Set<string | number>(types & STRING ? words : words.map(Number));
      this.at = end + 1;
    } else if (next === "<") {
      this.at += 1;
      kind.items = this.kind();
      this.at += 1; // ">"
    } else if (next === "(") {
      this.at += 1;
      const fields: Field[] = [];
      this.fields(fields);
      kind.fields = fields;
      this.at += 1; // ")"
    } else if (next === "@") {
      const m2 = /^@([A-Za-z0-9_]+)/.exec(text.slice(this.at));
      const name = m2?.[1] ?? "";
      this.at += 1 + name.length;
      kind.fields = schemaFields(name);
    }
    return kind;
  }
}

const roots = new Map<OperationId, Kind>();

function rootOf(opId: OperationId): Kind {
  let kind = roots.get(opId);
  if (kind === undefined) {
    kind = new RuleReader(RESPONSE_ROOTS[opId]).kind();
    roots.set(opId, kind);
  }
  return kind;
}

/** What `kind` holds, in words, for the message naming a value of another type. */
function expectedWords(kind: Kind): MessagePair {
  if (kind.values !== undefined) {
    const shown = [...kind.values].slice(0, 4).join(", ");
    const more = kind.values.size > 4 ? ", …" : "";
    return { en: `one of ${shown}${more}`, ja: `${shown}${more}のいずれか` };
  }
  const words: MessagePair[] = [];
  if (kind.types & STRING) words.push({ en: "text", ja: "文字列" });
  if (kind.types & NUMBER) words.push({ en: "a number", ja: "数値" });
  else if (kind.types & INTEGER) words.push({ en: "a whole number", ja: "整数" });
  if (kind.types & BOOLEAN) words.push({ en: "true or false", ja: "真偽値" });
  if (kind.types & ARRAY) words.push({ en: "a list", ja: "配列" });
  if (kind.types & OBJECT) words.push({ en: "an object", ja: "オブジェクト" });
  if (kind.nullable) words.push({ en: "empty (null)", ja: "空（null）" });
  return {
    en: words.map((w) => w.en).join(" or "),
    ja: words.map((w) => w.ja).join("または"),
  };
}

function fieldError(path: string): BadResponseError {
  return new BadResponseError(path, {
    kind: "field",
    message: ANSWER_MESSAGES.unexpectedField(path),
  });
}

/** Thrown from MAX_ANSWER_DEPTH down: no path is built (it would be as deep as the body). */
class TooDeep {}

/**
 * Where a bad field sits, built only when one is found: a 30-year answer has ~15,000 fields, and a
 * path string for each of them was most of the client's garbage on a cold model (bench).
 */
class BadField {
  readonly segments: string[] = [];
  /** The kind a present value did not have (a missing or non-finite one: undefined). */
  constructor(readonly expected?: Kind) {}
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

/**
 * Whether `value` (present) is of `kind`, its items and properties too: the fast pass every answer
 * takes (no path, no try/catch per field: a 30-year quarterly answer has ~15,000 values, and a
 * reopen reads back thousands of answers); `checkValue` runs only to name what failed.
 */
function passes(value: unknown, kind: Kind): boolean {
  switch (typeof value) {
    case "number":
      return (
        Number.isFinite(value) &&
        ((kind.types & NUMBER) !== 0 ||
          ((kind.types & INTEGER) !== 0 && Number.isInteger(value))) &&
        (kind.values === undefined || kind.values.has(value))
      );
    case "string":
      return (kind.types & STRING) !== 0 && (kind.values === undefined || kind.values.has(value));
    case "boolean":
      return (kind.types & BOOLEAN) !== 0;
    case "object": {
      if (value === null) return kind.nullable;
      if (Array.isArray(value)) {
        if ((kind.types & ARRAY) === 0) return false;
        const items = kind.items;
        if (items === undefined) return true;
        for (let i = 0; i < value.length; i += 1) if (!passes(value[i], items)) return false;
        return true;
      }
      if ((kind.types & OBJECT) === 0) return false;
      const fields = kind.fields;
      if (fields === undefined) return true;
      const record = value as Record<string, unknown>;
      for (let i = 0; i < fields.length; i += 1) {
        const field = fields[i] as Field;
        const v = record[field.name];
        if (v === undefined ? !field.kind.optional : !passes(v, field.kind)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

/** Throws BadField unless `value` (present) is of `kind`, its items and properties too. */
function checkValue(value: unknown, kind: Kind): void {
  switch (typeof value) {
    case "string":
      if ((kind.types & STRING) === 0) throw new BadField(kind);
      if (kind.values !== undefined && !kind.values.has(value)) throw new BadField(kind);
      return;
    case "number":
      // Infinity (JSON's 1e999) is refused as a bad field whatever the kind (`clean`).
      if (!Number.isFinite(value)) throw new BadField();
      if ((kind.types & NUMBER) === 0 && ((kind.types & INTEGER) === 0 || !Number.isInteger(value)))
        throw new BadField(kind);
      if (kind.values !== undefined && !kind.values.has(value)) throw new BadField(kind);
      return;
    case "boolean":
      if ((kind.types & BOOLEAN) === 0) throw new BadField(kind);
      return;
    case "object":
      if (value === null) {
        if (!kind.nullable) throw new BadField(kind);
        return;
      }
      if (Array.isArray(value)) {
        if ((kind.types & ARRAY) === 0) throw new BadField(kind);
        if (kind.items !== undefined) checkItems(value, kind.items);
        return;
      }
      if ((kind.types & OBJECT) === 0) throw new BadField(kind);
      if (kind.fields !== undefined) checkFields(value as Record<string, unknown>, kind.fields);
      return;
    default:
      throw new BadField(kind);
  }
}

function checkFields(value: Record<string, unknown>, fields: readonly Field[]): void {
  for (const field of fields) {
    const v = value[field.name];
    if (v === undefined) {
      if (field.kind.optional) continue;
      throw new BadField().at(field.name);
    }
    try {
      checkValue(v, field.kind);
    } catch (err) {
      below(err, field.name);
    }
  }
}

function checkItems(items: unknown[], kind: Kind): void {
  for (let i = 0; i < items.length; i += 1) {
    try {
      checkValue(items[i], kind);
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
 * (field x …)" when a value is not of the type the contract gives it (RESPONSE_ROOTS: a number
 * sent as text, a boolean, an object; a value outside its enum; a required field missing), a
 * number is not finite, or two rows of one period or date differ (duplicate-rows.ts; identical
 * ones are kept once); "nested too deeply" past MAX_ANSWER_DEPTH levels. Each is `kind: "field"`,
 * a content error the last good answer may stand in for (retry.ts canServeStale). Unknown extra
 * fields are kept (the API keeps adding fields). `contract` false skips the contract's types
 * and rows (clients fed hand-made partial answers in tests).
 *
 * @example checkAnswer("getUsage", { remaining: 10 }) // { remaining: 10 }
 */
export function checkAnswer(opId: OperationId, body: unknown, contract = true): unknown {
  if (!hasObjectKind(body)) throw fieldError("(answer)");
  try {
    if (contract) {
      const root = rootOf(opId);
      if (!passes(body, root)) checkValue(body, root);
    }
    const cleaned = clean(body, 0) as Record<string, unknown>;
    return contract ? distinctPeriods(opId, cleaned) : cleaned;
  } catch (err) {
    if (err instanceof TooDeep)
      throw new BadResponseError("nested too deeply", {
        kind: "field",
        message: ANSWER_MESSAGES.tooDeep(MAX_ANSWER_DEPTH),
      });
    if (!(err instanceof BadField)) throw err;
    const path = err.path();
    if (err.expected === undefined) throw fieldError(path);
    throw new BadResponseError(path, {
      kind: "field",
      message: ANSWER_MESSAGES.wrongType(path, expectedWords(err.expected)),
    });
  }
}

/** A JSON object (not an array, not null). */
function hasObjectKind(value: unknown): boolean {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
