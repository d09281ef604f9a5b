// Resolves a selected KAISHA cell into its trace (trace-model.ts) from the answers in memory: the
// same parsers, company resolution, period choice and windows the functions use, and no request
// but the company's disclosures list (asked through `disclosures`, which the pane may hold back).

import type { FinancialsPeriod, FinancialsResponse } from "../../src/contract";
import { knownFinancialsAsk } from "../../src/domain/company-resolver";
import { FINANCIALS_FETCH_YEARS } from "../../src/domain/financials-window";
import type { Company } from "../../src/excel/args";
import {
  isSecondHalf,
  ltmAnchor,
  secondHalfValue,
  type FiscalPeriodSpec,
} from "../../src/excel/financial-period";
import {
  fiscalYearIn,
  monthWithoutAnswer,
  optionalPeriodArg,
} from "../../src/excel/fiscal-year-arg";
import { ltmKind } from "../../src/excel/ltm-kind";
import type { KaishaClient } from "../../src/client";
import { FINANCIAL_ITEMS } from "../../functions/financial-cell";
import { fieldList } from "../../functions/common";
import { financialsQuery, type FinancialsPeriodType } from "../../functions/cells/interned-args";
import { olderWindowOf, rowOf } from "../../functions/cells/answer-index";
import { periodArgsOf } from "../../functions/cells/interned-args";
import { parseKaishaCall } from "../state/refresh-cost";
import { periodLabel } from "../state/resolved-text";
import type { Lang } from "../i18n/language";
import { tracedCompany } from "./company-trace";
import { traceDividendsCell, traceSegmentsCell, traceValuationCell } from "./table-traces";
import { tracePrice, tracePricesCell } from "./price-trace";
import { cellReason, tablePlace } from "./table-place";
import {
  answerOf,
  fetchState,
  filingsOf,
  itemOf,
  keyOfHeader,
  moneyUnitOf,
  readItem,
  requestOf,
  text,
  type SelectedCell,
  type TraceDeps,
} from "./trace-parts";
import { financialQualifiers, ltmEstimate, type CellTrace, type Qualifier } from "./trace-model";
import { unsupportedReason } from "./unsupported";
import { withXbrlFact } from "./xbrl-fact";

export type { SelectedCell, TraceDeps } from "./trace-parts";

/** The /financials answer a cell reads and the parameters it was asked with. */
interface Held {
  body: FinancialsResponse;
  params: Record<string, unknown>;
}

/** openapi.json getFinancials: the widest window, then older windows back to the period's year. */
function financialsHolding(
  deps: TraceDeps,
  ask: Company,
  series: FinancialsPeriodType,
  spec: FiscalPeriodSpec,
  asOf?: string,
): Held | undefined {
  let params = financialsQuery(ask, series, asOf) as Record<string, unknown>;
  let body = answerOf(deps, "getFinancials", params) as FinancialsResponse | undefined;
  for (let step = 0; body !== undefined && step < 4; step++) {
    const older = olderWindowOf(body.periods, spec, FINANCIALS_FETCH_YEARS);
    if (older === undefined) break;
    params = financialsQuery(ask, series, older) as Record<string, unknown>;
    body = answerOf(deps, "getFinancials", params) as FinancialsResponse | undefined;
  }
  return body === undefined ? undefined : { body, params };
}

/** A quarter row in words ("2025年3月期 第2四半期"). */
function rowLabel(p: FinancialsPeriod, lang: Lang): string {
  return periodLabel(
    { fiscal_year: p.fiscal_year, type: "quarterly", ...(p.quarter ? { quarter: p.quarter } : {}) },
    lang,
  );
}

/**
 * The qualifiers of a financials row, with the LTM-estimate warning on a flow figure of an annual
 * row filled by one (a balance-only fill's flows are null: openapi.json getFinancials).
 */
function rowQualifiers(held: Held, row: FinancialsPeriod, key: string): Qualifier[] {
  const flow = ltmKind(key) === "flow" && readItem(row, key) !== null;
  const estimate = flow ? ltmEstimate(held.body.periods, row) : undefined;
  return [...financialQualifiers(row, key), ...(estimate ? [estimate] : [])];
}

/** The company as the financials answer names it: its EDINET code from the answer itself. */
function companyShown(
  shown: NonNullable<CellTrace["company"]>,
  body: FinancialsResponse,
): NonNullable<CellTrace["company"]> {
  return { ...shown, edinet: shown.edinet ?? body.edinet_code };
}

/** FINANCIAL: the row its arguments pick (H2 and LTM derived, with their arithmetic). */
async function traceFinancial(
  cell: SelectedCell,
  deps: TraceDeps,
  lang: Lang,
  base: CellTrace,
): Promise<CellTrace> {
  const [company, item, fiscalPeriod, period, quarter, unit] = cell.args;
  // The item as FINANCIAL reads it (a key, its Japanese label, another accepted form).
  const key = fieldList(item, "item", FINANCIAL_ITEMS, [], "financials", true)[0];
  const who = await tracedCompany(company, deps.client, deps.names);
  if (key === undefined || who === undefined) return { ...base, unresolved: "not_in_memory" };
  const ask = knownFinancialsAsk(deps.client as KaishaClient, who.ask);
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
  const trace: CellTrace = {
    ...base,
    company: companyShown(who.shown, body),
    item: itemOf(key, "financials", lang),
    period: {
      label: periodLabel(read, lang),
      fiscal_year: read.fiscal_year,
      ...(read.quarter !== undefined ? { quarter: read.quarter } : {}),
      ...(quarters ? { quarters } : {}),
    },
    moneyUnit: moneyUnitOf(unit),
    apiValue,
    source: await filingsOf(deps, who.shown.code, {
      fiscal_year: read.fiscal_year,
      ...(read.quarter !== undefined ? { quarter: read.quarter } : {}),
    }),
    qualifiers: [...rowQualifiers(held, row, key), ...qualifiers],
    fetch: fetchState(body, deps.stored?.("getFinancials", params)?.storedAt),
    request: requestOf("GET /financials", params),
  };
  // A derived figure (LTM sum, H2 difference) is no filing's fact.
  return quarters !== undefined || h2 ? trace : withXbrlFact(trace, deps);
}

/**
 * The as_of month FINANCIALS asked its window by (functions/financials.ts asOfMonth): a year,
 * label or date directly, a relative token or 年度 among the widest answer's fiscal years.
 */
function asOfMonth(deps: TraceDeps, ask: Company, asOf: unknown): string | undefined | null {
  const arg = optionalPeriodArg(asOf, "as_of");
  if (arg === undefined) return undefined;
  const direct = monthWithoutAnswer(arg);
  if (direct !== undefined) return direct;
  const wide = answerOf(deps, "getFinancials", financialsQuery(ask, arg.type, undefined)) as
    FinancialsResponse | undefined;
  return (wide && fiscalYearIn(wide.periods, arg)) ?? null;
}

/** FINANCIALS: the item and period of a spill cell, read from the table's own headers. */
async function traceFinancialsCell(
  cell: SelectedCell,
  deps: TraceDeps,
  lang: Lang,
  base: CellTrace,
): Promise<CellTrace> {
  const [company, , period, , asOf, unit, layout] = cell.args;
  const place = await tablePlace(cell, 7, "FINANCIALS", deps.rerun);
  if (place === undefined)
    return { ...base, unresolved: "unsupported", reason: cellReason(cell, 7) };
  const { spill, head, row, col } = place;
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
  if (key === undefined) return { ...base, unresolved: "unsupported", reason: "place" };
  const who = await tracedCompany(company, deps.client, deps.names);
  const ask = who && knownFinancialsAsk(deps.client as KaishaClient, who.ask);
  if (who === undefined || ask === undefined) return { ...base, unresolved: "not_in_memory" };
  // openapi.json getFinancials as_of: the window FINANCIALS asked ends at that month.
  const month = asOfMonth(deps, ask, asOf);
  if (month === null) return { ...base, unresolved: "not_in_memory" };
  const held = financialsHolding(deps, ask, series, { kind: "month", month: fiscalYear }, month);
  const found = held?.body.periods.find(
    (p) => p.fiscal_year === fiscalYear && (p.quarter ?? undefined) === quarter,
  );
  if (held === undefined || found === undefined) return { ...base, unresolved: "not_in_memory" };
  return withXbrlFact(
    {
      ...base,
      company: companyShown(who.shown, held.body),
      item: itemOf(key, "financials", lang),
      period: {
        label: periodLabel(
          { fiscal_year: fiscalYear, type: series, ...(quarter ? { quarter } : {}) },
          lang,
        ),
        fiscal_year: fiscalYear,
        ...(quarter ? { quarter } : {}),
      },
      moneyUnit: moneyUnitOf(unit),
      apiValue: readItem(found, key),
      source: await filingsOf(deps, who.shown.code, {
        fiscal_year: fiscalYear,
        ...(quarter ? { quarter } : {}),
      }),
      qualifiers: rowQualifiers(held, found, key),
      fetch: fetchState(held.body, deps.stored?.("getFinancials", held.params)?.storedAt),
      request: requestOf("GET /financials", held.params),
    },
    deps,
  );
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
  const name = call.name.toUpperCase();
  try {
    switch (name) {
      case "FINANCIAL":
        return await traceFinancial(cell, deps, lang, base);
      case "FINANCIALS":
        return await traceFinancialsCell(cell, deps, lang, base);
      case "DIVIDENDS":
        return await traceDividendsCell(cell, deps, lang, base);
      case "SEGMENTS":
        return await traceSegmentsCell(cell, deps, lang, base);
      case "VALUATION":
        return await traceValuationCell(cell, deps, lang, base);
      case "PRICE":
        return await tracePrice(cell, deps, lang, base);
      case "PRICES":
        return await tracePricesCell(cell, deps, lang, base);
      default:
        return { ...base, unresolved: "unsupported", reason: unsupportedReason(name) };
    }
  } catch {
    // A refused argument: the cell itself says why (#VALUE! with its message).
    return { ...base, unresolved: "argument" };
  }
}
