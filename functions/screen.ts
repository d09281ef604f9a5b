// SCREEN (multi-condition screening, GET /screening) and SCREENFIELDS (its metric catalogue).

import type { ScreeningField, ScreeningResponse, ScreeningSecurity } from "../src/contract";
import {
  isKaishaError,
  validateParams,
  ValidationError,
  loadIndustryNames,
  needsIndustryNames,
} from "../src/client";
import {
  ArgumentError,
  headersArg,
  listArg,
  optionalDate,
  optionalInteger,
  optionalText,
  scalarOf,
  isOmitted,
} from "../src/excel/args";
import { isFutureDate, jstIsoDate, upToToday } from "../src/excel/dates";
import type { Column } from "../src/excel/shape";
import { fieldKey, snakeToCamel } from "../src/excel/field-names";
import { unitCell } from "../src/excel/number-formats";
import { unitLabel } from "../src/excel/labels";
import {
  everyUnitExplicit,
  readPercentSigns,
  thresholdsForApi,
} from "../src/excel/screen-thresholds";
import { dateCell, type Cell } from "../src/excel/values";
import { noResults, plainColumn, table, titleRow, titleRowToday } from "./common";
import { optionalOrderArg } from "../src/excel/order";
import { run, type CallContext, type InvocationLike } from "./run";

/**
 * openapi.json getScreening: limit 1..100 per page; SCREEN pages through for up to this many rows.
 */
const MAX_ROWS = 1000;
const PAGE_MAX = 100;

const LIST_ACCEPTED = {
  en: "text, comma separated, or a range",
  ja: "文字列（カンマ区切り）またはセル範囲",
};

/**
 * The metric keys a screen references, in order: filter fields, then sort_by (openapi.json
 * getScreening).
 */
function referencedMetrics(filters: string | undefined, sortBy: string | undefined): string[] {
  const out: string[] = [];
  for (const part of filters?.split(",") ?? []) {
    const field = part.trim().split(":")[0]?.trim();
    if (field && !out.includes(field)) out.push(field);
  }
  if (sortBy && !out.includes(sortBy)) out.push(sortBy);
  return out;
}

/**
 * openapi.json getScreening, ErrorResponse: a metric key the API does not know is a 400
 * `unknown_value` on filters or sort_by. The API's own hint names its endpoint; the cell names the
 * argument, what was typed, and the function that lists the keys, in the user's language.
 */
function unknownMetric(
  err: unknown,
  filters: string | undefined,
  sortBy: string | undefined,
): ArgumentError | undefined {
  if (!isKaishaError(err) || err.code !== "invalid_parameter") return undefined;
  const detail = err.details?.find(
    (d) => d.reason === "unknown_value" && (d.param === "filters" || d.param === "sort_by"),
  );
  if (detail === undefined) return undefined;
  return detail.param === "sort_by"
    ? new ArgumentError(
        "sort_by",
        {
          en: "a numeric metric key from =KAISHA.SCREENFIELDS(), e.g. marketCap",
          ja: "=KAISHA.SCREENFIELDS() の数値指標キー（marketCap など）",
        },
        sortBy,
      )
    : new ArgumentError(
        "filters",
        {
          en: "field:op:value[:unit] with numeric metric keys from =KAISHA.SCREENFIELDS(), e.g. per:lte:15",
          ja: "=KAISHA.SCREENFIELDS() の数値指標キーで field:op:value[:unit]（例 per:lte:15）",
        },
        filters,
      );
}

/**
 * The syntax check's error worded with the user's own text: it ran with the metric names set aside
 * ("metric:under:15"), and a message quoting that placeholder sends the user looking for a "metric"
 * they never typed.
 */
function echoTyped(
  err: ValidationError,
  filters: string | undefined,
  sortBy: string | undefined,
): ValidationError {
  return new ValidationError(err.details, {
    values: {
      ...(filters !== undefined ? { filters } : {}),
      ...(sortBy !== undefined ? { sort_by: sortBy } : {}),
    },
  });
}

const METRIC_WHERE = {
  en: "a numeric metric key or Japanese label from =KAISHA.SCREENFIELDS(), e.g. marketCap, market_cap or 時価総額",
  ja: "=KAISHA.SCREENFIELDS() の数値指標のキーまたは日本語名（marketCap、market_cap、時価総額 など）",
};

/** The metric names of `field:op:value[:unit]` conditions, and a rebuild with other names. */
function conditionFields(filters: string): string[] {
  return filters.split(",").map((part) => (part.split(":")[0] ?? "").trim());
}
function withFields(filters: string, names: readonly string[]): string {
  return filters
    .split(",")
    .map((part, i) => [names[i] ?? "", ...part.split(":").slice(1)].join(":"))
    .join(",");
}

/**
 * Metric names as typed -> the API's camelCase keys, before the screening request: a key in any
 * case, snake_case (`market_cap`), full width or the catalogue's Japanese label (`時価総額`). An
 * unknown name is #VALUE! naming the nearest metric, and the screening request is never sent.
 * The catalogue (GET /screening/fields, cached a day and shared with SCREENFIELDS and the task
 * pane) also gives the columns their labels and units. Without it (API down), names that are
 * already keys or snake_case keys still work; Japanese labels then need it and the error shows.
 */
async function resolveMetrics(
  ctx: CallContext,
  filters: string | undefined,
  sortBy: string | undefined,
): Promise<{ filters?: string; sortBy?: string; catalog: ScreeningField[] }> {
  const names = [...(filters !== undefined ? conditionFields(filters) : []), sortBy];
  if (names.every((n) => n === undefined)) return { catalog: [] };
  let catalog: ScreeningField[];
  try {
    catalog = (await ctx.client.screeningFields(ctx.options)).fields;
  } catch (err) {
    if (!names.every((n) => n === undefined || /^[A-Za-z][A-Za-z0-9_]*$/.test(n))) throw err;
    // A threshold without a unit is read on the sheet's scale, which needs the metric's unit
    // (screen-thresholds.ts): without the catalogue it could be off by 100, so nothing is sent.
    if (filters !== undefined && !everyUnitExplicit(filters)) throw err;
    const camel = (n: string): string => (n.includes("_") ? snakeToCamel(n.toLowerCase()) : n);
    return {
      ...(filters !== undefined
        ? { filters: withFields(filters, conditionFields(filters).map(camel)) }
        : {}),
      ...(sortBy !== undefined ? { sortBy: camel(sortBy) } : {}),
      catalog: [],
    };
  }
  const numeric = catalog
    .filter((f) => f.type === "numeric")
    .map((f) => ({ key: f.key, label: f.label }));
  const key = (name: string, argument: string): string =>
    fieldKey(name, numeric, argument, METRIC_WHERE);
  return {
    ...(filters !== undefined
      ? {
          filters: withFields(
            filters,
            conditionFields(filters).map((n) => key(n, "filters")),
          ),
        }
      : {}),
    ...(sortBy !== undefined ? { sortBy: key(sortBy, "sort_by") } : {}),
    catalog,
  };
}

/**
 * SCREEN: security_code, edinet_code, name, then one column per referenced metric. `filters` and
 * `sector` / `industry` take text or a range of cells (one condition or name per cell).
 */
export function screen(
  filters: unknown,
  sortBy: unknown,
  sortOrder: unknown,
  sector: unknown,
  industry: unknown,
  asOf: unknown,
  limit: unknown,
  name: unknown,
  headers: unknown,
  invocation?: InvocationLike,
): Promise<Cell[][]> {
  return run(invocation, async (ctx) => {
    const typed = listArg(filters, "filters", {
      en: "conditions field:op:value[:unit], e.g. per:lte:15",
      ja: "条件 field:op:value[:unit]（例 per:lte:15）",
    })?.join(",");
    // `3%` is the fraction 0.03, like the cells SCREEN writes (screen-thresholds.ts).
    const signs = typed === undefined ? undefined : readPercentSigns(typed);
    const filterText = signs?.filters;
    const sort = optionalText(sortBy, "sort_by", 100);
    const order = optionalOrderArg(sortOrder, "sort_order");
    const sectors = listArg(sector, "sector", LIST_ACCEPTED)?.join(",");
    const industries = listArg(industry, "industry", LIST_ACCEPTED)?.join(",");
    const asOfValue = scalarOf(asOf);
    const typedDate =
      isOmitted(asOfValue) ||
      (typeof asOfValue === "string" && asOfValue.trim().toLowerCase() === "now")
        ? undefined
        : optionalDate(asOfValue, "as_of");
    // openapi.json getScreening as_of: not in the future. The user's today east of Japan is the
    // latest day: sent as JST today (a later day is refused by the contract check, before any
    // request).
    const today = ctx.client.today();
    const date =
      typedDate !== undefined && !isFutureDate(typedDate, today, ctx.client.userToday())
        ? upToToday(typedDate, today)
        : typedDate;
    const count = optionalInteger(limit, "limit", { min: 1, max: MAX_ROWS }) ?? 30;
    const nameText = optionalText(name, "name", 100);
    const mode = headersArg(headers);

    // Syntax first (operators, thresholds, units, condition count, industry names), with the
    // metric names set aside: a malformed screen sends nothing, not even the catalogue request.
    const probe = (n: string): string => (n === "" ? n : "metric");
    // The same query twice: once with placeholder metric names to check the syntax, once to send.
    const screenQuery = (filters: string | undefined, sortBy: string | undefined) => ({
      ...(filters !== undefined ? { filters } : {}),
      ...(sortBy !== undefined ? { sort_by: sortBy } : {}),
      ...(order !== undefined ? { sort_order: order } : {}),
      ...(sectors !== undefined ? { sector: sectors } : {}),
      ...(industries !== undefined ? { industry: industries } : {}),
      ...(date !== undefined ? { as_of: date } : {}),
      ...(nameText !== undefined ? { name: nameText } : {}),
      limit: Math.min(count, PAGE_MAX),
    });
    const syntaxQuery = screenQuery(
      filterText !== undefined
        ? withFields(filterText, conditionFields(filterText).map(probe))
        : undefined,
      sort !== undefined ? "metric" : undefined,
    );
    // The sector / industry check reads the TSE name tables, a chunk of their own: the client's
    // own test of whether a query needs them.
    if (needsIndustryNames("getScreening", syntaxQuery)) await loadIndustryNames();
    try {
      validateParams("getScreening", syntaxQuery);
    } catch (err) {
      // The check ran on placeholder metric names: the message echoes what the user typed.
      if (err instanceof ValidationError) throw echoTyped(err, filterText, sort);
      throw err;
    }
    const resolved = await resolveMetrics(ctx, filterText, sort);
    const info = new Map(resolved.catalog.map((f) => [f.key, f]));
    // Thresholds on the sheet's scale -> the API's: 0.03 on a `percent` metric is sent as 3.
    const sent =
      resolved.filters === undefined || signs === undefined
        ? undefined
        : thresholdsForApi(resolved.filters, signs.typedPercent, (k) => info.get(k)?.unit);
    const query = screenQuery(sent, resolved.sortBy);
    const rows: ScreeningSecurity[] = [];
    let first: ScreeningResponse | undefined;
    const pages = Math.ceil(count / PAGE_MAX);
    try {
      for await (const page of ctx.client.paginate("getScreening", query, {
        ...ctx.options,
        maxPages: pages,
      })) {
        first ??= page;
        rows.push(...page.securities);
        if (rows.length >= count) break;
      }
    } catch (err) {
      throw unknownMetric(err, typed, resolved.sortBy) ?? err;
    }
    if (first === undefined || rows.length === 0) throw noResults();
    const shown = rows.slice(0, count);

    const metrics = referencedMetrics(resolved.filters, resolved.sortBy);
    const columns: Column<ScreeningSecurity>[] = [
      plainColumn("security_code") as Column<ScreeningSecurity>,
      plainColumn("edinet_code") as Column<ScreeningSecurity>,
      plainColumn("name") as Column<ScreeningSecurity>,
      ...metrics.map((key): Column<ScreeningSecurity> => {
        const field = info.get(key);
        return {
          key,
          ...(field !== undefined ? { label: unitLabel(field.label, field.unit) as string } : {}),
          // The catalogue's unit gives the scale and format: percentages as fractions shown as %
          // (percent-scale.ts), money with separators.
          value: (s) =>
            unitCell(s.metrics.find((m) => m.field === key)?.value, field?.unit, "jpy", ctx.host),
        };
      }),
    ];
    // openapi.json ScreeningSecurityMetric: each metric carries its evaluation date; "now" is the
    // latest trading data, not today.
    const evaluated = shown
      .flatMap((s) => s.metrics.map((m) => m.as_of))
      .reduce<string | undefined>((a, b) => (a === undefined || b > a ? b : a), undefined);
    const title = titleRow(
      ctx,
      first,
      "screening",
      `screening (${first.total_count})`,
      dateCell(evaluated ?? date ?? jstIsoDate(), ctx.host),
      first.attribution,
    );
    return table(ctx, columns, shown, mode, title);
  });
}

/** SCREENFIELDS: the screening metric catalogue (key, label, unit, type, note). */
export function screenFields(headers: unknown, invocation?: InvocationLike): Promise<Cell[][]> {
  return run(invocation, async (ctx) => {
    const mode = headersArg(headers);
    const body = await ctx.client.screeningFields(ctx.options);
    if (body.fields.length === 0) throw noResults();
    const columns = ["key", "label", "unit", "type", "note"].map(
      (k) => plainColumn(k) as Column<ScreeningField>,
    );
    const title = titleRowToday(ctx, body, "screening", "screening fields");
    return table(ctx, columns, body.fields, mode, title);
  });
}
