// When companies file: a dataset whose chosen companies' latest results (決算短信) are disclosed at
// other instants, so a scenario can make filings appear "overnight" as the data clock moves.
import type { Dataset, DisclosureRecord } from "../data/model";
import { jstDate } from "./data-clock";
import { TANSHIN_TITLE } from "./publication";

/** The dataset's instant form: ISO 8601 UTC to the second. */
const iso = (ms: number): string => new Date(ms).toISOString().replace(".000Z", "Z");

/** A company's latest results tanshin in the dataset (timely system), or undefined. */
function latestResults(dataset: Dataset, code: string): DisclosureRecord | undefined {
  let latest: DisclosureRecord | undefined;
  for (const record of dataset.disclosures) {
    if (record.security_code !== code || record.item.source !== "tdnet") continue;
    if (!TANSHIN_TITLE.test(record.item.title ?? "")) continue;
    if (latest === undefined || record.meta.disclosed_at > latest.meta.disclosed_at)
      latest = record;
  }
  return latest;
}

/** Per dataset and times object: a route asks for the dataset several times per request. */
const derived = new WeakMap<Dataset, WeakMap<object, Dataset>>();

/**
 * `dataset` with each listed company's latest results tanshin disclosed at the given instant (ISO
 * 8601) instead. Everything that follows a tanshin moves with it: its rows in /financials and
 * /valuations appear 24 hours after it (openapi.json info.description, sandbox/lib/publication.ts)
 * and /disclosures lists it from then. The rest of the dataset is shared, not copied.
 */
export function withFilingTimes(
  dataset: Dataset,
  times: Readonly<Record<string, string>>,
): Dataset {
  let byTimes = derived.get(dataset);
  if (byTimes === undefined) derived.set(dataset, (byTimes = new WeakMap()));
  const known = byTimes.get(times);
  if (known !== undefined) return known;
  const moved = new Map<DisclosureRecord, number>();
  for (const [code, at] of Object.entries(times)) {
    const record = latestResults(dataset, code);
    if (record !== undefined) moved.set(record, Date.parse(at));
  }
  const disclosures = dataset.disclosures
    .map((record) => {
      const at = moved.get(record);
      if (at === undefined) return record;
      const when = { disclosed_at: iso(at), filing_date: jstDate(iso(at)) };
      return {
        ...record,
        item: { ...record.item, ...when },
        // openapi.json DisclosureDocumentMeta: timely system = disclosure + 24 hours.
        meta: { ...record.meta, ...when, available_for_redistribution_at: iso(at + 86_400_000) },
      };
    })
    // Dataset.disclosures: newest first, ties by doc_id descending (sandbox/data/disclosures.ts).
    .sort((a, b) =>
      a.meta.disclosed_at === b.meta.disclosed_at
        ? b.item.doc_id.localeCompare(a.item.doc_id)
        : b.meta.disclosed_at.localeCompare(a.meta.disclosed_at),
    );
  const result: Dataset = { ...dataset, disclosures };
  byTimes.set(times, result);
  return result;
}

/**
 * Filing times for one night of an earnings season: the first `share` of `codes` whose latest
 * results are recent (disclosed within `recentDays` before `night` in the dataset, so their period
 * ended lately and its filing window is open) file at `night`; every other company whose results
 * come later in the dataset has filed by `before`. The rest keep the dataset's times.
 */
export function seasonFilingTimes(
  dataset: Dataset,
  codes: readonly string[],
  share: number,
  night: string,
  before: string,
  recentDays = 30,
): { filers: string[]; times: Record<string, string> } {
  const recentFrom = Date.parse(night) - recentDays * 86_400_000;
  const wanted = Math.round(codes.length * share);
  const filers: string[] = [];
  const times: Record<string, string> = {};
  for (const code of codes) {
    const latest = latestResults(dataset, code);
    if (latest === undefined) continue;
    const at = Date.parse(latest.meta.disclosed_at);
    if (filers.length < wanted && at >= recentFrom) {
      filers.push(code);
      times[code] = night;
    } else if (at > Date.parse(before)) times[code] = before;
  }
  return { filers, times };
}
