// The Problems list: KAISHA formula cells whose value is an Excel error, with the best message available.

import type { KaishaCell } from "../excel/formulas";

const ERROR_VALUE =
  /^#(N\/A|VALUE!|REF!|NAME\?|BUSY!|CALC!|SPILL!|NUM!|DIV\/0!|NULL!|FIELD!|CONNECT!|BLOCKED!|UNKNOWN!|GETTING_DATA)/;

export interface Problem {
  sheet: string;
  address: string;
  formula: string;
  error: string;
  /** the message the function attached (valuesAsJson), when the host exposes it. */
  message?: string;
}

export function isErrorValue(value: unknown): value is string {
  return typeof value === "string" && ERROR_VALUE.test(value);
}

export function problemsOf(cells: readonly KaishaCell[]): Problem[] {
  return cells.flatMap((c) => {
    const error = isErrorValue(c.value) ? c.value : c.errorType ? `#${c.errorType}` : undefined;
    if (!error) return [];
    const p: Problem = { sheet: c.sheet, address: c.address, formula: c.formula, error };
    if (c.errorMessage) p.message = c.errorMessage;
    return [p];
  });
}

/** The i18n key of the generic explanation for an error value. */
export function genericErrorKey(
  error: string,
): "err_NotAvailable" | "err_Value" | "err_Busy" | "err_other" {
  if (error.startsWith("#N/A") || error === "#NotAvailable") return "err_NotAvailable";
  if (error.startsWith("#VALUE") || error === "#Value") return "err_Value";
  if (error.startsWith("#BUSY") || error.startsWith("#GETTING_DATA") || error === "#Busy")
    return "err_Busy";
  return "err_other";
}
