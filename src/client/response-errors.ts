// A non-2xx answer as one of the client's errors (errors.ts): its status, the API's error object
// (openapi.json ErrorResponse) and Retry-After. Used by the HTTP exchange only (send.ts), so it
// travels in that chunk, off the runtime page.

import {
  AuthenticationError,
  BadResponseError,
  DataUnavailableError,
  ForbiddenError,
  KaishaError,
  NotFoundError,
  RateLimitError,
  ServerError,
  ValidationError,
  type ErrorDetail,
} from "./errors";
import { MESSAGES } from "./messages";

/** Parsed common error object (openapi.json ErrorResponse). */
interface ApiErrorBody {
  code?: string;
  message?: string;
  details?: ErrorDetail[];
}

/** Reads `{error: {code, message, details}}` from a parsed body; tolerant of anything else. */
function parseErrorBody(body: unknown): ApiErrorBody {
  if (body === null || typeof body !== "object") return {};
  const error = (body as { error?: unknown }).error;
  if (error === null || typeof error !== "object") return {};
  const e = error as Record<string, unknown>;
  const out: ApiErrorBody = {};
  if (typeof e.code === "string") out.code = e.code;
  if (typeof e.message === "string") out.message = e.message;
  if (Array.isArray(e.details)) {
    out.details = e.details
      .filter((d): d is Record<string, unknown> => d !== null && typeof d === "object")
      .map((d) => {
        const detail: ErrorDetail = {
          param: String(d.param ?? ""),
          reason: String(d.reason ?? "invalid"),
        };
        if (typeof d.expected === "string") detail.expected = d.expected;
        return detail;
      });
  }
  return out;
}

/**
 * Retry-After (RFC 9110 10.2.3): delay-seconds or an HTTP-date. Returns milliseconds from `nowMs`,
 * or undefined when absent or unreadable.
 * @internal Tests read Retry-After forms directly; the product reaches it through a 429.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  nowMs: number,
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (text === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/**
 * Error codes of the daily limit: `daily_limit_exceeded` (the sandbox, sandbox/lib/rate-limiter.ts)
 * and any code naming a day (openapi.json RateLimited: the live service's answer to the daily limit
 * is not published; its per-minute code names no day).
 */
const DAILY_CODE = /daily|per[_-]?day|day[_-]?limit/i;

/**
 * openapi.json RateLimited: the per-minute and the daily limit both answer 429; the daily one is
 * told apart by its code alone. A message is free text ("quota" may describe a minute's allowance):
 * a 429 without a daily code is the per-minute limit, paced and retried.
 */
function isDailyLimit(api: ApiErrorBody): boolean {
  return api.code !== undefined && DAILY_CODE.test(api.code);
}

export interface ErrorResponseInit {
  status: number;
  /** Parsed JSON body, or undefined when the body was not JSON. */
  body?: unknown;
  /** Header lookup (e.g. `response.headers`). */
  headers?: { get(name: string): string | null };
  nowMs?: number;
  cause?: unknown;
  secrets?: readonly string[];
}

/**
 * Status-to-subclass factory for a non-2xx answer.
 *
 * @example errorFromResponse({ status: 429, headers: res.headers, body }) // RateLimitError
 */
export function errorFromResponse(init: ErrorResponseInit): KaishaError {
  const { status } = init;
  const api = parseErrorBody(init.body);
  const base = {
    status,
    ...(api.details !== undefined ? { details: api.details } : {}),
    ...(api.code !== undefined ? { apiCode: api.code } : {}),
    ...(init.cause !== undefined ? { cause: init.cause } : {}),
    ...(init.secrets !== undefined ? { secrets: init.secrets } : {}),
  };
  if (status === 400) {
    const details = api.details ?? [{ param: "", reason: "invalid" }];
    const message =
      api.details === undefined && api.message !== undefined
        ? {
            en: `Invalid request: ${api.message}`,
            ja: `リクエストが正しくありません：${api.message}`,
          }
        : undefined;
    return new ValidationError(details, { ...base, ...(message ? { message } : {}) });
  }
  if (status === 401) return new AuthenticationError("unauthorized", base);
  if (status === 403) return new ForbiddenError(base);
  if (status === 404) {
    return new NotFoundError("not_found", { ...base, message: MESSAGES.notFound(api.message) });
  }
  // RFC 9110 10.2.3: Retry-After may come with 429 and 503 (and is honoured on any 5xx).
  const retryAfterMs =
    status === 429 || status >= 500
      ? parseRetryAfter(init.headers?.get("retry-after"), init.nowMs ?? Date.now())
      : undefined;
  const timed = { ...base, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
  if (status === 429) return new RateLimitError({ ...timed, daily: isDailyLimit(api) });
  if (status === 503 && api.code === "data_unavailable") return new DataUnavailableError(timed);
  if (status >= 500) return new ServerError(timed);
  return new BadResponseError(`HTTP ${status}`, base);
}
