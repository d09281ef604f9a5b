// GET /screening (openapi.json getScreening): filter listed securities by metrics, name, sector and
// industry.
import type { Dataset, ScreeningMetricValue } from "../data/model";
import { TSE17_SECTORS, TSE33_INDUSTRIES } from "../data/industries";
import { ApiError } from "../lib/api-error";
import { attribution } from "../lib/attribution";
import { paginate } from "../lib/cursor";
import { jstDate } from "../lib/data-clock";
import { annualResultsPublic } from "../lib/publication";
import { defineRoute } from "../lib/route";
import { matches, parseFilters, type CatalogField } from "../lib/screening-filters";
import { normalizeText } from "../lib/text-match";

/** openapi.json getScreening: filters + sector + industry, at most 20 (the sandbox's tier). */
const MAX_CONDITIONS = 20;
/** openapi.json getScreening: as_of not before 2005-01-01. */
const FIRST_AS_OF = "2005-01-01";

type Metrics = Record<string, ScreeningMetricValue>;

/** Metrics of every screenable security at one date, cached (the dataset is deterministic). */
const metricCache = new WeakMap<Dataset, Map<string, Map<string, Metrics>>>();

function metricsAt(
  dataset: Dataset,
  codes: readonly string[],
  asOf: string,
  now: string,
): Map<string, Metrics> {
  let byDate = metricCache.get(dataset);
  if (byDate === undefined) {
    byDate = new Map();
    metricCache.set(dataset, byDate);
  }
  // Results count once public at the end of the as_of day (JST), or at the data clock for today.
  const endOfDay = new Date(Date.parse(`${asOf}T15:00:00Z`) - 1).toISOString();
  const instant = endOfDay < now ? endOfDay : now;
  const key = `${asOf}|${instant}`;
  let metrics = byDate.get(key);
  if (metrics === undefined) {
    metrics = new Map(
      codes.map((code) => [
        code,
        dataset.screeningMetrics(code, asOf, (fiscalYear) =>
          annualResultsPublic(dataset, code, fiscalYear, instant),
        ),
      ]),
    );
    if (byDate.size >= 8) byDate.delete(byDate.keys().next().value as string);
    byDate.set(key, metrics);
  }
  return metrics;
}

/** Splits a comma list and checks each name against the known names (400 unknown_value). */
function nameList(
  param: string,
  text: string | undefined,
  known: readonly string[],
): Set<string> | null {
  if (text === undefined) return null;
  const names = text.split(",").map((s) => s.trim());
  for (const name of names) {
    if (!known.includes(name)) {
      throw ApiError.param(param, "unknown_value", known.join(", "), `Unknown ${param} '${name}'.`);
    }
  }
  return new Set(names);
}

/**
 * openapi.json getScreening as_of: `now` (the data clock's JST date) or a date in [2005-01-01,
 * today].
 */
function resolveAsOf(text: string, now: string): string {
  const today = jstDate(now);
  if (text === "now") return today;
  if (text < FIRST_AS_OF || text > today) {
    throw ApiError.param("as_of", "out_of_range", `now, or a date ${FIRST_AS_OF}..${today}`);
  }
  return text;
}

export const screeningRoute = defineRoute({
  operationId: "getScreening",
  handle({ state, params, page }) {
    const dataset = state.dataset();
    const catalog = new Map<string, CatalogField>(dataset.screeningFields.map((f) => [f.key, f]));
    const filtersText = params.str("filters");
    const conditions = filtersText === undefined ? [] : parseFilters(filtersText, catalog);
    const sectors = nameList("sector", params.str("sector"), TSE17_SECTORS);
    const industries = nameList("industry", params.str("industry"), TSE33_INDUSTRIES);
    const count = conditions.length + (sectors === null ? 0 : 1) + (industries === null ? 0 : 1);
    if (count > MAX_CONDITIONS) {
      throw ApiError.param(
        "filters",
        "too_many_items",
        `at most ${MAX_CONDITIONS} conditions (filters + sector + industry)`,
        `Too many screening conditions: ${count} (filters + sector + industry); the limit is ${MAX_CONDITIONS}.`,
      );
    }
    const sortBy = params.str("sort_by");
    if (sortBy !== undefined && catalog.get(sortBy)?.type !== "numeric") {
      throw ApiError.param("sort_by", "unknown_value", "a numeric key of GET /screening/fields");
    }
    const asOf = resolveAsOf(params.reqStr("as_of"), state.now());
    const { offset, hash } = page();

    const name = params.str("name");
    const needle = name === undefined ? "" : normalizeText(name);
    // Screenable: primary listed securities of corporations (ETFs and REITs have no metrics).
    const universe = dataset.securities.filter(
      (s) =>
        s.is_primary &&
        s.edinet_code !== null &&
        s.sector !== null &&
        (needle === "" || normalizeText(s.name).includes(needle)) &&
        (sectors === null || sectors.has(s.sector)) &&
        (industries === null || industries.has(s.industry)),
    );
    const screenable = dataset.securities.filter(
      (s) => s.is_primary && s.edinet_code !== null && s.sector !== null,
    );
    const metrics = metricsAt(
      dataset,
      screenable.map((s) => s.code),
      asOf,
      state.now(),
    );
    const hits = universe.filter((s) => {
      const values = metrics.get(s.code) ?? {};
      return conditions.every((c) => {
        const metric = values[c.field];
        return metric !== undefined && matches(metric.value, c);
      });
    });
    const sign = params.reqStr("sort_order") === "asc" ? 1 : -1;
    hits.sort((a, b) => {
      if (sortBy !== undefined) {
        const va = metrics.get(a.code)?.[sortBy]?.value;
        const vb = metrics.get(b.code)?.[sortBy]?.value;
        // Securities without a value sort last in either order.
        if (va !== undefined && vb === undefined) return -1;
        if (va === undefined && vb !== undefined) return 1;
        if (va !== undefined && vb !== undefined && va !== vb) return (va - vb) * sign;
      }
      return a.code.localeCompare(b.code);
    });
    const referenced = [
      ...new Set([...conditions.map((c) => c.field), ...(sortBy === undefined ? [] : [sortBy])]),
    ];
    const { page: items, next_cursor } = paginate(hits, offset, params.reqNum("limit"), hash);
    return {
      securities: items.map((s) => {
        const values = metrics.get(s.code) ?? {};
        return {
          security_code: s.code,
          edinet_code: s.edinet_code ?? "",
          name: s.name,
          // Every metric referenced by filters and sort_by, with its evaluation date.
          metrics: referenced.flatMap((field) => {
            const metric = values[field];
            return metric === undefined
              ? []
              : [{ field, value: metric.value, as_of: metric.as_of }];
          }),
        };
      }),
      total_count: hits.length,
      next_cursor,
      attribution: attribution(),
    };
  },
});
