// What a cell holds: a formula, a KAISHA formula, or text that looks like one (kept text by "@").

/**
 * Excel's Text format. Microsoft's reference for Range.values: "If the returned value starts with a
 * plus ("+"), minus ("-"), or equal sign ("="), Excel interprets this value as a formula"; a cell
 * formatted as Text keeps what is written as text (and keeps "2024/03" or "0012" from turning into a
 * date or a number). OWASP's CSV-injection guidance adds "@", tab and CR: the Text format covers
 * those too, so every string gets it, not only the ones that look dangerous today.
 */
export const TEXT_FORMAT = "@";

/** A call to one of the add-in's functions: `KAISHA.` not inside a longer name (`MYKAISHA.X(`). */
const KAISHA_CALL = /(?<![A-Z0-9_.])KAISHA\.[A-Z][A-Z0-9_.]*\s*\(/i;
/** Excel's text literals ("…", "" inside) and quoted sheet names ('…', '' inside). */
const QUOTED = /"(?:[^"]|"")*"|'(?:[^']|'')*'/g;

/**
 * True when a formula (Range.formulas text) calls a KAISHA function anywhere, in any case, also
 * inside Excel's own (`=IFERROR(KAISHA.PRICE(7203),0)`). A formula starts with "=": " =KAISHA…" is
 * text. A call written inside a text literal (`="KAISHA.PRICE(7203)"`) is not a call. A Text cell
 * holding "=KAISHA…" reads the same from Range.formulas: tell it apart with `isFormulaCell`.
 * @example isKaishaFormula("=kaisha.price(7203)") // true
 */
export function isKaishaFormula(formula: unknown): formula is string {
  return (
    typeof formula === "string" &&
    formula.startsWith("=") &&
    KAISHA_CALL.test(formula.replace(QUOTED, '""'))
  );
}

/**
 * True when a cell holds a formula, not text that looks like one: Range.formulas gives a Text cell's
 * own text (an API name "=KAISHA.USAGE()" written as text), which its value repeats; a formula's
 * value is its result. Freeze and Restore must never take such text for a formula.
 */
export function isFormulaCell(formula: unknown, value: unknown): formula is string {
  return typeof formula === "string" && formula.startsWith("=") && formula !== value;
}
