// Builds KAISHA formula text with properly quoted arguments (used by Insert formula and the builder).

/**
 * A formula argument: text is quoted, numbers are written as is, undefined leaves the slot empty,
 * and `{ ref }` (a cell reference or expression such as `$B$2`) is written as is, unquoted.
 */
export type FormulaArg = string | number | boolean | undefined | { ref: string };

/**
 * Quotes text for an Excel formula: doubled inner quotes, wrapped in quotes.
 * @example quoteText('a "b"') // '"a ""b"""'
 */
export function quoteText(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

function argText(arg: FormulaArg): string {
  if (arg === undefined) return "";
  if (typeof arg === "number") return Number.isFinite(arg) ? String(arg) : "";
  if (typeof arg === "boolean") return arg ? "TRUE" : "FALSE";
  if (typeof arg === "object") return arg.ref;
  return quoteText(arg);
}

/**
 * `=KAISHA.NAME(args)` with trailing empty arguments dropped and inner ones left empty.
 * @example kaishaFormula("FINANCIAL", ["7203", "sales", undefined, "annual"])
 * // '=KAISHA.FINANCIAL("7203","sales",,"annual")'
 */
export function kaishaFormula(name: string, args: readonly FormulaArg[]): string {
  const parts = args.map(argText);
  while (parts.length > 0 && parts[parts.length - 1] === "") parts.pop();
  return `=KAISHA.${name}(${parts.join(",")})`;
}

/** Text that is a whole number or decimal in the user's input becomes a number argument. */
export function numericOrText(raw: string): FormulaArg {
  const t = raw.trim();
  if (t === "") return undefined;
  return /^-?\d+(\.\d+)?$/.test(t) && !/^0\d/.test(t) ? Number(t) : t;
}
