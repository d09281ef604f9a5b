// `CustomFunctions.Error` and `CustomFunctions.ErrorCode` as Excel's runtime defines them, for both
// stand-ins (the preview page's custom-functions-standin.ts and the e2e stand-in's install.ts).

/** The error codes Excel's runtime defines (only #VALUE! and #N/A show a message). */
export const ErrorCode = {
  invalidValue: "#VALUE!",
  notAvailable: "#N/A",
  divisionByZero: "#DIV/0!",
  invalidNumber: "#NUM!",
  nullReference: "#NULL!",
  invalidName: "#NAME?",
  invalidReference: "#REF!",
} as const;

/** Same shape as `CustomFunctions.Error`: a code and an optional message. */
export class StandInError {
  readonly code: string;
  readonly message?: string;

  constructor(code: string, message?: string) {
    this.code = code;
    if (message !== undefined) this.message = message;
  }
}
