// Disclosure HTML -> plain text, split into rows so that no cell passes Excel's 32,767-character limit.

import { MAX_CELL_CHARS } from "./limits";
import { ownValue } from "./own-key";

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ensp: " ",
  emsp: " ",
  thinsp: " ",
  ndash: "–",
  mdash: "—",
  hellip: "…",
  yen: "¥",
  times: "×",
  middot: "·",
  laquo: "«",
  raquo: "»",
  copy: "©",
  reg: "®",
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === "#") {
      const code =
        body[1] === "x" || body[1] === "X"
          ? parseInt(body.slice(2), 16)
          : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff
        ? String.fromCodePoint(code)
        : whole;
    }
    return ownValue(NAMED_ENTITIES, body.toLowerCase()) ?? whole;
  });
}

/**
 * HTML (or plain text) -> readable text: block ends become line breaks, table cells tabs, scripts
 * and styles dropped, entities decoded, runs of blank lines collapsed.
 */
export function htmlToText(html: string): string {
  const text = html
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, "")
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/(td|th)\s*>/gi, "\t")
    .replace(/<\/(p|div|tr|li|h[1-6]|table|section|article|blockquote|dd|dt)\s*>/gi, "\n")
    .replace(/<(p|div|tr|li|h[1-6]|table)\b[^>]*>/gi, "\n")
    .replace(/<[^>]+>/g, "");
  return decodeEntities(text)
    .replace(/\r\n?/g, "\n")
    .replace(/[ \t\u00a0]+\n/g, "\n")
    .replace(/\n[ \t\u00a0]+/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * Splits text into cells: one per paragraph (blank-line or line-break separated, empty ones
 * dropped), and any paragraph longer than `maxChars` into consecutive pieces, never splitting a
 * surrogate pair.
 */
export function splitForCells(text: string, maxChars = MAX_CELL_CHARS): string[] {
  const out: string[] = [];
  for (const raw of text.split(/\n+/)) {
    const para = raw.trim();
    if (para === "") continue;
    let rest = para;
    while (rest.length > maxChars) {
      let cut = maxChars;
      const code = rest.charCodeAt(cut - 1);
      if (code >= 0xd800 && code <= 0xdbff) cut -= 1; // keep a surrogate pair together
      out.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    out.push(rest);
  }
  return out;
}

/** Text cut to one cell, with an ellipsis when cut. */
export function truncateForCell(text: string, maxChars = MAX_CELL_CHARS): string {
  return text.length <= maxChars ? text : `${text.slice(0, maxChars - 1)}…`;
}
