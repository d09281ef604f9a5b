// The one place mapping failures to cell errors: #VALUE! for arguments, #N/A for the rest.

import { isKaishaError, type KaishaError } from "../src/client";
import type { PeriodArg } from "../src/excel/fiscal-year-arg";
import { ArgumentError } from "../src/excel/args";
import { isFutureDate } from "../src/excel/dates";
import { ResultTooLargeError } from "../src/excel/limits";
import type { Lang } from "../src/session";

/** Error codes that can carry a custom message (Microsoft Learn: only these two show one). */
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
 * @internal Tests check the stand-in's shape; the product makes it through cellError.
 */
export class LocalCellError extends Error implements CellError {
  override readonly name = "CustomFunctions.Error";
  readonly code: string;

  constructor(code: string, message?: string) {
    super(message ?? "");
    this.code = code;
  }
}

/**
 * Excel truncates long messages in the error tooltip; keep them short and actionable.
 * @internal Tests check the tooltip cut against it.
 */
export const MAX_MESSAGE_CHARS = 200;

/** Where a clipped message may end: after a list separator or a space, never inside a word. */
const BREAKS = [". ", "; ", ", ", "。", "、", "，", "；", " "];

function clip(message: string): string {
  if (message.length <= MAX_MESSAGE_CHARS) return message;
  const head = message.slice(0, MAX_MESSAGE_CHARS - 1);
  const cut = Math.max(...BREAKS.map((b) => head.lastIndexOf(b)));
  // A break in the second half keeps most of the text; else (one long token) cut where it is.
  const end = cut > MAX_MESSAGE_CHARS / 2 ? cut : head.length;
  return `${message.slice(0, end).trimEnd()}…`;
}

/** The whole text of a clipped message, by the error that carries the clipped one. */
const fullMessages = new WeakMap<object, string>();

/**
 * A cell error with `code` and `message`: `CustomFunctions.Error` when the runtime has it. A message
 * over MAX_MESSAGE_CHARS is cut at a word or list boundary for the cell's tooltip; the whole of it
 * stays readable through `fullMessageOf` (the Problems list shows it, taskpane/state/problems.ts).
 */
export function cellError(code: CellErrorCode, message: string): CellError {
  const text = clip(message);
  const runtime = (
    globalThis as { CustomFunctions?: { Error?: new (code: never, message?: string) => CellError } }
  ).CustomFunctions;
  const err =
    runtime?.Error !== undefined
      ? new runtime.Error(code as never, text)
      : new LocalCellError(code, text);
  if (text !== message) fullMessages.set(err, message);
  return err;
}

/** The message as the function wrote it, before clipping for the cell. */
export function fullMessageOf(err: CellError): string | undefined {
  return fullMessages.get(err) ?? err.message;
}

/** The host's cell error class, when the runtime has one. */
function runtimeErrorClass(): (new (...a: never[]) => unknown) | undefined {
  return (globalThis as { CustomFunctions?: { Error?: new (...a: never[]) => unknown } })
    .CustomFunctions?.Error;
}

/** True for a value already made by cellError (thrown through unchanged). */
function isCellError(err: unknown): err is CellError {
  if (err instanceof LocalCellError) return true;
  const runtime = runtimeErrorClass();
  return runtime !== undefined && err instanceof runtime;
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
function futureDate(iso: string, today: string): FunctionError {
  return noData(
    `The date ${iso} is in the future (today is ${today}): give a date up to today`,
    `${iso} は未来の日付です（今日は ${today}）：今日までの日付を指定してください`,
  );
}

/**
 * Refuses a period argument that is a date not reached yet (a date names the period ended on or
 * before it, and none has ended in the future), before any request. The user's own today east
 * of Japan, a day ahead of JST, is the latest period (src/excel/dates.ts isFutureDate).
 */
export function refuseFutureDate(
  arg: PeriodArg | undefined,
  today: string,
  userToday: string,
): void {
  if (arg?.spec.kind === "onOrBefore" && isFutureDate(arg.spec.iso, today, userToday))
    throw futureDate(arg.spec.iso, today);
}

/**
 * Refuses a date argument (a range's `from`/`to`, an `as_of`) not reached yet, before any request.
 * The user's own today east of Japan is the latest day, not the future (src/excel/dates.ts
 * isFutureDate); the query then names JST today (upToToday), never a day the API has not reached.
 */
export function refuseFutureDay(iso: string | undefined, today: string, userToday: string): void {
  if (iso !== undefined && isFutureDate(iso, today, userToday)) throw futureDate(iso, today);
}

/**
 * Refuses a date range before any request: one starting after today holds nothing yet (say so
 * rather than answer nothing), and one starting after its `to` is reversed (#VALUE! on `from`).
 */
export function refuseRange(
  start: string | undefined,
  end: string | undefined,
  today: string,
  userToday: string,
): void {
  refuseFutureDay(start, today, userToday);
  if (start !== undefined && end !== undefined && start > end) {
    throw new ArgumentError(
      "from",
      { en: `a date on or before to (${end})`, ja: `to（${end}）以前の日付` },
      start,
    );
  }
}

function kaishaCell(err: KaishaError, lang: Lang): CellError {
  const text = err.localized(lang);
  // openapi.json ErrorResponse: a 400 means the arguments must change; everything else is "not
  // available now".
  return cellError(err.code === "invalid_parameter" ? INVALID_VALUE : NOT_AVAILABLE, text);
}

/** The cell error made for an error object, with the language and host class it was made for. */
interface MadeCellError {
  readonly lang: Lang;
  readonly host: unknown;
  readonly cell: CellError;
}

const madeFor = new WeakMap<object, MadeCellError>();

/**
 * toCellError, made once per error object and language: an error remembered per answer
 * (functions/cells/answer-index.ts, a model's #N/A cells) gives the same cell error on every
 * recalculation instead of a new Error, and its stack, per cell and call. Excel's runtime only
 * reads a rejection's code and message (custom-functions-runtime.js `_setErrorWithOutboundData`).
 *
 * @example sharedCellError(remembered, "en") === sharedCellError(remembered, "en") // true
 */
export function sharedCellError(err: unknown, lang: Lang): CellError {
  if (typeof err !== "object" || err === null) return toCellError(err, lang);
  const host = runtimeErrorClass();
  const made = madeFor.get(err);
  if (made !== undefined && made.lang === lang && made.host === host) return made.cell;
  const cell = toCellError(err, lang);
  madeFor.set(err, { lang, host, cell });
  return cell;
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
