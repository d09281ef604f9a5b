// The status-to-subclass factory, Retry-After, daily limit detection and localized messages.

import {
  AbortError,
  AuthenticationError,
  BadResponseError,
  ConnectionError,
  DataUnavailableError,
  KaishaError,
  NotFoundError,
  RateLimitError,
  ServerError,
  TimeoutError,
  ValidationError,
  isKaishaError,
  localizedMessage,
} from "../../src/client/errors";
import { errorFromResponse, parseRetryAfter } from "../../src/client/response-errors";

const headers = (h: Record<string, string>) => ({ get: (n: string) => h[n.toLowerCase()] ?? null });
const body = (code: string, message: string, details?: unknown[]) => ({
  error: { code, message, ...(details ? { details } : {}) },
});

describe("errorFromResponse", () => {
  test("400 keeps the API's details", () => {
    const err = errorFromResponse({
      status: 400,
      body: body("invalid_parameter", "bad", [
        { param: "years", reason: "out_of_range", expected: "1..30" },
      ]),
    });
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({
      name: "ValidationError",
      code: "invalid_parameter",
      status: 400,
      apiCode: "invalid_parameter",
    });
    expect(err.details).toEqual([{ param: "years", reason: "out_of_range", expected: "1..30" }]);
    expect(err.message).toBe("years is out of range: expected 1..30");
  });

  test("401 -> AuthenticationError unauthorized", () => {
    const err = errorFromResponse({ status: 401, body: body("unauthorized", "no") });
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(err.code).toBe("unauthorized");
    expect(err.message).toBe("API key rejected (401): check the key in the Kaisha pane");
  });

  test("404 -> NotFoundError with the server's explanation", () => {
    const err = errorFromResponse({
      status: 404,
      body: body("not_found", "Security 9999 not found"),
    });
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.code).toBe("not_found");
    expect(err.message).toBe("Not found (Security 9999 not found): check the code or ID");
    expect(err.messageJa).toBe("該当するデータが見つかりません：コードやIDを確認してください");
  });

  test("429 with Retry-After seconds", () => {
    const err = errorFromResponse({
      status: 429,
      body: body("rate_limited", "slow down"),
      headers: headers({ "retry-after": "7" }),
    });
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfterMs).toBe(7000);
    expect((err as RateLimitError).daily).toBe(false);
    expect(err.message).toBe("Too many requests (429): retry in 7 s");
  });

  test("429 with Retry-After as an HTTP date", () => {
    const now = Date.UTC(2026, 0, 1, 0, 0, 0);
    const err = errorFromResponse({
      status: 429,
      body: body("rate_limited", "x"),
      headers: headers({ "retry-after": "Thu, 01 Jan 2026 00:00:30 GMT" }),
      nowMs: now,
    }) as RateLimitError;
    expect(err.retryAfterMs).toBe(30_000);
  });

  test("429 daily limit is recognised by its code, never its message", () => {
    const daily = errorFromResponse({
      status: 429,
      body: body("daily_limit_exceeded", "x"),
    }) as RateLimitError;
    expect(daily.daily).toBe(true);
    expect(daily.message).toBe("Daily request limit reached");
    expect(daily.messageJa).toBe("本日のリクエスト上限に達しました");
    const perMinute = errorFromResponse({
      status: 429,
      body: body("rate_limited", "Daily request limit of 5000 reached."),
    }) as RateLimitError;
    expect(perMinute.daily).toBe(false);
  });

  test("503 data_unavailable -> DataUnavailableError, other 503 -> ServerError", () => {
    expect(errorFromResponse({ status: 503, body: body("data_unavailable", "x") })).toBeInstanceOf(
      DataUnavailableError,
    );
    const other = errorFromResponse({ status: 503, body: undefined });
    expect(other).toBeInstanceOf(ServerError);
    expect(other.message).toBe("API server error (503): retry later");
    expect(errorFromResponse({ status: 500 })).toMatchObject({
      name: "ServerError",
      code: "server_error",
      status: 500,
    });
  });

  test("an unexpected status -> BadResponseError", () => {
    expect(errorFromResponse({ status: 418 })).toBeInstanceOf(BadResponseError);
  });
});

describe("parseRetryAfter", () => {
  test.each<[string | null, number | undefined]>([
    ["0", 0],
    ["12", 12_000],
    ["1.5", 1500],
    ["", undefined],
    [null, undefined],
    ["soon", undefined],
    ["Thu, 01 Jan 2026 00:00:00 GMT", 0],
  ])("%p -> %p", (value, expected) => {
    expect(parseRetryAfter(value, Date.UTC(2026, 0, 1, 0, 0, 10))).toBe(expected);
  });
});

describe("classes", () => {
  test("every subclass has a literal name, a stable code and both languages", () => {
    const errors: KaishaError[] = [
      new ValidationError([{ param: "years", reason: "missing" }]),
      new AuthenticationError("missing_key"),
      new NotFoundError("no_results"),
      new RateLimitError({ retryAfterMs: 2000 }),
      new DataUnavailableError(),
      new ServerError({ status: 502 }),
      new ConnectionError(),
      new TimeoutError(30_000),
      new AbortError(),
      new BadResponseError("not JSON"),
    ];
    expect(errors.map((e) => [e.name, e.code])).toEqual([
      ["ValidationError", "invalid_parameter"],
      ["AuthenticationError", "missing_key"],
      ["NotFoundError", "no_results"],
      ["RateLimitError", "rate_limited"],
      ["DataUnavailableError", "data_unavailable"],
      ["ServerError", "server_error"],
      ["ConnectionError", "connection_failed"],
      ["TimeoutError", "timeout"],
      ["AbortError", "aborted"],
      ["BadResponseError", "bad_response"],
    ]);
    for (const e of errors) {
      expect(e).toBeInstanceOf(KaishaError);
      expect(e).toBeInstanceOf(Error);
      expect(e.message.length).toBeGreaterThan(5);
      expect(e.messageJa).toMatch(/[ぁ-んァ-ン一-龥]/);
      expect(String(e)).toBe(`${e.name}: ${e.message}`);
    }
  });

  test("missing key message tells the user where to go", () => {
    const err = new AuthenticationError("missing_key");
    expect(localizedMessage(err, "en")).toBe("API key not set: open the Kaisha pane");
    expect(localizedMessage(err, "ja")).toBe(
      "APIキーが未設定です：Kaishaパネルを開いて設定してください",
    );
  });

  test("timeout message names the timeout", () => {
    expect(new TimeoutError(30_000).message).toBe(
      "No answer from the API within 30 s: recalculate to retry",
    );
  });

  test("localizedMessage of a foreign error is generic", () => {
    expect(localizedMessage(new Error("boom"), "en")).toBe(
      "Unexpected error: recalculate, or reopen the Kaisha pane",
    );
  });

  test("JSON.stringify shows name, code and both messages", () => {
    expect(JSON.parse(JSON.stringify(new NotFoundError("no_results")))).toEqual({
      name: "NotFoundError",
      code: "no_results",
      message: "No data for these conditions: widen the period or check the code",
      messageJa: "条件に該当するデータがありません：期間やコードを見直してください",
    });
  });

  test("cause is kept", () => {
    const cause = new TypeError("fetch failed");
    expect(new ConnectionError({ cause }).cause).toBe(cause);
  });

  test("isKaishaError: our errors only, not other errors that carry a code", () => {
    expect(isKaishaError(new TimeoutError(1000))).toBe(true);
    const foreign = Object.assign(new Error("x"), { code: "#N/A", messageJa: "x" });
    expect(isKaishaError(foreign)).toBe(false);
    expect(isKaishaError({ code: "timeout", messageJa: "x" })).toBe(false);
  });
});
