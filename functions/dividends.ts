// DIVIDENDS: annual dividend records (GET /dividends), actuals only (openapi.json getDividends).

import type { DividendRecord, DividendSourceRef, FinancialsResponse } from "../src/contract";
import type { ParamsOf, ResponseOf } from "../src/client";
import { ArgumentError, headersArg, type Company, type HeaderMode } from "../src/excel/args";
import type { CompanyRef } from "../src/excel/company-ref";
import {
  fiscalYearAmong,
  fiscalYearIn,
  optionalPeriodArg,
  yearWithoutAnswer,
  type PeriodArg,
} from "../src/excel/fiscal-year-arg";
import { noData, refuseFutureDate } from "./excel-errors";
import type { Column } from "../src/excel/shape";
import { plainCell } from "../src/excel/values";
import { noResults, numberColumn, orderedTable, plainColumn, titleRow } from "./common";
import { companyRefArg } from "./company-arg";
import { orderArg, type Order } from "../src/excel/order";
import type { InvocationLike } from "./run";
import { defineTable, type TableResult } from "./cells/define-table";
import { internedQuery } from "./cells/interned-args";
import type { Answers } from "./cells/answers";
import { LACKING } from "./cells/rounds";
import {
  fetchFinancials,
  peekFinancials,
  widestAsk,
  type FinancialsAsk,
} from "./cells/financials-asks";
import { byEdinetCode, type EdinetSubject } from "./cells/subjects";

/** DIVIDENDS' answers: the dividend history, and the widest /financials series a 年度 is read among. */
type DividendsQuery = Readonly<ParamsOf<"getDividends">> | FinancialsAsk;
type DividendsAnswer = ResponseOf<"getDividends"> | FinancialsResponse;

function historyQuery(edinet: string): Readonly<ParamsOf<"getDividends">> {
  return internedQuery(`getDividends|${edinet}`, () => ({ edinet_code: edinet }));
}

/**
 * A from/to argument as a fiscal year (openapi.json DividendRecord.fiscal_year: the year of the
 * fiscal period end). A plain year or label is that year; a relative token counts the records'
 * years back from the latest; a 年度, date or quarter names a fiscal year of the company, read
 * from its annual /financials answer (the request FINANCIAL cells make, shared with them).
 */
function dividendYear(
  answers: Answers<DividendsQuery, DividendsAnswer>,
  who: Company,
  arg: PeriodArg | undefined,
  years: readonly number[],
): number | undefined | typeof LACKING {
  if (arg === undefined) return undefined;
  const plain = yearWithoutAnswer(arg);
  if (plain !== undefined) return plain;
  let label: string | undefined;
  if (arg.spec.kind === "relative" && arg.type === "annual" && arg.quarter === undefined) {
    label = fiscalYearAmong(
      years.map((y) => `${y}/12`),
      arg,
    );
  } else {
    const all = answers.read(widestAsk(who, arg)) as FinancialsResponse | undefined;
    if (all === undefined) return LACKING;
    label = fiscalYearIn(all.periods, arg);
  }
  if (label === undefined)
    throw noData(
      "No such fiscal year for this company: see =KAISHA.DIVIDENDS for its years",
      "その事業年度はありません：DIVIDENDS で年度を確認してください",
    );
  return Number(label.slice(0, 4));
}

const NUMERIC = [
  "annual_dps",
  "annual_dps_adjusted",
  "payout_ratio",
  "doe",
  "net_asset_dividend_rate",
  "consecutive_dividend_increase_years",
];

/**
 * The filing a year's dividend traces to (openapi.json DividendRecord source_refs): the statutory
 * annual report (edinet) when there is one, since DOCUMENT opens it for every year, else the timely
 * disclosure (tdnet; DOCUMENT opens those from September 2013 on).
 */
function primarySource(refs: readonly DividendSourceRef[]): DividendSourceRef | undefined {
  return refs.find((r) => r.source === "edinet") ?? refs[0];
}

/**
 * Cell -> source: `doc_id` and `source` name the same things as in DISCLOSURES (a document id for
 * =KAISHA.DOCUMENT / SECTION, and its disclosure system); `source_refs` lists every document.
 */
const SOURCE_COLUMNS: Column<Record<string, unknown>>[] = [
  {
    ...plainColumn("doc_id"),
    value: (r) => plainCell(primarySource(refsOf(r))?.doc_id),
  },
  {
    ...plainColumn("source"),
    value: (r) => plainCell(primarySource(refsOf(r))?.source),
  },
  {
    ...plainColumn("source_refs"),
    value: (r) => plainCell(refsOf(r).map((s) => `${s.doc_id} (${s.source})`)),
  },
];

function refsOf(record: Record<string, unknown>): readonly DividendSourceRef[] {
  const refs = record["source_refs"];
  return Array.isArray(refs) ? (refs as DividendSourceRef[]) : [];
}

/** DIVIDENDS' arguments read (`plainFrom`/`plainTo`: years named without an answer). */
interface DividendsArgs {
  ref: CompanyRef;
  fromArg: PeriodArg | undefined;
  toArg: PeriodArg | undefined;
  plainFrom: number | undefined;
  plainTo: number | undefined;
  mode: HeaderMode;
  direction: Order;
}

function parseDividends([company, from, to, headers, order]: readonly unknown[]): DividendsArgs {
  const ref = companyRefArg(company);
  const fromArg = optionalPeriodArg(from, "from_fiscal_year");
  const toArg = optionalPeriodArg(to, "to_fiscal_year");
  return {
    ref,
    fromArg,
    toArg,
    plainFrom: fromArg === undefined ? undefined : yearWithoutAnswer(fromArg),
    plainTo: toArg === undefined ? undefined : yearWithoutAnswer(toArg),
    mode: headersArg(headers),
    direction: orderArg(order),
  };
}

/** Refused before any request: a date in the future, from after to. */
function refuseDividends(args: DividendsArgs, today: string, userToday: string): void {
  const { fromArg, toArg, plainFrom, plainTo } = args;
  for (const a of [fromArg, toArg]) refuseFutureDate(a, today, userToday);
  if (plainFrom !== undefined && plainTo !== undefined && plainFrom > plainTo) {
    throw new ArgumentError(
      "from_fiscal_year",
      {
        en: `a year not after to_fiscal_year (${plainTo})`,
        ja: `to_fiscal_year（${plainTo}）以前の年`,
      },
      plainFrom,
    );
  }
}

/**
 * DIVIDENDS: fiscal_year, annual_dps, annual_dps_adjusted, payout_ratio, change_type, doe,
 * net_asset_dividend_rate, consecutive_dividend_increase_years, doc_id, source, source_refs,
 * oldest first. The whole history is
 * fetched once per company (one request whatever the years) and cut here.
 */
const dividendsTable = defineTable<DividendsArgs, EdinetSubject, DividendsQuery, DividendsAnswer>({
  parse: parseDividends,
  needs: {
    refuse: refuseDividends,
    ...byEdinetCode<DividendsArgs>(),
    first: (_args, { edinet }) => [historyQuery(edinet)],
    peek: (client, query) =>
      "who" in query ? peekFinancials(client, query) : client.peek("getDividends", query),
    fetch: (ctx, _args, _subject, query) =>
      "who" in query ? fetchFinancials(ctx, query) : ctx.client.dividends(query, ctx.options),
  },
  compute(args, { who, label: code, edinet }, answers, shaping) {
    const { fromArg, toArg } = args;
    const body = answers.read(historyQuery(edinet)) as ResponseOf<"getDividends"> | undefined;
    if (body === undefined) return LACKING;
    const years = body.records.map((r) => r.fiscal_year);
    const from = dividendYear(answers, who, fromArg, years);
    if (from === LACKING) return LACKING;
    const to = dividendYear(answers, who, toArg, years);
    if (to === LACKING) return LACKING;
    const rows = body.records.filter(
      (r: DividendRecord) =>
        (from === undefined || r.fiscal_year >= from) && (to === undefined || r.fiscal_year <= to),
    );
    if (rows.length === 0) throw noResults();
    const number = (k: string) => numberColumn("dividends", k, "jpy", shaping.host);
    const columns = [
      plainColumn("fiscal_year"),
      ...NUMERIC.slice(0, 3).map(number),
      plainColumn("change_type"),
      ...NUMERIC.slice(3).map(number),
      ...SOURCE_COLUMNS,
    ];
    const title = titleRow(
      shaping,
      body,
      code,
      "dividends",
      rows[rows.length - 1]?.fiscal_year ?? "",
      body.attribution,
    );
    return orderedTable(
      shaping,
      columns,
      rows,
      (r) => String(r.fiscal_year).padStart(4, "0"),
      args,
      title,
    );
  },
});

export function dividends(
  company: unknown,
  fromFiscalYear: unknown,
  toFiscalYear: unknown,
  headers: unknown,
  invocation?: InvocationLike,
  order?: unknown,
): TableResult {
  return dividendsTable(invocation, [company, fromFiscalYear, toFiscalYear, headers, order]);
}
