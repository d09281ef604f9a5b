// What a cell holds: a formula, a KAISHA formula, or text that looks like one (kept text by "@").

/**
 * Excel's Text format. Microsoft's reference for Range.values: "If the returned value starts with a
 * plus ("+"), minus ("-"), or equal sign ("="), Excel interprets this value as a formula"; a cell
 * formatted as Text keeps what is written as text (and keeps "2024/03" or "0012" from turning into a
 * date or a number). OWASP's CSV-injection guidance adds "@", tab and CR: the Text format covers
 * those too, so every string gets it, not only the ones that look dangerous today.
 */
export const TEXT_FORMAT = "@";

const KAISHA_CALL = /KAISHA\.[A-Z]+\s*\(/i;

export function isKaishaFormula(formula: unknown): formula is string {
  return typeof formula === "string" && formula.startsWith("=") && KAISHA_CALL.test(formula);
}

/**
 * True when a cell holds a formula, not text that looks like one: Range.formulas gives a Text cell's
 * own text (an API name "=KAISHA.USAGE()" written as text), which its value repeats; a formula's
 * value is its result. Freeze and Restore must never take such text for a formula.
 */
export function isFormulaCell(formula: unknown, value: unknown): formula is string {
  return typeof formula === "string" && formula.startsWith("=") && formula !== value;
}
