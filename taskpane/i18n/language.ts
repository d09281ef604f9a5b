// Chooses the pane language: ?lang= query, then the saved override, then Office, then the browser.

export type Lang = "ja" | "en";
export type LangSetting = Lang | "auto";

/** localStorage key of the user's language override (a preference, not a secret). */
export const LANG_STORAGE_KEY = "kaisha.lang";

function asLang(value: string | null | undefined): Lang | undefined {
  if (!value) return undefined;
  const v = value.toLowerCase();
  if (v === "ja" || v.startsWith("ja-")) return "ja";
  if (v === "en" || v.startsWith("en-")) return "en";
  return undefined;
}

export interface LanguageInputs {
  /** `lang` query parameter (tests). */
  query?: string | null | undefined;
  /** the saved override. */
  saved?: string | null | undefined;
  /** Office.context.displayLanguage, e.g. "ja-JP". */
  office?: string | null | undefined;
  /** navigator.language. */
  browser?: string | null | undefined;
}

/**
 * @example resolveLanguage({ office: "ja-JP" }) // "ja"
 * Office languages other than Japanese give English; with nothing known, Japanese (the audience).
 */
export function resolveLanguage(inputs: LanguageInputs): Lang {
  const query = asLang(inputs.query);
  if (query) return query;
  const saved = asLang(inputs.saved);
  if (saved) return saved;
  if (inputs.office) return asLang(inputs.office) ?? "en";
  if (inputs.browser) return asLang(inputs.browser) ?? "en";
  return "ja";
}

/**
 * Replaces `{name}` placeholders, and `{name|one|other}` with the count and the word its number
 * takes ("1 company", "3 companies"; English counts: Japanese has no plural form to choose).
 */
export function format(template: string, vars: Record<string, string | number>): string {
  return template.replace(
    /\{(\w+)(?:\|([^|{}]*)\|([^|{}]*))?\}/g,
    (whole, name: string, one?: string, other?: string) => {
      if (!(name in vars)) return whole;
      const value = vars[name] as string | number;
      if (one === undefined || other === undefined) return String(value);
      return `${value} ${Number(value) === 1 ? one : other}`;
    },
  );
}
