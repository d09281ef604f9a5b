// The domain rules that lead to requests (PRICE windows, EDINET resolution, PRICES to the latest day), loaded with the send chunk on first use: the runtime page carries only these stubs.

import { lazyCode, type KaishaClient, type RequestOptions, type ResponseOf } from "../client";
import type { EdinetClient } from "./edinet-resolution";
import type { PriceWindowClient } from "./price-windows";

type PriceRowOf = ResponseOf<"getPrices">["prices"][number];

/**
 * price-windows.ts (with price-days.ts) in the send chunk: a PRICE with a date reaches it only when
 * its cell lacks the answer, and then a request is near (network-code.ts loads the same chunk).
 */
const loadPriceWindows = lazyCode(
  () => import(/* webpackChunkName: "send" */ "./price-windows"),
);

/**
 * PRICE: the daily price row of the last trading day on or before `day` (YYYY-MM-DD), or undefined
 * when there is none since 2005 (price-windows.ts priceOnOrBefore).
 *
 * @example await priceOnOrBefore(client, "7203", "2024-03-31", {}) // the row of 2024-03-29
 */
export async function priceOnOrBefore(
  client: PriceWindowClient,
  code: string,
  day: string,
  options: RequestOptions,
): Promise<PriceRowOf | undefined> {
  return (await loadPriceWindows()).priceOnOrBefore(client, code, day, options);
}

/**
 * Records a complete walk of daily prices from `from` to `to` (PRICES), for PRICE to reuse. Noted
 * once the code is in: a PRICE cell waiting for it loads the same module after, so reads it after
 * the note (one promise, callbacks in order). A failed load only costs the reuse.
 */
export function notePrices(
  client: PriceWindowClient,
  code: string,
  from: string,
  to: string | undefined,
  rows: readonly PriceRowOf[],
): void {
  loadPriceWindows().then(
    (m) => m.notePrices(client, code, from, to, rows),
    () => undefined,
  );
}

/**
 * edinet-resolution.ts in the send chunk: a cell reaches it only when memory did not answer (its
 * warm path peeks: functions/cells/subjects.ts), and a request may follow.
 */
const loadEdinetResolution = lazyCode(
  () => import(/* webpackChunkName: "send" */ "./edinet-resolution"),
);

/**
 * Security code or EDINET code -> EDINET code; learned pairs first, concurrent look-ups shared
 * (edinet-resolution.ts resolveEdinetCode).
 *
 * @example await resolveEdinetCode(client, "7203", {}) // "E02144"
 */
export async function resolveEdinetCode(
  client: EdinetClient,
  company: unknown,
  options: RequestOptions = {},
): Promise<string> {
  return (await loadEdinetResolution()).resolveEdinetCode(client, company, options);
}

/** price-latest.ts in the send chunk: only a spill's walk or update needs it. */
const loadPriceLatest = lazyCode(() => import(/* webpackChunkName: "send" */ "./price-latest"));

/**
 * The cache key's mark of a stored "up to latest" PRICES spill: no request has a `latest` parameter
 * (openapi.json getPrices), so no page's answer is ever read as the spill.
 */
const SPILL = Object.freeze({ latest: "spill" });

/**
 * PRICES up to the latest trading day: every day from `from`, newest first, as one answer kept by
 * the client (KaishaClient.composed). After a close only the days since the stored last day are
 * asked; the whole window again when a split re-based the stored days (price-latest.ts).
 *
 * @example (await pricesToLatest(client, "7203", "2021-11-24", {})).prices[0]?.date // the last close
 */
export function pricesToLatest(
  client: Pick<KaishaClient, "composed" | "paginate">,
  code: string,
  from: string,
  options: RequestOptions,
): Promise<ResponseOf<"getPrices">> {
  return client.composed(
    "getPrices",
    { code, from },
    SPILL,
    async (stored, o) => (await loadPriceLatest()).latestPrices(client, code, from, stored, o),
    options,
  );
}

/**
 * The stored spill `pricesToLatest(client, code, from)` gives when it is fresh in the memory tier,
 * read synchronously; undefined otherwise (PRICES' warm path, as `peek` for the other answers).
 *
 * @example peekPricesToLatest(client, "7203", "2021-11-24")?.prices[0]?.date // the last close
 */
export function peekPricesToLatest(
  client: Pick<KaishaClient, "peekComposed">,
  code: string,
  from: string,
): ResponseOf<"getPrices"> | undefined {
  return client.peekComposed("getPrices", { code, from }, SPILL);
}
