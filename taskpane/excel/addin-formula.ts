// The only way a formula reaches the workbook: an AddinFormula, built by the add-in and checked here.

import { quoteText } from "../state/formula-text";
import { BUILDER_POLICY, checkFormula, RESTORE_POLICY, type FormulaPolicy } from "./formula-check";

/**
 * Thrown when the add-in's own code builds a formula its policy does not allow (a bug, not data).
 * @internal Tests check the refusal's class.
 */
export class UnsafeFormulaError extends Error {
  override readonly name = "UnsafeFormulaError";
  constructor(
    readonly formula: string,
    readonly refused: string,
  ) {
    super(`Refused to write a formula containing ${refused}`);
  }
}

/**
 * Excel limits a text value inside a formula to 255 characters; a longer link cannot be a HYPERLINK
 * (Microsoft Support, HYPERLINK function: link_location "up to 255 characters").
 */
const MAX_FORMULA_TEXT = 255;

/** Tab, CR, LF and the other C0 controls (and DEL): never inside a formula the add-in writes. */
function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * A formula the add-in built itself. Text from the API or the workbook is never one: the constructor
 * is private and each factory checks what it makes, so every writer in taskpane/excel/ can tell
 * a formula to write from a string to keep as text (safe-values.ts) by its type alone.
 */
export class AddinFormula {
  private constructor(readonly text: string) {
    Object.freeze(this);
  }

  /**
   * A formula of the pane's sheet builders: KAISHA calls, cell references, text and IFERROR only.
   * @example AddinFormula.sheet("=KAISHA.COMPANY($B$2)")
   */
  static sheet(formula: string): AddinFormula {
    return AddinFormula.#checked(formula, BUILDER_POLICY);
  }

  /**
   * A formula read back from the KaishaProvenance sheet, which anyone can edit: only KAISHA formulas
   * with pure helpers pass (RESTORE_POLICY); returns the refused part otherwise.
   */
  static restored(formula: string): AddinFormula | { refused: string } {
    const verdict = checkFormula(formula, RESTORE_POLICY);
    return verdict.ok ? new AddinFormula(formula) : { refused: verdict.refused };
  }

  /**
   * `=HYPERLINK(url, label)` for an http(s) URL, quotes doubled; undefined for anything else
   * (javascript:, file:, a UNC path, a URL with control characters or too long), which the caller
   * then writes as text.
   * @example AddinFormula.hyperlink("https://example.com/a.pdf", "PDF")
   */
  static hyperlink(url: string, label: string): AddinFormula | undefined {
    if (!/^https?:\/\/[^\s]+$/i.test(url) || hasControl(url + label)) {
      return undefined;
    }
    try {
      const parsed = new URL(url);
      if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return undefined;
    } catch {
      return undefined;
    }
    if (url.length > MAX_FORMULA_TEXT || label.length > MAX_FORMULA_TEXT) return undefined;
    return new AddinFormula(`=HYPERLINK(${quoteText(url)},${quoteText(label)})`);
  }

  static #checked(formula: string, policy: FormulaPolicy): AddinFormula {
    const verdict = checkFormula(formula, policy);
    if (!verdict.ok) throw new UnsafeFormulaError(formula, verdict.refused);
    return new AddinFormula(formula);
  }
}
