// DIVIDENDS: annual dividend records (GET /dividends), actuals only (openapi.json getDividends).

import type { DividendRecord, DividendSourceRef } from "../src/contract";
import { ArgumentError, headersArg, type Company } from "../src/excel/args";
import {
  fiscalYearAmong,
  fiscalYearIn,
  optionalPeriodArg,
  yearWithoutAnswer,
  type PeriodArg,
} from "../src/excel/fiscal-year-arg";
import { companyFinancials } from "../src/domain/company-resolver";
import { FINANCIALS_FETCH_YEARS } from "../src/domain/financials-window";
import { noData, refuseFutureDate } from "./excel-errors";
import type { Column } from "../src/excel/shape";
import { plainCell, type Cell } from "../src/excel/values";
import { noResults, numberColumn, plainColumn, table, titleRow } from "./common";
import { companyOf, companyRefArg } from "./company-arg";
import { inOrder, orderArg } from "../src/excel/order";
import { run, type CallContext, type InvocationLike } from "./run";

/**
 * A from/to argument as a fiscal year (openapi.json DividendRecord.fiscal_year: the year of the
 * fiscal period end). A plain year or label is that year; a relative token counts the records'
 * years back from the latest; a 年度, date or quarter names a fiscal year of the company, read
 * from its annual /financials answer (the request FINANCIAL cells make, shared with them).
 */
async function dividendYear(
  ctx: CallContext,
  who: Company,
  arg: PeriodArg | undefined,
  years: readonly number[],
): Promise<number | undefined> {
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
    const all = await companyFinancials(
      ctx.client,
      who,
      { period: arg.type, years: FINANCIALS_FETCH_YEARS },
      ctx.options,
    );
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

/**
 * DIVIDENDS: fiscal_year, annual_dps, annual_dps_adjusted, payout_ratio, change_type, doe,
 * net_asset_dividend_rate, consecutive_dividend_increase_years, doc_id, source, source_refs,
 * oldest first. The whole history is
 * fetched once per company (one request whatever the years) and cut here.
 */
export function dividends(
  company: unknown,
  fromFiscalYear: unknown,
  toFiscalYear: unknown,
  headers: unknown,
  invocation?: InvocationLike,
  order?: unknown,
): Promise<Cell[][]> {
  return run(invocation, async (ctx) => {
    const ref = companyRefArg(company);
    const fromArg = optionalPeriodArg(fromFiscalYear, "from_fiscal_year");
    const toArg = optionalPeriodArg(toFiscalYear, "to_fiscal_year");
    const today = ctx.client.today();
    for (const a of [fromArg, toArg]) refuseFutureDate(a, today);
    const plainFrom = fromArg === undefined ? undefined : yearWithoutAnswer(fromArg);
    const plainTo = toArg === undefined ? undefined : yearWithoutAnswer(toArg);
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
    const mode = headersArg(headers);
    const direction = orderArg(order);
    const who = await companyOf(ctx, ref);
    const code = "security_code" in who ? who.security_code : who.edinet_code;
    const edinet = await ctx.client.resolveEdinetCode(code, ctx.options);
    const body = await ctx.client.dividends({ edinet_code: edinet }, ctx.options);
    const years = body.records.map((r) => r.fiscal_year);
    const from = await dividendYear(ctx, who, fromArg, years);
    const to = await dividendYear(ctx, who, toArg, years);
    const rows = body.records.filter(
      (r: DividendRecord) =>
        (from === undefined || r.fiscal_year >= from) && (to === undefined || r.fiscal_year <= to),
    );
    if (rows.length === 0) throw noResults();
    const columns = [
      plainColumn("fiscal_year"),
      ...NUMERIC.slice(0, 3).map((k) => numberColumn("dividends", k)),
      plainColumn("change_type"),
      ...NUMERIC.slice(3).map((k) => numberColumn("dividends", k)),
      ...SOURCE_COLUMNS,
    ];
    const title = titleRow(
      ctx,
      body,
      code,
      "dividends",
      rows[rows.length - 1]?.fiscal_year ?? "",
      body.attribution,
    );
    const ordered = inOrder(rows, (r) => String(r.fiscal_year).padStart(4, "0"), direction);
    return table(ctx, columns, ordered as unknown as Record<string, unknown>[], mode, title);
  });
}
