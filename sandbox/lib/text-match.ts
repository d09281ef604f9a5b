// Normalization for partial name matches: full-width/half-width and case differences do not matter.

/** NFKC (full-width letters and digits become ASCII, half-width kana become full-width), lower case. */
export function normalizeText(text: string): string {
  return text.normalize("NFKC").toLowerCase().trim();
}
