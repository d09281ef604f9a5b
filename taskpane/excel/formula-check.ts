// Reads a worksheet formula token by token and says whether it calls only the functions a policy allows.

/**
 * What a formula may contain. Anything not listed is refused: other functions (WEBSERVICE, FILTERXML,
 * HYPERLINK, INDIRECT, CALL…), defined names (a name can hold any formula), structured and external
 * references (`[Book.xlsx]Sheet!A1` opens another file), control characters.
 */
export interface FormulaPolicy {
  /** Excel functions allowed besides KAISHA.* (upper case, without `_xlfn.`). */
  functions: ReadonlySet<string>;
  /** At least one KAISHA.* call is required (Restore formulas: only KAISHA formulas are restorable). */
  requireKaisha: boolean;
}

/** The verdict: `ok`, or the first part of the formula that was refused, as written. */
export type FormulaVerdict = { ok: true } | { ok: false; refused: string };

/** Pure worksheet functions: they compute from their arguments and reach nothing outside the sheet. */
const PURE_FUNCTIONS = [
  "IFERROR",
  "IFNA",
  "IF",
  "AND",
  "OR",
  "NOT",
  "ROUND",
  "ROUNDUP",
  "ROUNDDOWN",
  "ABS",
  "SUM",
  "MIN",
  "MAX",
  "AVERAGE",
  "DATE",
  "TODAY",
  "EDATE",
  "EOMONTH",
  "YEAR",
  "MONTH",
  "ISNUMBER",
  "ISTEXT",
  "ISBLANK",
  "MEDIAN",
  "COUNT",
  "INDEX",
  "RIGHT",
];

/**
 * Restore formulas: a recorded formula must call KAISHA, and besides it only pure
 * functions, so a crafted provenance row cannot smuggle `+WEBSERVICE(…)` or a defined name in.
 */
export const RESTORE_POLICY: FormulaPolicy = {
  functions: new Set(PURE_FUNCTIONS),
  requireKaisha: true,
};

/**
 * Formulas the pane's sheet builders write (company and peer sheets): KAISHA calls and the pure
 * functions their derived rows use (margins, growth, median/mean over the sheet's own cells).
 */
export const BUILDER_POLICY: FormulaPolicy = {
  functions: new Set(PURE_FUNCTIONS),
  requireKaisha: false,
};

const MAX_ROW = 1_048_576;
const MAX_COL = 16_384; // XFD

function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + ch.charCodeAt(0) - 64;
  return n;
}

/** A1 cell reference (`$B$2`, `XFD1048576`) within Excel's grid. */
function isCellRef(text: string): boolean {
  const m = /^\$?([A-Za-z]{1,3})\$?(\d{1,7})$/.exec(text);
  if (!m) return false;
  const row = Number(m[2]);
  return columnNumber(m[1] ?? "") <= MAX_COL && row >= 1 && row <= MAX_ROW;
}

/** Whole columns (`A:C`) or rows (`1:3`), one side of such a range. */
function isLineRef(text: string): boolean {
  const col = /^\$?([A-Za-z]{1,3})$/.exec(text);
  if (col) return columnNumber(col[1] ?? "") <= MAX_COL;
  const row = /^\$?(\d{1,7})$/.exec(text);
  return row !== null && Number(row[1]) >= 1 && Number(row[1]) <= MAX_ROW;
}

/** A sheet name inside this workbook: no brackets (external workbook) and none of Excel's forbidden characters. */
function isLocalSheetName(name: string): boolean {
  return name !== "" && !/[[\]:*?/\\]/.test(name) && !/\p{Cc}/u.test(name);
}

const ERROR_LITERAL = /^#(?:NULL!|DIV\/0!|VALUE!|REF!|NAME\?|NUM!|N\/A)/i;

/**
 * Checks `formula` (with its leading `=`) against `policy`.
 * @example checkFormula('=KAISHA.PRICE(A2)+WEBSERVICE("x")', RESTORE_POLICY) // { ok: false, refused: "WEBSERVICE" }
 */
export function checkFormula(formula: string, policy: FormulaPolicy): FormulaVerdict {
  if (!formula.startsWith("=")) return { ok: false, refused: formula.slice(0, 1) || "(empty)" };
  const text = formula.slice(1);
  let i = 0;
  let kaisha = false;
  const refuse = (what: string): FormulaVerdict => ({ ok: false, refused: what });
  while (i < text.length) {
    const ch = text.charAt(i);
    const rest = text.slice(i);
    if (ch === " ") {
      i += 1;
      continue;
    }
    if (ch === '"') {
      // A text literal: "" is an escaped quote; it must end.
      let j = i + 1;
      for (;;) {
        const q = text.indexOf('"', j);
        if (q < 0) return refuse(rest);
        if (text.charAt(q + 1) === '"') j = q + 2;
        else {
          j = q + 1;
          break;
        }
      }
      i = j;
      continue;
    }
    const number = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(rest);
    if (number && !/^[A-Za-z_]/.test(rest.slice(number[0].length).replace(/^:\$?\d+/, ""))) {
      // A number, or a row range such as 1:3.
      const row = /^\d+:\$?\d+/.exec(rest);
      i += (row ?? number)[0].length;
      continue;
    }
    if ("+-*/^&=<>%,(){};@".includes(ch)) {
      i += 1;
      continue;
    }
    const error = ERROR_LITERAL.exec(rest);
    if (error) {
      i += error[0].length;
      continue;
    }
    // A quoted sheet name: 'My sheet'!A1 ('' is an escaped quote).
    let sheet: string | undefined;
    if (ch === "'") {
      const m = /^'((?:[^']|'')*)'!/.exec(rest);
      if (!m) return refuse(rest);
      sheet = (m[1] ?? "").replace(/''/g, "'");
      if (!isLocalSheetName(sheet)) return refuse(m[0]);
      i += m[0].length;
    }
    const word = /^[A-Za-z_\\$][A-Za-z0-9_.$]*/.exec(text.slice(i));
    if (!word) return refuse(text.slice(i, i + 1));
    const name = word[0];
    const after = text.slice(i + name.length);
    if (sheet === undefined && after.startsWith("!")) {
      // An unquoted sheet name: the reference follows.
      if (!isLocalSheetName(name)) return refuse(name);
      i += name.length + 1;
      const ref = /^\$?[A-Za-z]{1,3}\$?\d{1,7}(?::\$?[A-Za-z]{1,3}\$?\d{1,7})?/.exec(text.slice(i));
      if (!ref || !ref[0].split(":").every(isCellRef)) return refuse(`${name}!`);
      i += ref[0].length;
      continue;
    }
    if (after.startsWith("(") && sheet === undefined) {
      const upper = name.toUpperCase().replace(/^_XLFN\./, "");
      if (/^KAISHA\.[A-Z][A-Z0-9]*$/.test(upper)) kaisha = true;
      else if (!policy.functions.has(upper)) return refuse(name);
      i += name.length + 1;
      continue;
    }
    if (sheet === undefined && (upper(name) === "TRUE" || upper(name) === "FALSE")) {
      i += name.length;
      continue;
    }
    // A reference: a cell, a cell range, whole columns; a spill reference may end with #.
    const range = /^[^\s+\-*/^&=<>%,(){};@#"']+/.exec(text.slice(i))?.[0] ?? name;
    const parts = range.split(":");
    const cells = parts.every(isCellRef) && parts.length <= 2;
    const lines = parts.length === 2 && parts.every(isLineRef);
    if (!cells && !lines) return refuse(range);
    i += range.length;
    if (text.charAt(i) === "#") i += 1;
  }
  if (policy.requireKaisha && !kaisha) return refuse("(no KAISHA function)");
  return { ok: true };
}

function upper(s: string): string {
  return s.toUpperCase();
}
