// Resolves a selected KAISHA cell into its trace (trace-model.ts) from the answers in memory: the
// same parsers, period choice and windows the functions use, and no request but the company's
// disclosures list (asked through `disclosures`, which the pane may hold back).

import type {
  DividendRecord,
  FinancialsPeriod,
  FinancialsResponse,
  PricesResponse,
  SecurityDisclosuresResponse,
} from "../../src/contract";
import { FIELD_DICTIONARY } from "../../src/contract";
import type { Dataset } from "../../src/contract";
import type { KaishaClient } from "../../src/client";
import { staleInfo } from "../../src/client/stale";
import { knownFinancialsAsk } from "../../src/domain/company-resolver";
import { FINANCIALS_FETCH_YEARS } from "../../src/domain/financials-window";
import type { Company } from "../../src/excel/args";
import {
  isSecondHalf,
  ltmAnchor,
  secondHalfValue,
  type FiscalPeriodSpec,
} from "../../src/excel/financial-period";
import { labelJa, unitLabel, unitOf } from "../../src/excel/labels";
import { ltmKind } from "../../src/excel/ltm-kind";
import { companyRefArg } from "../../functions/company-arg";
import { FINANCIAL_ITEMS } from "../../functions/financial-cell";
import { fieldList } from "../../functions/common";
import { financialsQuery, type FinancialsPeriodType } from "../../functions/shared-financials";
import { olderWindowOf, rowOf } from "../../functions/cells/answer-index";
import { periodArgsOf } from "../../functions/cells/interned-args";
import type { TracedCellRead } from "../excel/kaisha-values";
import { parseKaishaCall } from "../state/refresh-cost";
import { englishLabel } from "../state/metric-labels";
import { periodLabel } from "../state/resolved-text";
import type { Lang } from "../i18n/language";
import { matchFilings, refsWithFilings } from "./filing-match";
import {
  financialQualifiers,
  type CellTrace,
  type Qualifier,
  type TraceFetch,
  type TraceSource,
} from "./trace-model";

/** The selected cell as the Excel module reads it (taskpane/excel/kaisha-values.ts). */
export type SelectedCell = TracedCellRead;

/** What resolving needs besides the cell: the client and the company's disclosures list. */
export interface TraceDeps {
  client: Pick<KaishaClient, "peek" | "knownCode">;
  /** The disclosures list of a security (cached like any answer); undefined when not asked. */
  disclosures(code: string): Promise<SecurityDisclosuresResponse | undefined>;
  /**
   * The stored answer of a request as the cache holds it, fresh or not, with when it was stored
   * (stored-answer.ts); absent, only fresh answers are read (client.peek).
   */
  stored?(operationId: string, params: Record<string, unknown>): StoredAnswer | undefined;
}

/** An answer as stored: its body and when it was received. */
export interface StoredAnswer {
  body: unknown;
  /** @unit ms since epoch */
  storedAt: number;
}

/** Bodies read from the store while no longer fresh: their cells show them until asked again. */
const dueBodies = new WeakSet<object>();

/**
 * The answer a cell reads: the fresh one (client.peek), else the stored one that is due (a
 * stale-while-revalidate cell shows it meanwhile: src/client/client.ts serveWhileRevalidating).
 */
function answerOf(
  deps: TraceDeps,
  operationId: "getFinancials" | "getDividends" | "getSegments" | "getPrices",
  params: Record<string, unknown>,
): unknown {
  const fresh = deps.client.peek(operationId, params as never) as unknown;
  if (fresh !== undefined) return fresh;
  const stored = deps.stored?.(operationId, params)?.body;
  if (typeof stored === "object" && stored !== null) dueBodies.add(stored);
  return stored;
}

const TABLE_FUNCTIONS = new Set(["FINANCIALS", "DIVIDENDS", "SEGMENTS"]);

function text(v: unknown): string {
  return v === null || v === undefined ? "" : String(v);
}

/** Financial item key of a header as FINANCIALS writes it (key, Japanese label, with its unit). */
function keyOfHeader(header: unknown, dataset: Dataset): string | undefined {
  const h = text(header).trim();
  if (h === "") return undefined;
  for (const f of FIELD_DICTIONARY[dataset]) {
    const ja = labelJa(f.key, dataset);
    if (h === f.key || h === ja || h === unitLabel(ja, unitOf(dataset, f.key))) return f.key;
  }
  return undefined;
}

function itemOf(key: string, dataset: Dataset, lang: Lang): NonNullable<CellTrace["item"]> {
  const info = FIELD_DICTIONARY[dataset].find((f) => f.key === key);
  const label = lang === "ja" ? (info?.label ?? key) : englishLabel(key);
  return { key, label, ...(info?.unit !== undefined ? { unit: info.unit } : {}) };
}

function companyOf(ref: Company, client: TraceDeps["client"]): NonNullable<CellTrace["company"]> {
  if ("security_code" in ref) {
    const edinet = client.knownCode("edinet_code", ref.security_code);
    return { code: ref.security_code, ...(edinet ? { edinet } : {}) };
  }
  const code = client.knownCode("security_code", ref.edinet_code);
  return { edinet: ref.edinet_code, ...(code ? { code } : {}) };
}

/** openapi.json getFinancials: the widest window, then older windows back to the period's year. */
function financialsHolding(
  deps: TraceDeps,
  ask: Company,
  series: FinancialsPeriodType,
  spec: FiscalPeriodSpec,
): { body: FinancialsResponse; params: Record<string, unknown> } | undefined {
  let params = financialsQuery(ask, series, undefined) as Record<string, unknown>;
  let body = answerOf(deps, "getFinancials", params) as FinancialsResponse | undefined;
  for (let step = 0; body !== undefined && step < 4; step++) {
    const older = olderWindowOf(body.periods, spec, FINANCIALS_FETCH_YEARS);
    if (older === undefined) break;
    params = financialsQuery(ask, series, older) as Record<string, unknown>;
    body = answerOf(deps, "getFinancials", params) as FinancialsResponse | undefined;
  }
  return body === undefined ? undefined : { body, params };
}

function fetchState(body: unknown, storedAt: number | undefined): TraceFetch {
  const stale = staleInfo(body);
  const at = storedAt ?? stale?.storedAt;
  const base = at !== undefined ? { storedAt: at } : {};
  if (stale === undefined)
    return {
      ...base,
      state: typeof body === "object" && body !== null && dueBodies.has(body) ? "due" : "current",
    };
  const why = stale.error instanceof Error ? stale.error.message : undefined;
  // A due answer served while it is asked again carries the revalidation notice (client.ts).
  const revalidating = why !== undefined && /revalidat|確認中|再確認/.test(why);
  return { ...base, state: revalidating ? "due" : "stale", ...(why ? { why } : {}) };
}

function requestOf(
  endpoint: string,
  params: Record<string, unknown>,
): NonNullable<CellTrace["request"]> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(params))
    if (typeof v === "string" || typeof v === "number") out[k] = v;
  return { endpoint, params: out };
}

async function filingsOf(
  deps: TraceDeps,
  code: string | undefined,
  p: { fiscal_year: string; quarter?: string },
): Promise<TraceSource> {
  const list = code === undefined ? undefined : await deps.disclosures(code).catch(() => undefined);
  return {
    kind: "filings",
    filings: list ? matchFilings(list.disclosures, p) : [],
    disclosuresCached: list !== undefined,
  };
}

/** A quarter row in words ("2025年3月期 第2四半期"). */
function rowLabel(p: FinancialsPeriod, lang: Lang): string {
  return periodLabel(
    { fiscal_year: p.fiscal_year, type: "quarterly", ...(p.quarter ? { quarter: p.quarter } : {}) },
    lang,
  );
}

function readItem(row: FinancialsPeriod, item: string): number | null {
  const v = (row as unknown as Record<string, unknown>)[item];
  return typeof v === "number" ? v : null;
}

/** FINANCIAL: the row its arguments pick (H2 and LTM derived, with their arithmetic). */
async function traceFinancial(
  cell: SelectedCell,
  deps: TraceDeps,
  lang: Lang,
  base: CellTrace,
): Promise<CellTrace> {
  const [company, item, fiscalPeriod, period, quarter, unit] = cell.args;
  const ref = companyRefArg(company);
  // The item as FINANCIAL reads it (a key, its Japanese label, another accepted form).
  const key = fieldList(item, "item", FINANCIAL_ITEMS, [], "financials", true)[0];
  if (key === undefined || "name" in ref) return { ...base, unresolved: "not_in_memory" };
  const ask = knownFinancialsAsk(deps.client as KaishaClient, ref);
  if (ask === undefined) return { ...base, unresolved: "not_in_memory" };
  const choice = periodArgsOf(fiscalPeriod, period, quarter);
  const series: FinancialsPeriodType = choice.type === "LTM" ? "quarterly" : choice.type;
  // The window FINANCIAL reads: the widest, or an older one stepped back to (financial-cell.ts).
  const held = financialsHolding(deps, ask, series, choice.spec);
  if (held === undefined) return { ...base, unresolved: "not_in_memory" };
  const { body, params } = held;
  const qualifiers: Qualifier[] = [];
  let apiValue: number | null = null;
  let row: FinancialsPeriod | undefined;
  let quarters: string[] | undefined;
  let h2 = false;
  if (choice.type === "LTM") {
    const window = ltmAnchor(body.periods, choice.spec, choice.quarter);
    if (!window.ok) return { ...base, unresolved: "not_in_memory" };
    row = window.anchor;
    if (ltmKind(key) === "stock" && window.balance !== undefined) {
      apiValue = readItem(window.balance, key);
      qualifiers.push({ code: "ltm_balance", label: rowLabel(window.balance, lang) });
    } else if (window.quarters !== undefined) {
      const parts = window.quarters.map((q) => ({
        label: rowLabel(q, lang),
        value: readItem(q, key) ?? Number.NaN,
      }));
      quarters = parts.map((p) => p.label);
      const sum = parts.reduce((s, p) => s + p.value, 0);
      apiValue = Number.isFinite(sum) ? sum : null;
      qualifiers.push({ code: "derived_ltm", parts, value: apiValue ?? Number.NaN });
    }
  } else {
    const entry = rowOf(body.periods, choice);
    if (entry === undefined) return { ...base, unresolved: "not_in_memory" };
    if (isSecondHalf(entry)) {
      h2 = true;
      row = entry.fullYear;
      const half = secondHalfValue(entry, key);
      apiValue = half.ok ? half.value : null;
      const h1 = entry.h1 ? readItem(entry.h1, key) : null;
      const full = readItem(entry.fullYear, key);
      if (apiValue !== null && h1 !== null && full !== null && ltmKind(key) === "flow")
        qualifiers.push({ code: "derived_h2", fullYear: full, h1, value: apiValue });
    } else {
      row = entry;
      apiValue = readItem(entry, key);
    }
  }
  if (row === undefined) return { ...base, unresolved: "not_in_memory" };
  // The period read: the row's (LTM: the quarter it ends with; H2: the half itself).
  const read = {
    fiscal_year: row.fiscal_year,
    type: choice.type,
    ...(h2 ? { quarter: "H2" } : row.quarter !== undefined ? { quarter: row.quarter } : {}),
  };
  const periodText = periodLabel(read, lang);
  const who = companyOf(ref, deps.client);
  const edinet = who.edinet ?? body.edinet_code;
  return {
    ...base,
    company: { ...who, edinet },
    item: itemOf(key, "financials", lang),
    period: {
      label: periodText,
      fiscal_year: read.fiscal_year,
      ...(read.quarter !== undefined ? { quarter: read.quarter } : {}),
      ...(quarters ? { quarters } : {}),
    },
    moneyUnit: typeof unit === "string" && unit !== "" ? unit : "jpy",
    apiValue,
    source: await filingsOf(deps, who.code, {
      fiscal_year: read.fiscal_year,
      ...(read.quarter !== undefined ? { quarter: read.quarter } : {}),
    }),
    qualifiers: [...(row ? financialQualifiers(row, key) : []), ...qualifiers],
    fetch: fetchState(body, deps.stored?.("getFinancials", params)?.storedAt),
    request: requestOf("GET /financials", params),
  };
}

/**
 * Where a cell stands in a table the trace can read: its company argument a code (not a name),
 * a header row (headers 1, the default, or 2: title row first, `head` rows above the header),
 * and the cell below that header. Undefined otherwise: without a header row the table does not
 * name its items and periods, and the cell cannot be told apart.
 */
function tablePlace(cell: SelectedCell, company: unknown, headers: unknown) {
  const spill = cell.spill;
  const ref = companyRefArg(company);
  const mode = headers === null || headers === undefined || headers === "" ? 1 : Number(headers);
  if (spill === undefined || "name" in ref || (mode !== 1 && mode !== 2)) return undefined;
  const head = mode === 2 ? 1 : 0;
  const { row, col } = cell.offset;
  if (row <= head) return undefined;
  return { spill, ref, head, row, col };
}

/** FINANCIALS: the item and period of a spill cell, read from the table's own headers. */
async function traceFinancialsCell(
  cell: SelectedCell,
  deps: TraceDeps,
  lang: Lang,
  base: CellTrace,
): Promise<CellTrace> {
  const [company, , period, , , unit, layout, headers] = cell.args;
  const place = tablePlace(cell, company, headers);
  if (place === undefined || place.col === 0) return { ...base, unresolved: "unsupported" };
  const { spill, ref, head, row, col } = place;
  const series = (text(period) || "annual") as FinancialsPeriodType;
  let key: string | undefined;
  let fiscalYear: string;
  let quarter: string | undefined;
  if (text(layout) === "periods_down") {
    key = keyOfHeader(spill[head]?.[col], "financials");
    fiscalYear = text(spill[row]?.[0]);
    quarter = series === "annual" ? undefined : text(spill[row]?.[1]) || undefined;
  } else {
    key = keyOfHeader(spill[row]?.[0], "financials");
    const [fy, q] = text(spill[head]?.[col]).split(" ");
    fiscalYear = fy ?? "";
    quarter = q;
  }
  const ask = knownFinancialsAsk(deps.client as KaishaClient, ref);
  if (key === undefined || ask === undefined) return { ...base, unresolved: "unsupported" };
  const held = financialsHolding(deps, ask, series, { kind: "month", month: fiscalYear });
  const found = held?.body.periods.find(
    (p) => p.fiscal_year === fiscalYear && (p.quarter ?? undefined) === quarter,
  );
  if (held === undefined || found === undefined) return { ...base, unresolved: "not_in_memory" };
  const who = companyOf(ref, deps.client);
  return {
    ...base,
    company: { ...who, edinet: who.edinet ?? held.body.edinet_code },
    item: itemOf(key, "financials", lang),
    period: {
      label: periodLabel(
        { fiscal_year: fiscalYear, type: series, ...(quarter ? { quarter } : {}) },
        lang,
      ),
      fiscal_year: fiscalYear,
      ...(quarter ? { quarter } : {}),
    },
    moneyUnit: typeof unit === "string" && unit !== "" ? unit : "jpy",
    apiValue: readItem(found, key),
    source: await filingsOf(deps, who.code, {
      fiscal_year: fiscalYear,
      ...(quarter ? { quarter } : {}),
    }),
    qualifiers: financialQualifiers(found, key),
    fetch: fetchState(held.body, deps.stored?.("getFinancials", held.params)?.storedAt),
    request: requestOf("GET /financials", held.params),
  };
}

/** DIVIDENDS: a record's field, traced to the record's own source documents. */
async function traceDividendsCell(
  cell: SelectedCell,
  deps: TraceDeps,
  lang: Lang,
  base: CellTrace,
): Promise<CellTrace> {
  const [company, , , headers] = cell.args;
  const place = tablePlace(cell, company, headers);
  if (place === undefined) return { ...base, unresolved: "unsupported" };
  const { spill, ref, head, row, col } = place;
  const who = companyOf(ref, deps.client);
  const edinet = who.edinet;
  if (edinet === undefined) return { ...base, unresolved: "not_in_memory" };
  const params = { edinet_code: edinet };
  const body = answerOf(deps, "getDividends", params) as { records: DividendRecord[] } | undefined;
  // The fiscal_year column (openapi.json DividendRecord.fiscal_year, an integer year).
  const yearCol = (spill[head] ?? []).findIndex((h) => keyOfYear(h));
  const year = Number(spill[row]?.[yearCol < 0 ? 0 : yearCol]);
  const record = body?.records.find((r) => r.fiscal_year === year);
  if (body === undefined || record === undefined) return { ...base, unresolved: "not_in_memory" };
  const key = keyOfHeader(spill[head]?.[col], "dividends");
  const list = who.code ? await deps.disclosures(who.code).catch(() => undefined) : undefined;
  const apiValue = key ? (record as unknown as Record<string, unknown>)[key] : undefined;
  return {
    ...base,
    company: who,
    ...(key ? { item: itemOf(key, "dividends", lang) } : {}),
    // openapi.json DividendRecord.fiscal_year: the year the fiscal period ends in.
    period: {
      label: lang === "ja" ? `${year}年に終わる事業年度` : `Fiscal year ending in ${year}`,
    },
    ...(typeof apiValue === "number" || apiValue === null ? { apiValue } : {}),
    source: { kind: "refs", refs: refsWithFilings(record.source_refs, list?.disclosures) },
    qualifiers: key === "annual_dps_adjusted" ? [{ code: "split_adjusted" }] : [],
    fetch: fetchState(body, deps.stored?.("getDividends", params)?.storedAt),
    request: requestOf("GET /dividends", params),
  };
}

/** The column of a header row naming `key` (its key or Japanese label), -1 when none. */
function columnOf(header: readonly unknown[], key: string): number {
  return header.findIndex((h) => text(h) === key || text(h) === labelJa(key));
}

/** SEGMENTS: a segment's figure, its period's filings and the figure's basis (openapi.json SegmentRow). */
async function traceSegmentsCell(
  cell: SelectedCell,
  deps: TraceDeps,
  lang: Lang,
  base: CellTrace,
): Promise<CellTrace> {
  const [company, , period, unit, headers] = cell.args;
  const spill = cell.spill;
  const ref = companyRefArg(company);
  const mode = headers === null || headers === undefined || headers === "" ? 1 : Number(headers);
  if (spill === undefined || "name" in ref || (mode !== 1 && mode !== 2))
    return { ...base, unresolved: "unsupported" };
  const head = mode === 2 ? 1 : 0;
  const { row, col } = cell.offset;
  const header = spill[head] ?? [];
  if (row <= head) return { ...base, unresolved: "unsupported" };
  const who = companyOf(ref, deps.client);
  if (who.edinet === undefined) return { ...base, unresolved: "not_in_memory" };
  const series: "quarter" | "annual" =
    text(period) === "quarter" || text(period) === "quarterly" ? "quarter" : "annual";
  const params = { edinet_code: who.edinet, period: series };
  const body = answerOf(deps, "getSegments", params) as
    | { segments: (Record<string, unknown> & { fiscal_year: string; quarter: number | null })[] }
    | undefined;
  const line = spill[row] ?? [];
  const fiscalYear = text(line[columnOf(header, "fiscal_year")]);
  const quarterAt = columnOf(header, "quarter");
  const quarter = quarterAt < 0 ? null : Number(line[quarterAt]);
  const name = text(line[columnOf(header, "segment_name")]);
  const found = body?.segments.find(
    (x) =>
      x.fiscal_year === fiscalYear && (x.quarter ?? null) === quarter && x.segment_name === name,
  );
  if (body === undefined || found === undefined) return { ...base, unresolved: "not_in_memory" };
  const key = keyOfHeader(header[col], "segments");
  const value = key ? found[key] : undefined;
  // openapi.json SegmentRow: revenue_basis / operating_income_basis say how each figure was had.
  const basis = key === "revenue" || key === "operating_income" ? found[`${key}_basis`] : undefined;
  const q = quarter === null ? undefined : `Q${quarter}`;
  return {
    ...base,
    company: who,
    ...(key ? { item: itemOf(key, "segments", lang) } : {}),
    period: {
      label: `${periodLabel({ fiscal_year: fiscalYear, type: series, ...(q ? { quarter: q } : {}) }, lang)} · ${name}`,
      fiscal_year: fiscalYear,
      ...(q ? { quarter: q } : {}),
    },
    moneyUnit: typeof unit === "string" && unit !== "" ? unit : "jpy",
    ...(typeof value === "number" || value === null ? { apiValue: value } : {}),
    source: await filingsOf(deps, who.code, {
      fiscal_year: fiscalYear,
      ...(q ? { quarter: q } : {}),
    }),
    qualifiers: typeof basis === "string" ? [{ code: "segment_basis", basis }] : [],
    fetch: fetchState(body, deps.stored?.("getSegments", params)?.storedAt),
    request: requestOf("GET /segments", params),
  };
}

function keyOfYear(h: unknown): boolean {
  const t = text(h);
  return t === "fiscal_year" || t === labelJa("fiscal_year");
}

/** PRICE: the day's quote (the latest answer in memory, or the day PRICE's own "date" reads). */
function tracePrice(cell: SelectedCell, deps: TraceDeps, lang: Lang, base: CellTrace): CellTrace {
  const [company, field, date] = cell.args;
  const ref = companyRefArg(company);
  if (!("security_code" in ref)) return { ...base, unresolved: "unsupported" };
  const code = ref.security_code;
  const key = text(field) || "close";
  const params = { code, limit: 1 };
  const latest = answerOf(deps, "getPrices", params) as PricesResponse | undefined;
  const row = latest?.prices[0];
  if (row === undefined || (date !== null && date !== undefined && date !== ""))
    return { ...base, company: companyOf(ref, deps.client), unresolved: "not_in_memory" };
  const value = (row as unknown as Record<string, unknown>)[key];
  // openapi.json getPrices "see attribution": the source label names the exchange's data.
  const exchange = latest?.attribution.source_label ?? "";
  return {
    ...base,
    company: companyOf(ref, deps.client),
    item: itemOf(key, "prices", lang),
    period: { label: row.date },
    ...(typeof value === "number" || value === null ? { apiValue: value } : {}),
    source: { kind: "price", date: row.date, exchange },
    qualifiers: key === "adj_close" ? [{ code: "split_adjusted" }] : [],
    fetch: fetchState(latest, deps.stored?.("getPrices", params)?.storedAt),
    request: requestOf(`GET /securities/${code}/prices`, { limit: 1 }),
  };
}

/**
 * The trace of a selected cell: its function, company, item, resolved period and value, the
 * filing behind it, what qualifies it, its freshness and request; `unresolved` says why not.
 * @example (await traceCell(cell, deps, "ja")).period?.label // "2025年3月期"
 */
export async function traceCell(
  cell: SelectedCell,
  deps: TraceDeps,
  lang: Lang,
): Promise<CellTrace> {
  const call = parseKaishaCall(cell.formula);
  const base: CellTrace = {
    address: cell.address,
    anchor: cell.anchor,
    formula: cell.formula,
    fn: call?.name ?? "",
    qualifiers: [],
    shown: cell.shown,
  };
  if (call === undefined) return { ...base, unresolved: "not_kaisha" };
  const spilled = cell.offset.row !== 0 || cell.offset.col !== 0;
  if (spilled && !TABLE_FUNCTIONS.has(call.name)) return { ...base, unresolved: "unsupported" };
  try {
    switch (call.name) {
      case "FINANCIAL":
        return await traceFinancial(cell, deps, lang, base);
      case "FINANCIALS":
        return await traceFinancialsCell(cell, deps, lang, base);
      case "DIVIDENDS":
        return await traceDividendsCell(cell, deps, lang, base);
      case "SEGMENTS":
        return await traceSegmentsCell(cell, deps, lang, base);
      case "PRICE":
        return tracePrice(cell, deps, lang, base);
      default:
        return { ...base, unresolved: "unsupported" };
    }
  } catch {
    // A refused argument: the cell itself says why (#VALUE! with its message).
    return { ...base, unresolved: "argument" };
  }
}
