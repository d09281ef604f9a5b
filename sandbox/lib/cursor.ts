// Opaque pagination cursors bound to the conditions of the request that produced them (openapi.json
// `cursor` parameters).
import { createHash } from "node:crypto";
import { ApiError } from "./api-error";
import type { ParamValue } from "./params";

interface CursorPayload {
  /** Hash of the operation and every condition except the cursor itself. */
  h: string;
  /** Offset of the first item of the next page. */
  o: number;
}

/** A stable hash of an operation's conditions (key order does not matter). */
export function conditionsHash(operation: string, conditions: Record<string, ParamValue>): string {
  const sorted = Object.keys(conditions)
    .sort()
    .map((key) => [key, conditions[key]]);
  return createHash("sha256")
    .update(JSON.stringify([operation, sorted]))
    .digest("base64url")
    .slice(0, 16);
}

/** Encodes a cursor: base64url of `{h, o}`. */
export function encodeCursor(hash: string, offset: number): string {
  const payload: CursorPayload = { h: hash, o: offset };
  return Buffer.from(JSON.stringify(payload), "utf8").toString("base64url");
}

/**
 * Returns the offset a cursor points at. 400 `invalid` on param `cursor` when it is not one of
 * ours or was issued for other conditions (openapi.json listSecurityDisclosures: the cursor holds
 * only a position, so the other parameters must equal the previous request's).
 */
export function decodeCursor(cursor: string, hash: string): number {
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw invalidCursor("The cursor is not a next_cursor issued by this API.");
  }
  if (
    typeof payload !== "object" ||
    payload === null ||
    typeof (payload as CursorPayload).h !== "string" ||
    !Number.isSafeInteger((payload as CursorPayload).o) ||
    (payload as CursorPayload).o < 0
  ) {
    throw invalidCursor("The cursor is not a next_cursor issued by this API.");
  }
  const { h, o } = payload as CursorPayload;
  if (h !== hash) {
    throw invalidCursor(
      "The cursor was issued for different conditions: repeat the previous request's parameters with it.",
    );
  }
  return o;
}

function invalidCursor(message: string): ApiError {
  return ApiError.invalid(
    [
      {
        param: "cursor",
        reason: "invalid",
        expected: "next_cursor of the previous page, same conditions",
      },
    ],
    message,
  );
}

/** One page of `items` from `offset`, with the cursor of the next page or null on the last. */
export function paginate<T>(
  items: readonly T[],
  offset: number,
  limit: number,
  hash: string,
): { page: T[]; next_cursor: string | null } {
  const page = items.slice(offset, offset + limit);
  const next = offset + limit;
  return { page, next_cursor: next < items.length ? encodeCursor(hash, next) : null };
}
