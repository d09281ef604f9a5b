// English labels for metric keys (the API gives Japanese labels only), used by search and the English UI.

import { tableLabel } from "./english-labels";

const ACRONYMS = new Set([
  "per",
  "pbr",
  "psr",
  "pcfr",
  "roe",
  "roa",
  "roic",
  "eps",
  "bps",
  "dps",
  "cfps",
  "ev",
  "ebit",
  "ebitda",
  "fcf",
  "cf",
  "doe",
  "ghg",
  "yoy",
  "jsf",
  "pl",
  "bs",
  "r",
  "d",
  "sga",
  "aoci",
  "ppe",
]);

/**
 * The English name of a metric or field: the table's (english-labels.ts), else one read from a
 * camelCase or snake_case key the table does not know yet (a metric the API added since).
 * @example englishLabel("marketCap") // "Market cap"; englishLabel("per") // "PER"
 */
export function englishLabel(key: string): string {
  return tableLabel(key) ?? labelFromKey(key);
}

/** @example labelFromKey("newMetricPct") // "New metric pct" */
function labelFromKey(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/_/g, " ")
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== "");
  const out = words.map((w, i) => {
    if (ACRONYMS.has(w)) return w.toUpperCase();
    return i === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w;
  });
  return out.join(" ");
}

/** Normalises text for matching: NFKC (full-width to half-width), lower case, no spaces. */
function searchNormalize(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/[\s_]/g, "");
}

/** Items whose key, Japanese label or English label contains the search text (list order kept). */
export function searchItems<T extends { key: string; label: string }>(
  items: readonly T[],
  text: string,
): T[] {
  const q = searchNormalize(text);
  if (q === "") return [...items];
  return items.filter(
    (f) =>
      searchNormalize(f.key).includes(q) ||
      searchNormalize(f.label).includes(q) ||
      searchNormalize(englishLabel(f.key)).includes(q),
  );
}
