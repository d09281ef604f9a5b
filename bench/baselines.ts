// The per-cell baselines over the scale workloads: naive (one request per cell) and fair (identical
// URLs once, largest pages), run with the limit off; their counts are exact, their time projected.

import { createApp } from "../sandbox/app";
import { DEMO_API_KEY } from "../sandbox/demo-key";
import { aliasingApp, type AliasedCompany } from "./company-aliases";
import { inProcessFetch } from "./in-process-fetch";
import { createNaiveClient } from "./naive-client";
import type { ScaleCell } from "./scale-cells";
import { BASE_URL } from "./live-client";
import { PRICE_FIELDS, VALUATION_FIELDS } from "./workloads";

export interface BaselineResult {
  requests: number;
  /** False when the count was worked out (one per cell plus pages) rather than run. */
  measured: boolean;
}

/** Runs `cells` through a per-cell client (limit off, no latency) and counts its requests. */
export async function runBaseline(
  cells: readonly ScaleCell[],
  companies: readonly AliasedCompany[],
  fair: boolean,
  fixedYears?: number,
): Promise<BaselineResult> {
  const { app } = createApp({ ratePerMinute: 0, dailyLimit: 1_000_000_000 });
  const wire = inProcessFetch(aliasingApp(app, companies), { keepUrls: false });
  const client = createNaiveClient({
    baseUrl: BASE_URL.replace(/^http:\/\/[^/]+/, "http://sandbox.bench"),
    apiKey: DEMO_API_KEY,
    fetch: wire.fetch,
    ratePerMinute: 0,
    fair,
    ...(fixedYears !== undefined ? { fixedYears } : {}),
  });
  // In slices, so thousands of per-cell requests are not all pending at once.
  const slice = 2_000;
  for (let i = 0; i < cells.length; i += slice) {
    await Promise.all(
      cells.slice(i, i + slice).map(async ({ spec }) => {
        try {
          switch (spec.kind) {
            case "valuation":
              return await client.valuation(spec.code, VALUATION_FIELDS);
            case "prices":
              return await client.prices(spec.code, spec.from, spec.to, PRICE_FIELDS);
            default:
              return await client.financialCell(spec.code, spec.item, spec.back, spec.kind);
          }
        } catch {
          return null;
        }
      }),
    );
  }
  return { requests: wire.counters.requests, measured: true };
}

/**
 * The naive baseline's count without running it: one /financials per FINANCIAL cell, one
 * /valuations per VALUATION, and every price page at the API's default 100 rows.
 */
export function naiveCount(
  cells: readonly ScaleCell[],
  priceRows: (code: string) => number,
): number {
  let n = 0;
  for (const { spec } of cells) {
    if (spec.kind === "prices") n += Math.max(1, Math.ceil(priceRows(spec.code) / 100));
    else n += 1;
  }
  return n;
}
