// One HTTP exchange with the API: bearer header (openapi.json bearerAuth), timeout/abort, the size
// cap, error mapping. A chunk of its own, loaded by the client before its first request (lazyCode):
// the runtime page registers the functions without it (test/e2e/build.test.ts holds that budget).

import {
  AbortError,
  AuthenticationError,
  BadResponseError,
  ConnectionError,
  KaishaError,
  TimeoutError,
} from "./errors";
import { errorFromResponse } from "./response-errors";
import {
  DEFAULT_TIMEOUT_MS,
  MAX_RESPONSE_BYTES,
  isHeaderSafeKey,
  type FetchLike,
  type ResponseLike,
} from "./http";
import { joinChunks } from "./join-chunks";
import { decodeUtf8 } from "./utf8";
import { ANSWER_MESSAGES } from "./answer-messages";

/** The keys' send state travels with the exchange (client.ts makes it with its first request). */
export { SendHolds } from "./send-state";
/**
 * So do the pacer (with its waiting line, queue-order.ts) and the call's deadline: a request meets
 * them only after this chunk is loaded (client.ts `pacerWith`, `deadlineOf`), a warm cell never.
 */
export { Pacer } from "./pacer";
export { Deadline } from "./deadline";
/** The wait before a retry (retry-delay.ts), as well. */
export { retryDelayMs } from "./retry-delay";
/** And the cells that gave up waiting on a request it sent (gave-up.ts). */
export { GaveUpCells } from "./gave-up";
/** And whether an answer asked again came back changed (client.ts refreshDue): only after a send. */
export { sameAnswer } from "../util/same-answer";
/** And what links a waiting request's signal to its key's hold (link-signals.ts). */
export { linkSignals } from "./link-signals";
/** And the 404s remembered, with the message naming what was not found (not-found.ts). */
export { NotFoundMemory, namedNotFound } from "./not-found";

function tooLarge(secrets: readonly string[]): BadResponseError {
  return new BadResponseError("too large", {
    kind: "too_large",
    message: ANSWER_MESSAGES.tooLarge(MAX_RESPONSE_BYTES),
    secrets,
  });
}

/**
 * The body as text, or as its UTF-8 bytes for the caller to decode in the same synchronous step as
 * its parse (utf8.ts); refused as soon as it passes `maxBytes` (nothing of it is parsed).
 */
async function readCapped(
  response: ResponseLike,
  maxBytes: number,
  secrets: readonly string[],
): Promise<{ received: string | Uint8Array; bytes: number }> {
  const declared = Number(response.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(secrets);
  const reader = response.body?.getReader();
  if (reader === undefined) {
    const text = await response.text();
    const bytes = text.length > maxBytes ? text.length : encoder.encode(text).length;
    if (bytes > maxBytes) throw tooLarge(secrets);
    return { received: text, bytes };
  }
  // Bytes are kept as they come and decoded once: one string per answer (a 30-year answer is a
  // few hundred kB; per-chunk strings joined made two or three, bench).
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (value === undefined) continue;
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      reader.cancel().catch(() => undefined);
      throw tooLarge(secrets);
    }
    chunks.push(value);
  }
  return { received: joinChunks(chunks, bytes), bytes };
}

export interface HttpRequest {
  url: string;
  apiKey: string;
  fetch: FetchLike;
  /** 0 = none. @unit ms @default 30000 */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Clock for Retry-After dates. */
  nowMs?: number;
  /** @unit bytes @default MAX_RESPONSE_BYTES */
  maxBytes?: number;
}

export interface HttpResult {
  status: number;
  body: unknown;
  /** UTF-8 size of the body text. */
  bytes: number;
}

const encoder = new TextEncoder();

/** Settles with `promise`, or rejects as soon as `signal` aborts (even if `promise` never settles). */
function raceSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

/**
 * Sends one GET and returns the parsed JSON body of a 2xx answer. Throws a KaishaError for
 * everything else: API errors by status, ConnectionError, TimeoutError, AbortError,
 * BadResponseError (non-JSON). Always settles, even when `fetch` ignores the abort signal.
 */
export async function sendRequest(req: HttpRequest): Promise<HttpResult> {
  const secrets = [req.apiKey];
  const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (req.signal?.aborted) throw new AbortError({ cause: req.signal.reason, secrets });
  // Refused before fetch: the header would not carry it (nothing is sent).
  if (!isHeaderSafeKey(req.apiKey)) throw new AuthenticationError("bad_key", { secrets });

  const controller = new AbortController();
  const timedOut = { value: false };
  // 0 (or Infinity) means no client-side timeout.
  const timer =
    timeoutMs > 0 && Number.isFinite(timeoutMs)
      ? setTimeout(() => {
          timedOut.value = true;
          controller.abort(new Error(`timeout after ${timeoutMs} ms`));
        }, timeoutMs)
      : undefined;
  const onCallerAbort = (): void => controller.abort(req.signal?.reason);
  req.signal?.addEventListener("abort", onCallerAbort, { once: true });

  const mapFailure = (err: unknown): KaishaError => {
    if (err instanceof KaishaError) return err;
    if (timedOut.value) return new TimeoutError(timeoutMs, { cause: err, secrets });
    if (req.signal?.aborted) return new AbortError({ cause: err, secrets });
    return new ConnectionError({ cause: err, secrets });
  };

  try {
    let response: ResponseLike;
    let received: string | Uint8Array;
    let bytes: number;
    try {
      response = await raceSignal(
        Promise.resolve().then(() =>
          req.fetch(req.url, {
            method: "GET",
            // openapi.json bearerAuth: exactly one space between Bearer and the key.
            headers: { Authorization: `Bearer ${req.apiKey}`, Accept: "application/json" },
            signal: controller.signal,
          }),
        ),
        controller.signal,
      );
      ({ received, bytes } = await raceSignal(
        Promise.resolve().then(() =>
          readCapped(response, req.maxBytes ?? MAX_RESPONSE_BYTES, secrets),
        ),
        controller.signal,
      ));
    } catch (err) {
      throw mapFailure(err);
    }

    let body: unknown;
    let parsed = false;
    const text = typeof received === "string" ? received : decodeUtf8(received);
    try {
      body = text === "" ? undefined : JSON.parse(text);
      parsed = text !== "";
    } catch {
      parsed = false;
    }
    const status = response.status;
    if (status >= 200 && status < 300) {
      if (!parsed || body === null || typeof body !== "object" || Array.isArray(body)) {
        const contentType = response.headers.get("content-type") ?? "no content type";
        // A captive portal or proxy page answering in the API's place: the last good answer may
        // stand in (retry.ts canServeStale), as for a 503.
        throw new BadResponseError(
          `HTTP ${status}, ${parsed ? "not a JSON object" : contentType}`,
          { status, secrets, kind: "not_json" },
        );
      }
      return { status, body, bytes };
    }
    if (!parsed && (status === 400 || status === 404)) {
      // A 400/404 without the API's error object came from something else (wrong base URL, proxy).
      throw new BadResponseError(`HTTP ${status} without the API's error object`, {
        status,
        secrets,
      });
    }
    throw errorFromResponse({
      status,
      body: parsed ? body : undefined,
      headers: response.headers,
      nowMs: req.nowMs ?? Date.now(),
      secrets,
    });
  } finally {
    clearTimeout(timer);
    req.signal?.removeEventListener("abort", onCallerAbort);
  }
}
