// ATTRIBUTION: the source label and licence note to cite for a dataset (openapi.json Attribution).

import type { KaishaClient, RequestOptions } from "../src/client";
import type { Attribution, DisclosureAttribution } from "../src/contract";
import { optionalChoice } from "../src/excel/args";
import type { Cell } from "../src/excel/values";
import { resolveEdinetCode } from "../src/domain/network-rules";
import { run, type InvocationLike } from "./run";

/**
 * The security whose answers stand for a dataset's attribution: a long-listed primary security
 * present in the live service and the sandbox. Each request reuses what the other functions cache
 * (same parameters), so ATTRIBUTION next to a table usually costs nothing. A table's own source is
 * in its title row (headers 2).
 */
const REFERENCE_SECURITY = "7203";

type Source = (
  client: KaishaClient,
  o: RequestOptions,
) => Promise<{ attribution: Attribution | DisclosureAttribution }>;

async function viaEdinet<T>(
  client: KaishaClient,
  o: RequestOptions,
  then: (edinet: string) => Promise<T>,
): Promise<T> {
  return then(await resolveEdinetCode(client, REFERENCE_SECURITY, o));
}

const SOURCES: Readonly<Record<string, Source>> = {
  screening: (c, o) => c.screeningFields(o),
  securities: (c, o) => c.securities({ limit: 1 }, o),
  rankings: (c, o) => c.rankings({ metric: "volume", limit: 1 }, o),
  prices: (c, o) => c.prices({ code: REFERENCE_SECURITY, limit: 1 }, o),
  valuations: (c, o) => c.valuations({ security_code: REFERENCE_SECURITY, years: 50 }, o),
  financials: (c, o) =>
    c.financials({ security_code: REFERENCE_SECURITY, period: "annual", years: 30 }, o),
  segments: (c, o) => viaEdinet(c, o, (e) => c.segments({ edinet_code: e, period: "annual" }, o)),
  dividends: (c, o) => viaEdinet(c, o, (e) => c.dividends({ edinet_code: e }, o)),
  company: (c, o) => viaEdinet(c, o, (e) => c.organization({ edinet_code: e }, o)),
  peers: (c, o) => c.peers({ security_code: REFERENCE_SECURITY, limit: 20 }, o),
  disclosures: (c, o) => c.securityDisclosures({ code: REFERENCE_SECURITY, limit: 1 }, o),
  officers: (c, o) => c.officers({ code: REFERENCE_SECURITY }, o),
  margin: (c, o) => c.weeklyMargin({ code: REFERENCE_SECURITY, period: "52w" }, o),
  jsf: (c, o) => c.jsfMarginDaily({ code: REFERENCE_SECURITY, period: "1y" }, o),
};

export const ATTRIBUTION_DATASETS = Object.keys(SOURCES);

/** ATTRIBUTION: one row [source_label, license_note] for `dataset` (default: screening). */
export function attribution(dataset: unknown, invocation?: InvocationLike): Promise<Cell[][]> {
  return run(invocation, async (ctx) => {
    const which =
      optionalChoice(dataset, "dataset", ATTRIBUTION_DATASETS, {
        financial: "financials",
        valuation: "valuations",
        price: "prices",
        segment: "segments",
        dividend: "dividends",
        persons: "officers",
        person: "officers",
        organization: "company",
        organizations: "company",
        screen: "screening",
      }) ?? "screening";
    const body = await (SOURCES[which] as Source)(ctx.client, ctx.options);
    return [[body.attribution.source_label, body.attribution.license_note]];
  });
}
