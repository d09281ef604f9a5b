// The pane's message tables and a translator bound to one language.

import { en, type Messages } from "./en";
import { ja } from "./ja";
import { format, type Lang } from "./language";

export type MessageKey = keyof Messages;
const TABLES: Record<Lang, Messages> = { en, ja };

export interface Translator {
  lang: Lang;
  /** @example t("keyVerified", { n: 3700 }) */
  (key: MessageKey, vars?: Record<string, string | number>): string;
}

export function translator(lang: Lang): Translator {
  const table = TABLES[lang];
  const t = ((key: MessageKey, vars?: Record<string, string | number>) =>
    vars ? format(table[key], vars) : table[key]) as Translator;
  t.lang = lang;
  return t;
}

/** Looks up a dynamic key (e.g. `opt_${value}`), falling back to the raw text. */
export function optional(t: Translator, key: string, fallback: string): string {
  const table = TABLES[t.lang] as Record<string, string>;
  return table[key] ?? fallback;
}
