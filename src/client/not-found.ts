// The 404s the client has been given, remembered for a while so the same request is not sent again:
// an ETF's /financials (openapi.json getFinancials 404: "not listed") asked by 60 FINANCIAL cells on
// every recalculation would otherwise cost a request each time, for the same answer.

import type { OperationId } from "../contract";
import { BoundedMemo } from "./bounded-memo";
import type { NotFoundError } from "./errors";
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
