// The 404s the client has been given, remembered for a while so the same request is not sent again:
// an ETF's /financials (openapi.json getFinancials 404: "not listed") asked by 60 FINANCIAL cells on
// every recalculation would otherwise cost a request each time, for the same answer.

import type { OperationId } from "../contract";
import { BoundedMemo } from "../util/bounded-memo";
import { NotFoundError } from "./errors";
import { ANSWER_MESSAGES } from "./answer-messages";
import { ttlFor } from "./ttl";

const HOUR = 60 * 60 * 1000;

/**
 * How long a 404 stands. A document or section 404 may be the 24-hour wait on a timely-system
 * document (openapi.json getDisclosure / getDisclosureSection: "timely-system document under 24
 * hours old"), so it is asked again within the hour; any other 404 (an unknown code, a security
 * with no statutory filer) stands as long as a good answer of the same request would.
 */
function notFoundLifetime(operationId: OperationId): number {
  if (operationId === "getDisclosure" || operationId === "getDisclosureSection") return HOUR;
  return Math.max(ttlFor(operationId), 60_000);
}

interface Remembered {
  error: NotFoundError;
  until: number;
}

/**
 * 404s by cache key (keys carry the caller's partition, so one key's 404 never answers another's).
 * Memory only: a reopened workbook asks once again. "Refresh all" (`cache: "no-store"`) asks anyway.
 */
export class NotFoundMemory {
  private readonly held = new BoundedMemo<string, Remembered>(10_000);

  remember(key: string, operationId: OperationId, error: NotFoundError, now: number): void {
    this.held.set(key, { error, until: now + notFoundLifetime(operationId) });
  }

  /** The 404 still standing for `key`, if any. */
  recall(key: string, now: number): NotFoundError | undefined {
    const known = this.held.get(key);
    return known !== undefined && now < known.until ? known.error : undefined;
  }

  clear(): void {
    this.held.clear();
  }
}

/** The parameters naming what a request asks for (openapi.json: path codes and ids). */
const SUBJECT_PARAMS = ["security_code", "code", "edinet_code", "doc_id", "id"] as const;

/**
 * A 404 that names what was asked for ("9999 に該当するデータが見つかりません"): the API's
 * answer says what is missing, in English only, and the Japanese message said nothing of it.
 * The same error when the request names nothing.
 */
export function namedNotFound(
  err: NotFoundError,
  params: Readonly<Record<string, unknown>>,
): NotFoundError {
  const subject = SUBJECT_PARAMS.map((p) => params[p]).find(
    (v): v is string | number => (typeof v === "string" && v !== "") || typeof v === "number",
  );
  if (err.code !== "not_found" || subject === undefined) return err;
  const message = ANSWER_MESSAGES.notFoundFor(String(subject), err.message);
  return new NotFoundError("not_found", {
    message,
    cause: err,
    ...(err.status !== undefined ? { status: err.status } : {}),
    ...(err.apiCode !== undefined ? { apiCode: err.apiCode } : {}),
  });
}
