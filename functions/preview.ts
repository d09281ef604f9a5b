// Value preview: a client stand-in answering from fresh cache entries only, never sending.

import {
  cacheKey,
  isFresh,
  narrowFinancials,
  normalizeCompany,
  paginate,
  ttlFor,
  validateParams,
  FINANCIALS_FETCH_YEARS,
  type CacheStore,
  type KaishaClient,
  type PaginateOptions,
  type RequestOptions,
} from "../src/client";
import type { OperationId } from "../src/contract";
import { previewError } from "./excel-errors";

/** Client method -> operationId, for the methods functions call. */
const METHOD_OPS: Readonly<Record<string, OperationId>> = {
  screening: "getScreening",
  screeningFields: "getScreeningFields",
  securities: "listSecurities",
  prices: "getPrices",
  rankings: "getRankings",
  valuations: "getValuations",
  financials: "getFinancials",
  segments: "getSegments",
  dividends: "getDividends",
  organization: "getOrganization",
  peers: "getPeers",
  securityDisclosures: "listSecurityDisclosures",
  disclosure: "getDisclosure",
  disclosureSection: "getDisclosureSection",
  officers: "getOfficers",
  person: "getPerson",
  personAppointments: "getPersonAppointments",
  personCompensation: "getPersonCompensationHistory",
  weeklyMargin: "getWeeklyMarginBalance",
  jsfMarginDaily: "getJsfMarginDaily",
};

/**
 * Reads the answer the client would serve from its cache, or throws the preview #N/A. Mirrors the
 * client's cache key (`baseUrl` + cacheKey of the validated params) and its /financials widest
 * window (spec 4.8: years=30 once, narrower answers cut from it).
 */
async function peek(
  client: KaishaClient,
  store: CacheStore,
  now: () => number,
  opId: OperationId,
  params: unknown,
): Promise<unknown> {
  if (opId === "getUsage") throw previewError();
  let clean = validateParams(opId, (params ?? {}) as Record<string, unknown>, { now });
  let narrow: { period: string; years: number } | undefined;
  if (opId === "getFinancials") {
    const period = typeof clean.period === "string" ? clean.period : "annual";
    const years = typeof clean.years === "number" ? clean.years : 10;
    clean = { ...clean, period, years: FINANCIALS_FETCH_YEARS };
    narrow = { period, years };
  }
  const entry = await store.get(`${client.baseUrl}${cacheKey(opId, clean)}`).catch(() => undefined);
  if (entry === undefined || !isFresh(entry.storedAt, ttlFor(opId), now())) throw previewError();
  if (narrow !== undefined) {
    return narrowFinancials(
      entry.body as Parameters<typeof narrowFinancials>[0],
      narrow.period,
      narrow.years,
    );
  }
  return entry.body;
}

/**
 * A client that never sends: cached fresh answers only, #N/A "Preview: press Enter to fetch"
 * otherwise. Used for every call made while `invocation.isInValuePreview` is true.
 */
export function previewClient(
  client: KaishaClient,
  store: CacheStore | undefined,
  now: () => number = Date.now,
): KaishaClient {
  const miss = async (): Promise<never> => {
    throw previewError();
  };
  return new Proxy(client, {
    get(target, prop, receiver) {
      if (typeof prop === "string" && prop in METHOD_OPS) {
        const opId = METHOD_OPS[prop] as OperationId;
        return (q: unknown) => (store === undefined ? miss() : peek(target, store, now, opId, q));
      }
      if (prop === "request") {
        return (opId: OperationId, q: unknown) =>
          store === undefined ? miss() : peek(target, store, now, opId, q);
      }
      if (prop === "usage") return miss;
      if (prop === "paginate") {
        return (opId: OperationId, query: Record<string, unknown>, options: PaginateOptions = {}) =>
          paginate(
            (q: Record<string, unknown>, _o: RequestOptions) =>
              store === undefined ? miss() : peek(target, store, now, opId, q),
            query,
            options,
          );
      }
      if (prop === "resolveEdinetCode") {
        return async (company: unknown) => {
          const ref = normalizeCompany(company, "company");
          if ("edinet_code" in ref) return ref.edinet_code;
          if (store === undefined) return miss();
          // The client resolves through a one-item disclosures list (or a cached /financials answer).
          for (const [opId, q] of [
            ["getFinancials", { security_code: ref.security_code }],
            ["listSecurityDisclosures", { code: ref.security_code, limit: 1 }],
          ] as const) {
            try {
              const body = (await peek(target, store, now, opId, q)) as { edinet_code?: unknown };
              if (typeof body.edinet_code === "string") return body.edinet_code;
            } catch {
              // try the next source
            }
          }
          return miss();
        };
      }
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
}
