// Which identifier arguments the spec forbids (openapi.json info.description), judged as leniently
// as any sensible normalisation could: a value this calls invalid must never cost a request.

export type IdentifierKind = "company" | "security" | "doc" | "person";

const PATTERNS: Record<IdentifierKind, RegExp[]> = {
  company: [/^[0-9A-Z]{4,5}$/, /^[EG]\d{5}$/],
  security: [/^[0-9A-Z]{4,5}$/],
  doc: [/^(S[0-9A-Z]{7}|\d{14})$/],
  person: [/^\d+$/],
};

/**
 * The identifier text a cell value could stand for: a 1×1 range unwrapped, whole numbers as
 * digits, text NFKC-normalised (full-width to ASCII), trimmed and upper-cased. Undefined when no
 * normalisation can make an identifier of it (ranges, booleans, fractions, non-finite numbers...).
 */
function identifierText(value: unknown): string | undefined {
  let v = value;
  if (
    Array.isArray(v) &&
    v.length === 1 &&
    Array.isArray(v[0]) &&
    (v[0] as unknown[]).length === 1
  ) {
    v = (v[0] as unknown[])[0];
  }
  // Excel data types (src/excel/rich-value.ts): a formatted number or typed text stands for its
  // basic value.
  if (typeof v === "object" && v !== null && !Array.isArray(v)) {
    const rich = v as { type?: unknown; basicValue?: unknown };
    if (
      (rich.type === "Double" && typeof rich.basicValue === "number") ||
      (rich.type === "String" && typeof rich.basicValue === "string")
    )
      v = rich.basicValue;
  }
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : undefined;
  if (typeof v === "string") return v.normalize("NFKC").trim().toUpperCase();
  return undefined;
}

/**
 * A company may also be named (a name or part of one, looked up through /securities?q=,
 * openapi.json listSecurities q at most 100 characters), written with an exchange (XTKS:7203,
 * 7203.T, 7203 JP), or by its EDINET code where a security code is needed (resolved through the
 * organization).
 */
function isCompanyName(text: string): boolean {
  return /\p{L}/u.test(text) && text.length >= 2 && text.length <= 100;
}

/** True when the spec forbids `value` as an identifier of this kind, under any sensible reading. */
export function isForbiddenIdentifier(kind: IdentifierKind, value: unknown): boolean {
  const text = identifierText(value);
  if (text === undefined || text === "") return true;
  if ((kind === "company" || kind === "security") && isCompanyName(text)) return false;
  const patterns =
    kind === "security" ? [...PATTERNS.security, ...PATTERNS.company] : PATTERNS[kind];
  return !patterns.some((p) => p.test(text));
}
