// The one place mapping failures to cell errors: #VALUE! for arguments, #N/A for the rest.

import { isKaishaError, type KaishaError } from "../src/client/errors";
import { ArgumentError } from "../src/excel/args";
import { ResultTooLargeError } from "../src/excel/limits";
import type { Lang } from "../src/session";

/** Error codes that can carry a custom message (REFERENCE: only these two show one). */
export const INVALID_VALUE = "#VALUE!";
export const NOT_AVAILABLE = "#N/A";
export type CellErrorCode = typeof INVALID_VALUE | typeof NOT_AVAILABLE;

/** What a thrown cell error looks like, whether the host's class or the local stand-in. */
export interface CellError {
  code: string;
  message?: string;
}

/**
 * Stand-in with the shape of `CustomFunctions.Error` where the runtime is absent (Node tests, the
 * preview page before its own stand-in loads).
 */
export class LocalCellError extends Error implements CellError {
  override readonly name = "CustomFunctions.Error";
  readonly code: string;

  constructor(code: string, message?: string) {
    super(message ?? "");
    this.code = code;
  }
}

/** Excel truncates long messages in the error tooltip; keep them short and actionable. */
export const MAX_MESSAGE_CHARS = 200;

function clip(message: string): string {
  return message.length <= MAX_MESSAGE_CHARS
    ? message
    : `${message.slice(0, MAX_MESSAGE_CHARS - 1)}…`;
}

/** A cell error with `code` and `message`: `CustomFunctions.Error` when the runtime has it. */
export function cellError(code: CellErrorCode, message: string): CellError {
  const text = clip(message);
  const runtime = (
    globalThis as { CustomFunctions?: { Error?: new (code: never, message?: string) => CellError } }
  ).CustomFunctions;
  if (runtime?.Error !== undefined) return new runtime.Error(code as never, text);
  return new LocalCellError(code, text);
}

/** True for a value already made by cellError (thrown through unchanged). */
export function isCellError(err: unknown): err is CellError {
  if (err instanceof LocalCellError) return true;
  const runtime = (globalThis as { CustomFunctions?: { Error?: new (...a: never[]) => unknown } })
    .CustomFunctions;
  return runtime?.Error !== undefined && err instanceof runtime.Error;
}

/** A failure this module knows how to word, in both languages. */
export class FunctionError extends Error {
  override readonly name = "FunctionError";
  readonly messageJa: string;
  readonly code: CellErrorCode;

  constructor(code: CellErrorCode, en: string, ja: string) {
    super(en);
    this.code = code;
    this.messageJa = ja;
  }
}

/** #N/A: nothing matched. `what` names it, e.g. `sales for 2019/03`. */
export function noData(en: string, ja: string): FunctionError {
  return new FunctionError(NOT_AVAILABLE, en, ja);
}

/**
 * #N/A for a date after today (the client's clock): no period has ended and no price exists on a
 * day not reached yet, and answering with today's figures would show a value for another day.
 */
export function futureDate(iso: string, today: string): FunctionError {
  return noData(
    `The date ${iso} is in the future (today is ${today}): give a date up to today`,
    `${iso} は未来の日付です（今日は ${today}）：今日までの日付を指定してください`,
  );
}

function kaishaCell(err: KaishaError, lang: Lang): CellError {
  const text = err.localized(lang);
  // spec 7: a 400 means the arguments must change; everything else is "not available now".
  return cellError(err.code === "invalid_parameter" ? INVALID_VALUE : NOT_AVAILABLE, text);
}

/**
 * Maps anything thrown by a function body to the cell error Excel shows.
 *
 * - ArgumentError, client ValidationError (400) -> #VALUE! naming the argument and what it accepts
 * - not found, no results, missing key, 401, 429 / daily limit, timeout, connection, 5xx,
 *   result too large, preview -> #N/A with what to do next
 *
 * @example toCellError(new ArgumentError("years", {en: "1-30", ja: "1〜30"}), "en").code // "#VALUE!"
 */
export function toCellError(err: unknown, lang: Lang): CellError {
  if (isCellError(err)) return err;
  if (err instanceof ArgumentError)
    return cellError(INVALID_VALUE, lang === "ja" ? err.messageJa : err.message);
  if (err instanceof FunctionError)
    return cellError(err.code, lang === "ja" ? err.messageJa : err.message);
  if (err instanceof ResultTooLargeError)
    return cellError(NOT_AVAILABLE, lang === "ja" ? err.messageJa : err.message);
  if (isKaishaError(err)) return kaishaCell(err, lang);
  return cellError(
    NOT_AVAILABLE,
    lang === "ja"
      ? "予期しないエラー：再計算するか Kaisha パネルを開き直してください"
      : "Unexpected error: recalculate, or reopen the Kaisha pane",
  );
}
