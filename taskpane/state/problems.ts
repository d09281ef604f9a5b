// The Problems list: KAISHA formula cells whose value is an Excel error, with the best message available.

import { getCellError, type RecordedCellError } from "../../src/cell-errors";
import type { KaishaCell } from "../excel/formulas";
import { qualify } from "./a1";

const ERROR_VALUE =
  /^#(N\/A|VALUE!|REF!|NAME\?|BUSY!|CALC!|SPILL!|NUM!|DIV\/0!|NULL!|FIELD!|CONNECT!|BLOCKED!|UNKNOWN!|GETTING_DATA)/;

export interface Problem {
  sheet: string;
  address: string;
  formula: string;
  error: string;
  /**
   * the message the function attached: from valuesAsJson where the host exposes it, otherwise the
   * one the function recorded for this cell in the shared runtime (src/cell-errors.ts).
   */
  message?: string;
}

/** Looks up a cell's recorded error by its sheet-qualified address ("'Q1 data'!B2"). */
export type CellErrorLookup = (address: string) => RecordedCellError | undefined;

function isErrorValue(value: unknown): value is string {
  return typeof value === "string" && ERROR_VALUE.test(value);
}

/**
 * The recorded message, when it explains the error the cell shows now: a #N/A record does not
 * explain a #REF! (the function was not even called), nor a #VALUE! record a #N/A.
 */
function recordedMessage(c: KaishaCell, error: string, lookup: CellErrorLookup) {
  const recorded = lookup(qualify(c.sheet, c.address));
  if (!recorded?.message) return undefined;
  const key = genericErrorKey(error);
  return key !== "err_other" && key === genericErrorKey(recorded.code)
    ? recorded.message
    : undefined;
}

/**
 * The host's message is the cell's tooltip, clipped to 200 characters ("…"); the recorded one is
 * the whole text when it continues the host's (the list shows messages in full).
 */
function bestMessage(host: string | undefined, recorded: string | undefined) {
  if (host === undefined) return recorded;
  if (recorded === undefined) return host;
  const clipped = host.endsWith("…") ? host.slice(0, -1) : undefined;
  return clipped !== undefined && recorded.startsWith(clipped) ? recorded : host;
}

export function problemsOf(
  cells: readonly KaishaCell[],
  lookup: CellErrorLookup = getCellError,
): Problem[] {
  return cells.flatMap((c) => {
    const error = isErrorValue(c.value) ? c.value : c.errorType ? `#${c.errorType}` : undefined;
    if (!error) return [];
    const p: Problem = { sheet: c.sheet, address: c.address, formula: c.formula, error };
    const message = bestMessage(c.errorMessage, recordedMessage(c, error, lookup));
    if (message) p.message = message;
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
