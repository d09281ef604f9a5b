// Traces of a price: a PRICE cell (the latest trading day, or the last one on or before its date)
// and a cell of a PRICES table, each to its trading day and the exchange data it comes from.

import type { PricesResponse, SecurityDailyPrice } from "../../src/contract";
import { optionalDate } from "../../src/excel/args";
import { serialToIso } from "../../src/excel/dates";
import { EARLIEST_DATE } from "../../src/client";
import { PRICE_FIELDS } from "../../functions/price-cell";
import { fieldList } from "../../functions/common";
import type { Lang } from "../i18n/language";
import { tracedCompany } from "./company-trace";
import { cellReason, tablePlace } from "./table-place";
import {
  answerOf,
  columnOf,
  fetchState,
  itemOf,
  keyOfHeader,
  requestOf,
  type SelectedCell,
  type TraceDeps,
} from "./trace-parts";
import type { CellTrace, TraceFetch } from "./trace-model";

/** The day a PRICE or PRICES row is for, and the answer and request behind it. */
interface Day {
  row: SecurityDailyPrice;
  exchange: string;
  fetch?: TraceFetch;
  request?: NonNullable<CellTrace["request"]>;
}

/** openapi.json getPrices "see attribution": the source label names the exchange's data. */
function exchangeOf(body: PricesResponse | undefined): string {
  return body?.attribution.source_label ?? "";
}

/** openapi.json getPrices `limit`: the page PRICE's calendar-year windows ask. */
const WINDOW_LIMIT = 500;

/**
 * The calendar-year window holding `day` as PRICE asked it (src/domain/price-windows.ts
 * yearWindow: from the year's first day, to its last for a past year, no `to` for the current
 * one), found in the cache in either form.
 */
function storedWindow(deps: TraceDeps, code: string, day: string) {
  const year = day.slice(0, 4);
  const from = `${year}-01-01` < EARLIEST_DATE ? EARLIEST_DATE : `${year}-01-01`;
  for (const params of [
    { from, to: `${year}-12-31`, limit: WINDOW_LIMIT },
    { from, limit: WINDOW_LIMIT },
  ]) {
    const stored = deps.stored?.("getPrices", { code, ...params });
    if (stored !== undefined) return { stored, params };
  }
  return undefined;
}

/**
 * The row of the last trading day on or before `day`, from the windows received (never a
 * request), with the window that holds it where the cache has it.
 */
async function dayRow(deps: TraceDeps, code: string, day: string): Promise<Day | undefined> {
  const row = await deps.priceOnOrBefore?.(code, day).catch(() => undefined);
  if (row === undefined) return undefined;
  const window = storedWindow(deps, code, row.date);
  const latest = answerOf(deps, "getPrices", { code, limit: 1 }) as PricesResponse | undefined;
  const body = (window?.stored.body as PricesResponse | undefined) ?? latest;
  return {
    row,
    exchange: exchangeOf(body),
    ...(window
      ? {
          fetch: fetchState(window.stored.body, window.stored.storedAt),
          request: requestOf(`GET /securities/${code}/prices`, window.params),
        }
      : {}),
  };
}

/** The latest trading day (openapi.json getPrices limit 1), or the last close before a day without one. */
async function latestRow(deps: TraceDeps, code: string): Promise<Day | undefined> {
  const params = { code, limit: 1 };
  const latest = answerOf(deps, "getPrices", params) as PricesResponse | undefined;
  const first = latest?.prices[0];
  if (latest === undefined || first === undefined) return undefined;
  // functions/price-cell.ts: the latest day without a trade (close null) reads the last close.
  const row = first.close === null ? (await dayRow(deps, code, first.date))?.row : first;
  if (row === undefined) return undefined;
  return {
    row,
    exchange: exchangeOf(latest),
    fetch: fetchState(latest, deps.stored?.("getPrices", params)?.storedAt),
    request: requestOf(`GET /securities/${code}/prices`, { limit: 1 }),
  };
}

function priceTrace(
  base: CellTrace,
  shown: NonNullable<CellTrace["company"]>,
  key: string,
  day: Day,
  lang: Lang,
): CellTrace {
  const value =
    key === "date" ? day.row.date : (day.row as unknown as Record<string, unknown>)[key];
  return {
    ...base,
    company: shown,
    ...(key === "date" ? {} : { item: itemOf(key, "prices", lang) }),
    period: { label: day.row.date },
    ...(typeof value === "number" || typeof value === "string" || value === null
      ? { apiValue: value }
      : {}),
    source: { kind: "price", date: day.row.date, exchange: day.exchange },
    qualifiers: key === "adj_close" ? [{ code: "split_adjusted" }] : [],
    ...(day.fetch ? { fetch: day.fetch } : {}),
    ...(day.request ? { request: day.request } : {}),
  };
}

/** PRICE: the day's quote (the latest day, or the day PRICE's own "date" reads). */
export async function tracePrice(
  cell: SelectedCell,
  deps: TraceDeps,
  lang: Lang,
  base: CellTrace,
): Promise<CellTrace> {
  const [company, field, date] = cell.args;
  // As PRICE reads them (functions/price-cell.ts): the field key, the day.
  const key = fieldList(field, "field", [...PRICE_FIELDS, "date"], ["close"], "prices", true)[0];
  const day = optionalDate(date, "date");
  const who = await tracedCompany(company, deps.client, deps.names);
  const code = who?.shown.code;
  if (who === undefined || code === undefined || key === undefined)
    return { ...base, unresolved: "not_in_memory" };
  const found = day === undefined ? await latestRow(deps, code) : await dayRow(deps, code, day);
  if (found === undefined) return { ...base, company: who.shown, unresolved: "not_in_memory" };
  return priceTrace(base, who.shown, key, found, lang);
}

/** A date cell as Excel holds it (a serial) or as text: YYYY-MM-DD. */
function isoDay(v: unknown): string | undefined {
  if (typeof v === "number" && Number.isFinite(v)) return serialToIso(v);
  const s = typeof v === "string" ? v.trim() : "";
  return /^\d{4}-\d{2}-\d{2}$/.test(s) ? s : undefined;
}

/** PRICES: a day's row of the table (its date column) and the column's field. */
export async function tracePricesCell(
  cell: SelectedCell,
  deps: TraceDeps,
  lang: Lang,
  base: CellTrace,
): Promise<CellTrace> {
  const place = await tablePlace(cell, 5, "PRICES", deps.rerun);
  if (place === undefined)
    return { ...base, unresolved: "unsupported", reason: cellReason(cell, 5) };
  const { spill, head, row, col } = place;
  const header = spill[head] ?? [];
  const dayAt = columnOf(header, "date");
  const day = isoDay(spill[row]?.[dayAt < 0 ? 0 : dayAt]);
  const key = col === dayAt ? "date" : keyOfHeader(header[col], "prices");
  if (day === undefined || key === undefined)
    return { ...base, unresolved: "unsupported", reason: "place" };
  const who = await tracedCompany(cell.args[0], deps.client, deps.names);
  const code = who?.shown.code;
  if (who === undefined || code === undefined) return { ...base, unresolved: "not_in_memory" };
  const found = await dayRow(deps, code, day);
  // A PRICES row is a trading day itself: the row on or before it is that day.
  if (found === undefined || found.row.date !== day)
    return { ...base, company: who.shown, unresolved: "not_in_memory" };
  return priceTrace(base, who.shown, key, found, lang);
}
