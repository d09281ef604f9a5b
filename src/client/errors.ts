// Client error classes (openapi.json ErrorResponse) and their localized messages; an answer's
// status is made one of them by response-errors.ts.

import {
  MESSAGES,
  validationMessage,
  type ErrorDetail,
  type Lang,
  type MessagePair,
} from "./messages";
import { containsSecret, redactText, redactValue } from "../util/redact";

export type { ErrorDetail, Lang } from "./messages";

/** Stable error codes: branch on these (or on the class), never on message text. */
export type KaishaErrorCode =
  | "invalid_parameter"
  | "unauthorized"
  | "missing_key"
  | "bad_key"
  | "forbidden"
  | "not_found"
  | "no_results"
  | "rate_limited"
  | "data_unavailable"
  | "server_error"
  | "connection_failed"
  | "timeout"
  | "deadline"
  | "aborted"
  | "bad_response"
  | "not_cached"
  | "revalidating";

export interface KaishaErrorInit {
  code: KaishaErrorCode;
  message: MessagePair;
  status?: number;
  details?: readonly ErrorDetail[];
  /** The API's own `error.code`, when it sent one. */
  apiCode?: string;
  /** From Retry-After (429 and 5xx answers). @unit ms */
  retryAfterMs?: number;
  cause?: unknown;
  /** Secrets to redact besides the remembered API keys. */
  secrets?: readonly string[];
}

function sanitizeCause(cause: unknown, secrets: readonly string[]): unknown {
  if (cause === undefined || cause === null) return cause;
  if (cause instanceof Error) {
    const texts = [cause.message, cause.stack ?? "", safeJson(cause)];
    if (!texts.some((t) => containsSecret(t, secrets))) return cause;
    // The original holds the key somewhere: keep a redacted copy of it instead.
    const copy = new Error(redactText(cause.message, secrets));
    copy.name = cause.name;
    copy.stack = redactText(cause.stack ?? "", secrets);
    return copy;
  }
  if (typeof cause === "string") return redactText(cause, secrets);
  if (typeof cause === "object")
    return containsSecret(safeJson(cause), secrets) ? redactValue(cause, secrets) : cause;
  return cause;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
}

/**
 * Base class of every error the client throws.
 *
 * `message` is English, `messageJa` Japanese; `code` is stable. The API key is redacted from every
 * text, detail and cause in the constructor, so an error is always safe to log or show.
 *
 * @example
 * try { await client.financials({ security_code: "7203" }); }
 * catch (e) { if (e instanceof KaishaError) console.log(e.code, localizedMessage(e, "ja")); }
 */
export class KaishaError extends Error {
  override readonly name: string = "KaishaError";
  readonly code: KaishaErrorCode;
  readonly messageJa: string;
  readonly status?: number;
  readonly details?: readonly ErrorDetail[];
  readonly apiCode?: string;
  /** How long the server asked to wait (Retry-After on 429/5xx). @unit ms */
  readonly retryAfterMs?: number;
  /** Set on the error attached to an answer served stale (see `staleInfo`). */
  stale?: boolean;

  constructor(init: KaishaErrorInit) {
    const secrets = init.secrets ?? [];
    super(redactText(init.message.en, secrets));
    Object.defineProperty(this, "cause", {
      value: sanitizeCause(init.cause, secrets),
      enumerable: false,
      writable: true,
      configurable: true,
    });
    this.code = init.code;
    this.messageJa = redactText(init.message.ja, secrets);
    if (init.status !== undefined) this.status = init.status;
    if (init.details !== undefined) this.details = redactValue(init.details, secrets);
    if (init.apiCode !== undefined) this.apiCode = redactText(init.apiCode, secrets);
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    // The stack repeats the message, which is already redacted; the name is set by subclasses below.
  }

  /** Japanese or English message. */
  localized(lang: Lang): string {
    return lang === "ja" ? this.messageJa : this.message;
  }

  /** JSON.stringify(err) shows the (redacted) message too, not only the enumerable fields. */
  toJSON(): Record<string, unknown> {
    return { ...(this as object), name: this.name, message: this.message };
  }
}

type SubInit = Omit<KaishaErrorInit, "code" | "message"> & { message?: MessagePair };

/** A subclass's init: its code, and its own message unless the caller gave one. */
function coded(init: SubInit, code: KaishaErrorCode, message: () => MessagePair): KaishaErrorInit {
  return { ...init, code, message: init.message ?? message() };
}

/**
 * openapi.json ErrorResponse / 400: invalid parameter, detected locally before sending or answered
 * by the API.
 */
export class ValidationError extends KaishaError {
  override readonly name = "ValidationError" as const;
  declare readonly details: readonly ErrorDetail[];
  constructor(
    details: readonly ErrorDetail[],
    init: SubInit & { values?: Readonly<Record<string, unknown>> } = {},
  ) {
    const { values, ...rest } = init;
    super({
      ...rest,
      code: "invalid_parameter",
      details,
      message: init.message ?? validationMessage(details, values),
    });
  }
}

/**
 * openapi.json bearerAuth / 401: key rejected. Nothing was sent for `missing_key` (no key
 * configured) and `bad_key` (characters an HTTP header cannot carry, such as a zero-width space or
 * full-width letters: fetch would fail with a misleading "cannot reach the API").
 */
export class AuthenticationError extends KaishaError {
  override readonly name = "AuthenticationError" as const;
  declare readonly code: "unauthorized" | "missing_key" | "bad_key";
  constructor(kind: "unauthorized" | "missing_key" | "bad_key", init: SubInit = {}) {
    const messages = {
      unauthorized: MESSAGES.unauthorized,
      missing_key: MESSAGES.missingKey,
      bad_key: MESSAGES.badKey,
    };
    super(coded(init, kind, messages[kind]));
  }
}

/**
 * A subclass whose code and message are fixed (a caller may give its own message): a class of its
 * own, so callers tell it by `instanceof` and by its `name`.
 *
 * @example new AbortError() instanceof AbortError // true; .code === "aborted"
 */
function fixedError<N extends string, C extends keyof typeof FIXED_MESSAGES>(name: N, code: C) {
  return class extends KaishaError {
    override readonly name: N = name;
    declare readonly code: C;
    constructor(init: SubInit = {}) {
      super(coded(init, code, FIXED_MESSAGES[code]));
    }
  };
}

/** The fixed-message errors' messages, by code. */
const FIXED_MESSAGES = {
  forbidden: MESSAGES.forbidden,
  data_unavailable: MESSAGES.dataUnavailable,
  connection_failed: MESSAGES.connectionFailed,
  aborted: MESSAGES.aborted,
  not_cached: MESSAGES.notCached,
} satisfies Partial<Record<KaishaErrorCode, () => MessagePair>>;

/**
 * 403 ("not permitted", for example a plan without this data): the key is valid.
 */
export const ForbiddenError = fixedError("ForbiddenError", "forbidden");

/**
 * openapi.json ErrorResponse / 404 `not_found`; `no_results` for an empty answer where a caller
 * needs a value.
 */
export class NotFoundError extends KaishaError {
  override readonly name = "NotFoundError" as const;
  declare readonly code: "not_found" | "no_results";
  constructor(kind: "not_found" | "no_results" = "not_found", init: SubInit = {}) {
    super({
      ...init,
      code: kind,
      message: init.message ?? (kind === "no_results" ? MESSAGES.noResults() : MESSAGES.notFound()),
    });
  }
}

/** 429: per-minute or daily limit (openapi.json RateLimited). `daily` ones are never retried. */
export class RateLimitError extends KaishaError {
  override readonly name = "RateLimitError" as const;
  declare readonly code: "rate_limited";
  readonly daily: boolean;
  constructor(init: SubInit & { daily?: boolean } = {}) {
    const { daily = false, ...rest } = init;
    super({
      ...rest,
      code: "rate_limited",
      message:
        rest.message ?? (daily ? MESSAGES.dailyLimit() : MESSAGES.rateLimited(rest.retryAfterMs)),
    });
    this.daily = daily;
  }
}

/** openapi.json getRankings / 503 `data_unavailable`: price data temporarily unavailable. */
export const DataUnavailableError = fixedError("DataUnavailableError", "data_unavailable");

/** Any other 5xx. */
export class ServerError extends KaishaError {
  override readonly name = "ServerError" as const;
  declare readonly code: "server_error";
  constructor(init: SubInit & { status: number }) {
    super(coded(init, "server_error", () => MESSAGES.serverError(init.status)));
  }
}

/** The request never got an HTTP answer (DNS, refused, CORS, offline). */
export const ConnectionError = fixedError("ConnectionError", "connection_failed");

/** No answer within the per-request timeout. */
export class TimeoutError extends KaishaError {
  override readonly name = "TimeoutError" as const;
  declare readonly code: "timeout";
  readonly timeoutMs: number;
  constructor(timeoutMs: number, init: SubInit = {}) {
    super(coded(init, "timeout", () => MESSAGES.timeout(timeoutMs)));
    this.timeoutMs = timeoutMs;
  }
}

/**
 * The request's deadline (src/client/deadline.ts: retries and their waits included) passed before
 * an answer came; time queued before the first send does not count.
 */
export class DeadlineError extends KaishaError {
  override readonly name = "DeadlineError" as const;
  declare readonly code: "deadline";
  readonly deadlineMs: number;
  constructor(deadlineMs: number, init: SubInit = {}) {
    super(coded(init, "deadline", MESSAGES.deadline));
    this.deadlineMs = deadlineMs;
  }
}

/** The caller's AbortSignal fired (for example a cancelled custom function). */
export const AbortError = fixedError("AbortError", "aborted");

/** A cache-only client (value preview) had no fresh answer; nothing was sent. */
export const NotCachedError = fixedError("NotCachedError", "not_cached");

/**
 * The API answered something the client cannot use. `kind`: `not_json` (a 2xx that is no JSON
 * object, e.g. a captive portal page: the last good answer may stand in), `too_large` (over the
 * size cap, nothing parsed), `field` (a field callers read is missing or malformed), `other`.
 */
export class BadResponseError extends KaishaError {
  override readonly name = "BadResponseError" as const;
  declare readonly code: "bad_response";
  readonly kind: "not_json" | "too_large" | "field" | "other";
  constructor(
    what: string,
    init: SubInit & { kind?: "not_json" | "too_large" | "field" | "other" } = {},
  ) {
    const { kind = "other", ...rest } = init;
    super({ ...rest, code: "bad_response", message: rest.message ?? MESSAGES.badResponse(what) });
    this.kind = kind;
  }
}

/**
 * The user-facing message of any thrown value, in `lang`.
 *
 * @example localizedMessage(err, "ja") // "APIキーが未設定です：Kaishaパネルを開いて設定してください"
 */
export function localizedMessage(err: unknown, lang: Lang): string {
  if (err instanceof KaishaError) return err.localized(lang);
  const pair = MESSAGES.unexpected();
  return lang === "ja" ? pair.ja : pair.en;
}

const CODES: ReadonlySet<string> = new Set<KaishaErrorCode>([
  "invalid_parameter",
  "unauthorized",
  "missing_key",
  "bad_key",
  "forbidden",
  "not_found",
  "no_results",
  "rate_limited",
  "data_unavailable",
  "server_error",
  "connection_failed",
  "timeout",
  "deadline",
  "aborted",
  "bad_response",
  "not_cached",
]);

/**
 * True for any KaishaError, also one from a second copy of this module in another bundle (checked
 * by shape: a known code, `messageJa` and `localized`). Other errors with a `code` do not pass.
 */
export function isKaishaError(err: unknown): err is KaishaError {
  if (err instanceof KaishaError) return true;
  if (!(err instanceof Error)) return false;
  const e = err as Partial<Record<"code" | "messageJa" | "localized", unknown>>;
  return (
    typeof e.code === "string" &&
    CODES.has(e.code) &&
    typeof e.messageJa === "string" &&
    typeof e.localized === "function"
  );
}

/** The fixed-message errors as types (`err: AbortError`), beside their classes above. */
export type ForbiddenError = InstanceType<typeof ForbiddenError>;
export type DataUnavailableError = InstanceType<typeof DataUnavailableError>;
export type ConnectionError = InstanceType<typeof ConnectionError>;
export type AbortError = InstanceType<typeof AbortError>;
export type NotCachedError = InstanceType<typeof NotCachedError>;
