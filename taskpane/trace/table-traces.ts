// Traces of a cell of a DIVIDENDS, SEGMENTS or VALUATION table: its row and column read from the
// table's header row (table-place.ts), the answer row they name, and where that row comes from.

import type { DividendRecord, ValuationsResponse } from "../../src/contract";
import { labelJa } from "../../src/excel/labels";
import { periodLabel } from "../state/resolved-text";
import type { Lang } from "../i18n/language";
import { VALUATION_FETCH_YEARS } from "../../functions/valuation";
import { tracedCompany } from "./company-trace";
import { refsWithFilings } from "./filing-match";
import { cellReason, tablePlace, type TablePlace } from "./table-place";
import {
  answerOf,
  columnOf,
  fetchState,
  filingsOf,
  itemOf,
  keyOfHeader,
  moneyUnitOf,
  requestOf,
  text,
  type SelectedCell,
  type TraceDeps,
} from "./trace-parts";
import type { CellTrace, Qualifier } from "./trace-model";
import { withXbrlFact } from "./xbrl-fact";

/** The cell's place under its table's header, or the trace saying why there is none. */
async function placed(
  cell: SelectedCell,
  deps: TraceDeps,
  base: CellTrace,
  headersAt: number,
  fn: string,
): Promise<TablePlace | CellTrace> {
  const place = await tablePlace(cell, headersAt, fn, deps.rerun);
  return place ?? { ...base, unresolved: "unsupported", reason: cellReason(cell, headersAt) };
}

function isTrace(x: TablePlace | CellTrace): x is CellTrace {
  return "qualifiers" in x;
}

function keyOfYear(h: unknown): boolean {
  const t = text(h);
  return t === "fiscal_year" || t === labelJa("fiscal_year");
}

/** DIVIDENDS: a record's field, traced to the record's own source documents. */
export async function traceDividendsCell(
  cell: SelectedCell,
  deps: TraceDeps,
  lang: Lang,
  base: CellTrace,
): Promise<CellTrace> {
  const place = await placed(cell, deps, base, 3, "DIVIDENDS");
  if (isTrace(place)) return place;
  const { spill, head, row, col } = place;
  const who = await tracedCompany(cell.args[0], deps.client, deps.names);
  const edinet = who?.shown.edinet;
  if (who === undefined || edinet === undefined) return { ...base, unresolved: "not_in_memory" };
  const params = { edinet_code: edinet };
  const body = answerOf(deps, "getDividends", params) as { records: DividendRecord[] } | undefined;
  // The fiscal_year column (openapi.json DividendRecord.fiscal_year, an integer year).
  const yearCol = (spill[head] ?? []).findIndex((h) => keyOfYear(h));
  const year = Number(spill[row]?.[yearCol < 0 ? 0 : yearCol]);
  const record = body?.records.find((r) => r.fiscal_year === year);
  if (body === undefined || record === undefined) return { ...base, unresolved: "not_in_memory" };
  const key = keyOfHeader(spill[head]?.[col], "dividends");
  const code = who.shown.code;
  const list = code ? await deps.disclosures(code).catch(() => undefined) : undefined;
  const apiValue = key ? (record as unknown as Record<string, unknown>)[key] : undefined;
  return withXbrlFact(
    {
      ...base,
      company: who.shown,
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
    },
    deps,
  );
}

/** SEGMENTS: a segment's figure, its period's filings and the figure's basis (openapi.json SegmentRow). */
export async function traceSegmentsCell(
  cell: SelectedCell,
  deps: TraceDeps,
  lang: Lang,
  base: CellTrace,
): Promise<CellTrace> {
  const [company, , period, unit] = cell.args;
  const place = await placed(cell, deps, base, 4, "SEGMENTS");
  if (isTrace(place)) return place;
  const { spill, head, row, col } = place;
  const header = spill[head] ?? [];
  const who = await tracedCompany(company, deps.client, deps.names);
  const edinet = who?.shown.edinet;
  if (who === undefined || edinet === undefined) return { ...base, unresolved: "not_in_memory" };
  const series: "quarter" | "annual" =
    text(period) === "quarter" || text(period) === "quarterly" ? "quarter" : "annual";
  const params = { edinet_code: edinet, period: series };
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
  return withXbrlFact(
    {
      ...base,
      company: who.shown,
      ...(key ? { item: itemOf(key, "segments", lang) } : {}),
      period: {
        label: `${periodLabel({ fiscal_year: fiscalYear, type: series, ...(q ? { quarter: q } : {}) }, lang)} · ${name}`,
        fiscal_year: fiscalYear,
        ...(q ? { quarter: q } : {}),
      },
      moneyUnit: moneyUnitOf(unit),
      ...(typeof value === "number" || value === null ? { apiValue: value } : {}),
      source: await filingsOf(deps, who.shown.code, {
        fiscal_year: fiscalYear,
        ...(q ? { quarter: q } : {}),
      }),
      qualifiers: typeof basis === "string" ? [{ code: "segment_basis", basis }] : [],
      fetch: fetchState(body, deps.stored?.("getSegments", params)?.storedAt),
      request: requestOf("GET /segments", params),
    },
    deps,
  );
}

/** openapi.json ValuationHistoryPoint: the figures computed from prices and the year's EPS / BPS. */
const PER_KEYS: ReadonlySet<string> = new Set(["per", "per_high", "per_low"]);

/**
 * VALUATION: a fiscal year's valuation figure (openapi.json getValuations history), traced to the
 * year's results filings (its EPS, BPS and dividends come from them); per_5y_avg alone is one
 * number of the answer, no year's.
 */
export async function traceValuationCell(
  cell: SelectedCell,
  deps: TraceDeps,
  lang: Lang,
  base: CellTrace,
): Promise<CellTrace> {
  const [company, fields] = cell.args;
  if (text(fields).trim().toLowerCase() === "per_5y_avg")
    return { ...base, unresolved: "unsupported", reason: "average" };
  const place = await placed(cell, deps, base, 3, "VALUATION");
  if (isTrace(place)) return place;
  const { spill, head, row, col } = place;
  const header = spill[head] ?? [];
  const key = keyOfHeader(header[col], "valuations");
  const fiscalYear = text(spill[row]?.[columnOf(header, "fiscal_year")]);
  if (key === undefined || fiscalYear === "")
    return { ...base, unresolved: "unsupported", reason: "place" };
  const who = await tracedCompany(company, deps.client, deps.names);
  const code = who?.shown.code;
  if (who === undefined || code === undefined) return { ...base, unresolved: "not_in_memory" };
  // functions/valuation.ts: one query per security, the longest history, shared by every cell.
  const params = { security_code: code, years: VALUATION_FETCH_YEARS };
  const body = answerOf(deps, "getValuations", params) as ValuationsResponse | undefined;
  const point = body?.history.find((h) => h.fiscal_year === fiscalYear);
  if (body === undefined || point === undefined) return { ...base, unresolved: "not_in_memory" };
  const value = (point as unknown as Record<string, unknown>)[key];
  const qualifiers: Qualifier[] = [];
  if (PER_KEYS.has(key) && typeof point.per_source === "string")
    qualifiers.push({ code: "per_source", source: point.per_source });
  if (/_adjusted$/.test(key)) qualifiers.push({ code: "split_adjusted" });
  return {
    ...base,
    company: who.shown,
    item: itemOf(key, "valuations", lang),
    period: {
      label: periodLabel({ fiscal_year: fiscalYear, type: "annual" }, lang),
      fiscal_year: fiscalYear,
    },
    ...(typeof value === "number" || value === null ? { apiValue: value } : {}),
    source: await filingsOf(deps, code, { fiscal_year: fiscalYear }),
    qualifiers,
    fetch: fetchState(body, deps.stored?.("getValuations", params)?.storedAt),
    request: requestOf("GET /valuations", params),
  };
}
