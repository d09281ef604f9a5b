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

/** Replaces `{name}` placeholders. */
export function format(template: string, vars: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in vars ? String(vars[name]) : whole,
  );
}
