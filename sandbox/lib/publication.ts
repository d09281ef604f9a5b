// When a fiscal period's figures become public: 24 hours after its results tanshin (openapi.json
// info.description).
import type { Dataset } from "../data/model";
import { isPastTimelyDelay } from "./data-clock";
import { periodEnd } from "./fiscal-period";
import { indexes } from "./lookup";

/** `YYYY年M月期 [第N四半期|中間期]決算短信`: the timely-system results report of a period. */
export const TANSHIN_TITLE = /^(\d{4})年(\d{1,2})月期\s*(?:第([1-4])四半期|(中間期))?決算短信/;

/** Which results report carries a row: the annual one, or a quarter's. */
function reportKey(quarter: string | undefined): "annual" | "Q1" | "H1" | "Q3" {
  if (quarter === "Q1") return "Q1";
  if (quarter === "Q2" || quarter === "H1") return "H1";
  if (quarter === "Q3") return "Q3";
  return "annual";
}

const cache = new WeakMap<Dataset, Map<string, Map<string, string>>>();

/** `${fiscal_year}|${report}` -> disclosed_at of that results tanshin, for one security. */
function tanshinTimes(dataset: Dataset, code: string): Map<string, string> {
  let byCode = cache.get(dataset);
  if (byCode === undefined) {
    byCode = new Map();
    cache.set(dataset, byCode);
  }
  let times = byCode.get(code);
  if (times === undefined) {
    times = new Map();
    for (const record of indexes(dataset).disclosuresByCode.get(code) ?? []) {
      if (record.item.source !== "tdnet") continue;
      const match = TANSHIN_TITLE.exec(record.item.title ?? "");
      if (match === null) continue;
      const fiscalYear = `${match[1]}/${(match[2] ?? "").padStart(2, "0")}`;
      const report =
        match[4] !== undefined
          ? "H1"
          : match[3] === "2"
            ? "H1"
            : match[3] === undefined || match[3] === "4"
              ? "annual"
              : `Q${match[3]}`;
      const key = `${fiscalYear}|${report}`;
      const earlier = times.get(key);
      // A corrected re-release keeps the first disclosure time.
      if (earlier === undefined || record.meta.disclosed_at < earlier)
        times.set(key, record.meta.disclosed_at);
    }
    byCode.set(code, times);
  }
  return times;
}

/**
 * True when a financial row (or a valuation year) is public at the data clock: 24 hours after the
 * results tanshin it comes from; without a known tanshin (before the timely archive), once the
 * period has ended.
 */
export function isPublished(
  dataset: Dataset,
  code: string,
  fiscalYear: string,
  quarter: string | undefined,
  now: string,
  today: string,
): boolean {
  const at = tanshinTimes(dataset, code).get(`${fiscalYear}|${reportKey(quarter)}`);
  if (at !== undefined) return isPastTimelyDelay(at, now);
  return periodEnd(fiscalYear, quarter) <= today;
}

/**
 * Whether a fiscal year's annual results are public at `instant` by the 24-hour rule (openapi.json
 * info.description); undefined when its results tanshin is not in the store (before the timely
 * archive), where the caller applies its own rule.
 */
export function annualResultsPublic(
  dataset: Dataset,
  code: string,
  fiscalYear: string,
  instant: string,
): boolean | undefined {
  const at = tanshinTimes(dataset, code).get(`${fiscalYear}|annual`);
  return at === undefined ? undefined : isPastTimelyDelay(at, instant);
}
