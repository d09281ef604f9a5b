// The sandbox's one exception type: it knows its own HTTP response in the common error shape
// (openapi.json ErrorResponse).
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ErrorDetail, ErrorResponse } from "../../src/contract";

/**
 * One entry of `error.details` (openapi.json ErrorResponse): `expected` is omitted when it cannot
 * be given.
 */
export type { ErrorDetail };

/**
 * openapi.json ErrorResponse: reasons that may appear in `error.details[].reason` (openapi.json's
 * ErrorDetail enum).
 */
export type DetailReason = ErrorDetail["reason"];

/** The common error body `{error: {code, message, details?}}` (openapi.json ErrorResponse). */
export type ErrorBody = ErrorResponse;

/** Longest piece of the caller's input an error message repeats (a 60 kB filter must
 * not come back whole in the answer, nor in logs that keep the message). */
export const MAX_QUOTED_INPUT = 200;
/** Backstop for a whole message whatever it quotes. */
const MAX_MESSAGE_LENGTH = 1_000;

/**
 * Cuts every quoted input ('...') longer than MAX_QUOTED_INPUT, saying how long it was, and the
 * whole message to MAX_MESSAGE_LENGTH. Messages quote user input in single quotes.
 * @example clipMessage(`Unknown metric '${"x".repeat(500)}'.`) // "Unknown metric 'xxx…(500 characters)'."
 */
function clipMessage(message: string): string {
  const clipped = message.replace(/'([^']*)'/g, (whole, inner: string) =>
    inner.length > MAX_QUOTED_INPUT
      ? `'${inner.slice(0, MAX_QUOTED_INPUT)}…(${inner.length} characters)'`
      : whole,
  );
  return clipped.length > MAX_MESSAGE_LENGTH
    ? `${clipped.slice(0, MAX_MESSAGE_LENGTH - 1)}…`
    : clipped;
}

/**
 * Thrown anywhere in a request; the app's error handler turns it into the response.
 * @example throw ApiError.notFound("Security 9999 was not found.")
 */
export class ApiError extends Error {
  override readonly name = "ApiError";
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers: Record<string, string> = {},
  ) {
    super(clipMessage(message));
  }

  /** 400 invalid_parameter with one or more details (openapi.json ErrorResponse). */
  static invalid(details: ErrorDetail[], message?: string): ApiError {
    const first = details[0];
    const text =
      message ??
      (first === undefined
        ? "Invalid parameter."
        : `Invalid parameter '${first.param}': ${first.reason}` +
          (first.expected === undefined ? "." : ` (expected ${first.expected}).`));
    return new ApiError(400, "invalid_parameter", text, details);
  }

  /** 400 for a single parameter. */
  static param(param: string, reason: DetailReason, expected?: string, message?: string): ApiError {
    const detail: ErrorDetail =
      expected === undefined ? { param, reason } : { param, reason, expected };
    return ApiError.invalid([detail], message);
  }

  /**
   * 404 not_found (openapi.json ErrorResponse: security, corporation, person, document, metric...).
   */
  static notFound(message: string): ApiError {
    return new ApiError(404, "not_found", message);
  }

  /** The response body in the common error shape. */
  toBody(): ErrorBody {
    const error: ErrorBody["error"] = { code: this.code, message: this.message };
    if (this.details !== undefined && this.details.length > 0) error.details = this.details;
    return { error };
  }
}

/** Builds the common error body for codes raised outside ApiError (auth, limits, faults). */
export function errorBody(code: string, message: string): ErrorBody {
  return { error: { code, message } };
}
