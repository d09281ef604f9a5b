// Helpers shared by the function adapters: field lists, columns, title rows and "no results".

import { NotFoundError, isStale, RateLimitError, staleInfo } from "../src/client";
import { knownFieldList, rememberFieldList } from "./cells/interned-args";
import type { Attribution, DisclosureAttribution } from "../src/contract";
import type { Dataset } from "../src/contract";
import { listArg, type MoneyUnit } from "../src/excel/args";
import { datasetNames, fieldKey, fieldsWhere } from "../src/excel/field-names";
import { jstIsoDate } from "../src/excel/dates";
import { columnName, fieldInfo, labelJa, titleCaption, unitLabel } from "../src/excel/labels";
import { buildTable, type Column, type TitleRow } from "../src/excel/shape";
import { unitCell } from "../src/excel/number-formats";
import { moneyUnitFor } from "../src/excel/units";
import {
  dateCell,
  dateTimeCell,
  plainCell,
  type Cell,
  type HostCapabilities,
} from "../src/excel/values";
import type { HeaderMode } from "../src/excel/args";
import { inOrder, type Order } from "../src/excel/order";
import type { HeaderLanguage } from "../src/excel/shape";
import { getHostCapabilities } from "./host";

/**
 * What a table's look depends on besides its data: the host's number formats and the header
 * language. A call's context is one (functions/run.ts CallContext); the warm path of a table
 * (functions/cells/define-table.ts) passes the session's without a call.
 */
export interface Shaping {
  readonly host: HostCapabilities;
  readonly headerLanguage: HeaderLanguage;
}

/** #N/A "No data for these conditions" (openapi.json EmptyReason: empty lists are 200 + reason). */
export function noResults(): NotFoundError {
  return new NotFoundError("no_results");
}

/**
 * A list of field keys from `fields`/`items` ("a,b", a range, "*" for all). Each name may be the
 * key, its snake_case/camelCase/full-width form or the Japanese label the functions show
 * (`売上高`); anything else is refused before any request, naming the nearest key when one is close
 * (src/excel/field-names.ts) and FIELDS(dataset), where the valid ones are listed. `one`: the
 * argument takes a single name (FINANCIAL's item, PRICE's field), which its messages say.
 */
export function fieldList(
  value: unknown,
  argument: string,
  allowed: readonly string[],
  defaults: readonly string[],
  dictionary: Dataset,
  one = false,
): string[] {
  // A model repeats the same few item texts in every cell: a text already read for this argument
  // is the same keys (the dictionary is fixed), so it skips the split, normalising and matching.
  if (typeof value !== "string")
    return parseFieldList(value, argument, allowed, defaults, dictionary, one);
  const key = `${dictionary}|${argument}|${one ? 1 : 0}|${defaults.join(",")}|${value}`;
  const known = knownFieldList(allowed, key);
  if (known !== undefined) return known;
  const out = parseFieldList(value, argument, allowed, defaults, dictionary, one);
  rememberFieldList(allowed, key, out);
  return out;
}

function parseFieldList(
  value: unknown,
  argument: string,
  allowed: readonly string[],
  defaults: readonly string[],
  dictionary: Dataset,
  one: boolean,
): string[] {
  const where = fieldsWhere(dictionary, one);
  const list = listArg(value, argument, where);
  if (list === undefined) return [...defaults];
  if (list.length === 1 && list[0] === "*") return [...allowed];
  const candidates = datasetNames(dictionary, allowed);
  const out: string[] = [];
  for (const name of list) {
    const found = fieldKey(name, candidates, argument, where);
    if (!out.includes(found)) out.push(found);
  }
  return out;
}

type Row = Record<string, unknown>;

/**
 * A numeric field column: label from the field dictionary, money scaled by `unit` (units.ts), a
 * percentage as a fraction (percent-scale.ts), shown in its contract unit's format where the host
 * has formatted numbers (number-formats.ts).
 */
export function numberColumn(
  dataset: Dataset,
  key: string,
  unit: MoneyUnit = "jpy",
  host: HostCapabilities = getHostCapabilities(),
): Column<Row> {
  const info = fieldInfo(dataset, key);
  const fieldUnit = info?.unit;
  // openapi.json x-money-kind: the unit scales amounts only, never a price per share.
  const money = moneyUnitFor(info, unit);
  return column(key, dataset, (r) => unitCell(r[key], fieldUnit, money, host), fieldUnit);
}

/**
 * A column of API field `key`: the one name every function uses for its concept (labels.ts
 * columnName: `code` -> `security_code`), its Japanese label (a percentage's with （%）, labels.ts
 * unitLabel), and the cell for a record.
 */
function column(
  key: string,
  dataset: Dataset | undefined,
  value: (r: Row) => Cell,
  unit?: string,
): Column<Row> {
  const label = unitLabel(labelJa(key, dataset), unit);
  return { key: columnName(key), ...(label !== undefined ? { label } : {}), value };
}

/** A text / flag column (label from the shared table). */
export function plainColumn(key: string, dataset?: Dataset): Column<Row> {
  return column(key, dataset, (r) => plainCell(r[key]));
}

/** A calendar-date column ("YYYY-MM-DD" -> serial). */
export function dateColumn(key: string, ctx: Shaping): Column<Row> {
  return column(key, undefined, (r) => dateCell(r[key] as string | null, ctx.host));
}

/** An instant column (ISO UTC -> JST date-time serial). */
export function dateTimeColumn(key: string, ctx: Shaping): Column<Row> {
  return column(key, undefined, (r) => dateTimeCell(r[key] as string | null, ctx.host));
}

/** A number column outside the field dictionary (rankings, compensation) in its contract unit. */
export function unitColumn(key: string, unit: string, ctx: Shaping): Column<Row> {
  return column(key, undefined, (r) => unitCell(r[key], unit, "jpy", ctx.host), unit);
}

/** The language of title rows: the header language (no "financials annual (百万円)"). */
export function titleLang(ctx: Shaping): "en" | "ja" {
  return ctx.headerLanguage === "ja" ? "ja" : "en";
}

/** Why a table shows its last good answer (src/client/stale.ts), in the title row's words. */
const STALE_CAPTIONS = {
  // send-state.ts: the daily limit and a refused key hold the key; nothing is sent.
  daily: { en: " (stale: daily request limit reached)", ja: "（前回取得値・1日の上限に到達）" },
  key: { en: " (stale: API key refused)", ja: "（前回取得値・API キーが拒否されました）" },
  // response-check.ts: an answer of another shape than openapi.json's is no figure.
  shape: { en: " (stale: unexpected answer from the API)", ja: "（前回取得値・API の応答が不正）" },
  down: { en: " (stale: API unavailable)", ja: "（前回取得値・API 応答なし）" },
} as const;

function staleCaption(body: unknown, lang: "en" | "ja"): string {
  const error = staleInfo(body)?.error;
  const why =
    error instanceof RateLimitError && error.daily
      ? "daily"
      : error?.code === "unauthorized"
        ? "key"
        : error?.code === "bad_response"
          ? "shape"
          : "down";
  return STALE_CAPTIONS[why][lang];
}

/**
 * The title row of headers mode 2: identifier, dataset, as-of, source label. A stale answer (the
 * API failed and the last good one is shown) says so in the dataset cell.
 */
export function titleRow(
  ctx: Shaping,
  body: unknown,
  identifier: string,
  dataset: string,
  asOf: Cell,
  attribution: Attribution | DisclosureAttribution | undefined,
): TitleRow {
  const stale = isStale(body) ? staleCaption(body, titleLang(ctx)) : "";
  return {
    identifier,
    dataset: `${titleCaption(dataset, ctx.headerLanguage)}${stale}`,
    asOf,
    source: attribution?.source_label ?? "",
  };
}

/**
 * The title row of a dataset that carries no date of its own (officers, persons, peers, lists):
 * as of today, the JST calendar day (spec: dates are JST).
 */
export function titleRowToday(
  ctx: Shaping,
  body: { attribution?: Attribution | DisclosureAttribution },
  identifier: string,
  dataset: string,
): TitleRow {
  return titleRow(
    ctx,
    body,
    identifier,
    dataset,
    dateCell(jstIsoDate(), ctx.host),
    body.attribution,
  );
}

/** How a dated dataset's table is laid out: its header mode and the order of its rows. */
export interface TableLayout {
  mode: HeaderMode;
  direction: Order;
}

/**
 * A dated dataset's rows as a table in the order asked (`timeOf`: a row's sortable date), in the
 * user's header language: the one shape of VALUATION, DIVIDENDS, SEGMENTS, MARGIN, JSFMARGIN and
 * DISCLOSURES.
 */
export function orderedTable<R>(
  ctx: Shaping,
  columns: readonly Column<Record<string, unknown>>[],
  rows: readonly R[],
  timeOf: (row: R) => string,
  layout: TableLayout,
  title?: TitleRow,
): Cell[][] {
  const ordered = inOrder(rows, timeOf, layout.direction) as unknown as Record<string, unknown>[];
  return table(ctx, columns, ordered, layout.mode, title);
}

/** Builds a table in the user's header language. */
export function table<R>(
  ctx: Shaping,
  columns: readonly Column<R>[],
  rows: readonly R[],
  headers: HeaderMode,
  title?: TitleRow,
): Cell[][] {
  return buildTable({
    columns,
    rows,
    headers,
    headerLanguage: ctx.headerLanguage,
    ...(title ? { title } : {}),
  });
}
