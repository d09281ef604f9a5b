// How long a cached answer stays fresh, per operation: market data minutes, filings hours, reference data a day.

import type { OperationId } from "../contract/rules";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Default freshness per operationId, for operations off the filing calendar and the close: the
 * client decides filings and daily prices by src/client/freshness.ts (their values here are only
 * the base of that rule's fallbacks). Prices and rankings move during the trading day; filings
 * change when a company discloses (at most a few times a day); reference data rarely changes.
 * `getUsage` is never served from the cache (its 0 is for completeness).
 */
export const DEFAULT_TTL_MS: Readonly<Record<OperationId, number>> = {
  getUsage: 0,
  getRankings: 1 * MINUTE,
  getPrices: 5 * MINUTE,
  getScreening: 5 * MINUTE,
  getJsfMarginDaily: 1 * HOUR,
  getWeeklyMarginBalance: 12 * HOUR,
  getValuations: 12 * HOUR,
  getFinancials: 12 * HOUR,
  getSegments: 12 * HOUR,
  getDividends: 12 * HOUR,
  listSecurityDisclosures: 12 * HOUR,
  getDisclosure: 24 * HOUR,
  getDisclosureSection: 24 * HOUR,
  getScreeningFields: 24 * HOUR,
  listSecurities: 24 * HOUR,
  getOrganization: 24 * HOUR,
  getOfficers: 24 * HOUR,
  getPerson: 24 * HOUR,
  getPersonAppointments: 24 * HOUR,
  getPersonCompensationHistory: 24 * HOUR,
  getPeers: 24 * HOUR,
};

/** Freshness of `operationId`, with optional per-operation overrides. @unit ms */
export function ttlFor(
  operationId: OperationId,
  overrides?: Partial<Record<OperationId, number>>,
): number {
  return overrides?.[operationId] ?? DEFAULT_TTL_MS[operationId];
}

/** True when an entry stored at `storedAt` is still fresh at `nowMs`. */
export function isFresh(storedAt: number, ttlMs: number, nowMs: number): boolean {
  return ttlMs > 0 && nowMs - storedAt < ttlMs && nowMs >= storedAt;
}
