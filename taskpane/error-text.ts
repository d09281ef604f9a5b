// Turns any error into the message the pane shows: the client's localized text for API errors.

import { isKaishaError, localizedMessage } from "../src/client";
import type { Translator } from "./i18n/messages";

/** An error whose message is already a localized sentence for the user (form checks). */
export class UserMessageError extends Error {
  override readonly name = "UserMessageError";
}

/** The message for an error, in the pane's language; never includes the key (the client redacts). */
export function errorText(err: unknown, t: Translator): string {
  // The client's wording sends the user to the pane; inside the pane, name the tab instead.
  if (isKaishaError(err) && err.code === "missing_key") return t("keyMissingInPane");
  if (isKaishaError(err)) return localizedMessage(err, t.lang);
  if (err instanceof Error) {
    if (err.name === "UserMessageError") return err.message;
    if (err.name === "TargetNotEmptyError") {
      return t("targetNotEmpty", { address: (err as Error & { address: string }).address });
    }
    if (err.name === "TypedDuringImportError") {
      const typed = err as Error & { address: string; replacedTable: string | undefined };
      return typed.replacedTable === undefined
        ? t("typedDuringImport", { address: typed.address })
        : t("typedDuringRefresh", { address: typed.address, table: typed.replacedTable });
    }
    if (err.name === "WriteCancelledError" || err.name === "AbortError")
      return t("importCancelled");
    if (err.name === "ExcelUnavailableError") return t("excelUnavailable");
    if (err.name === "ExcelApiMissingError") {
      return t("excelApiMissing", { version: (err as Error & { version: string }).version });
    }
    return t("errorUnexpected", { message: err.message });
  }
  return t("errorUnexpected", { message: String(err) });
}

/** True when the error is the user's own Cancel. */
export function isCancel(err: unknown): boolean {
  if (isKaishaError(err)) return err.code === "aborted";
  return err instanceof Error && (err.name === "AbortError" || err.name === "WriteCancelledError");
}
