// SEGMENTS: segment results of a corporation (GET /segments), money scaled by `unit`.

import type { SegmentRow } from "../src/contract";
import type { ParamsOf, ResponseOf } from "../src/client";
import {
  ArgumentError,
  headersArg,
  moneyUnitArg,
  optionalChoice,
  type HeaderMode,
  type MoneyUnit,
} from "../src/excel/args";
import type { CompanyRef } from "../src/excel/company-ref";
import {
  fiscalYearAmong,
  optionalPeriodArg,
  yearWithoutAnswer,
  type PeriodArg,
} from "../src/excel/fiscal-year-arg";
import { PERIOD_FORMS } from "../src/excel/period-token";
import { refuseFutureDate } from "./excel-errors";
import { moneyUnitLabel } from "../src/excel/units";
import { noResults, numberColumn, orderedTable, plainColumn, titleLang, titleRow } from "./common";
import { companyRefArg } from "./company-arg";
import { orderArg, type Order } from "../src/excel/order";
import type { InvocationLike } from "./run";
import { defineTable, type TableResult } from "./cells/define-table";
import { internedQuery } from "./cells/interned-args";
import { answersOf } from "./cells/answers";
import { LACKING } from "./cells/rounds";
import { byEdinetCode, type EdinetSubject } from "./cells/subjects";

/** SEGMENTS' arguments read (`plainYear`: a fiscal year named without an answer). */
interface SegmentsArgs {
  ref: CompanyRef;
  yearArg: PeriodArg | undefined;
  plainYear: number | undefined;
  period: "annual" | "quarter";
  money: MoneyUnit;
  mode: HeaderMode;
  direction: Order;
}

function parseSegments([
  company,
  fiscalYear,
  period,
  unit,
  headers,
  order,
]: readonly unknown[]): SegmentsArgs {
  const ref = companyRefArg(company);
  const yearArg = optionalPeriodArg(fiscalYear, "fiscal_year");
  const plainYear = yearArg === undefined ? undefined : yearWithoutAnswer(yearArg);
  // openapi.json getSegments fiscal_year: 1990..2100; an older year is refused, never sent.
  if (plainYear !== undefined && plainYear < 1990)
    throw new ArgumentError("fiscal_year", PERIOD_FORMS, fiscalYear);
  return {
    ref,
    yearArg,
    plainYear,
    period:
      optionalChoice(period, "period", ["annual", "quarter"] as const, { quarterly: "quarter" }) ??
      "annual",
    money: moneyUnitArg(unit),
    mode: headersArg(headers),
    direction: orderArg(order),
  };
}

/** A /segments query: every year (fiscal_year undefined) or one year outside that window. */
type SegmentsQuery = Readonly<ParamsOf<"getSegments">>;
type SegmentsResponse = ResponseOf<"getSegments">;

function segmentsQuery(
  edinet: string,
  period: SegmentsArgs["period"],
  year: number | undefined,
): SegmentsQuery {
  return internedQuery(`getSegments|${edinet}|${period}|${year ?? ""}`, () => ({
    edinet_code: edinet,
    period,
    ...(year !== undefined ? { fiscal_year: year } : {}),
  }));
}

/**
 * SEGMENTS: fiscal_year, [quarter], segment_name, revenue, operating_income, revenue_share,
 * yoy_growth, [employees, assets], revenue_basis, operating_income_basis (openapi.json SegmentRow),
 * ordered as the API orders them (fiscal year, quarter descending). All years are fetched once per
 * company and filtered here; a year outside that window is asked for explicitly. `fiscal_year`
 * takes the period language of FINANCIAL (2024, 2024/03, FY-1, 2024年度, 令和6年度, a date): a relative
 * token, 年度 or date names one of the fiscal years of the all-years answer.
 */
const segmentsTable = defineTable<SegmentsArgs, EdinetSubject, SegmentsQuery, SegmentsResponse>({
  parse: parseSegments,
  needs: {
    refuse: (args, today, userToday) => refuseFutureDate(args.yearArg, today, userToday),
    ...byEdinetCode<SegmentsArgs>(),
    first: (args, { edinet }) => [segmentsQuery(edinet, args.period, undefined)],
    ...answersOf("getSegments"),
  },
  compute(args, { label: code, edinet }, answers, shaping) {
    const { yearArg, plainYear, period: p, money } = args;
    let body = answers.read(segmentsQuery(edinet, p, undefined));
    if (body === undefined) return LACKING;
    // A relative token, 年度 or date: the fiscal year it names among the answer's own years.
    const label =
      yearArg === undefined || plainYear !== undefined
        ? undefined
        : fiscalYearAmong(
            body.segments.map((r) => r.fiscal_year),
            yearArg,
          );
    if (yearArg !== undefined && plainYear === undefined && label === undefined) throw noResults();
    const year = plainYear ?? (label === undefined ? undefined : Number(label.slice(0, 4)));
    const inYear = (r: SegmentRow): boolean =>
      label !== undefined
        ? r.fiscal_year === label
        : year === undefined || r.fiscal_year.startsWith(`${year}/`);
    let rows = body.segments.filter(inYear);
    if (rows.length === 0 && year !== undefined) {
      body = answers.read(segmentsQuery(edinet, p, year));
      if (body === undefined) return LACKING;
      rows = body.segments.filter(inYear);
    }
    if (rows.length === 0) throw noResults();
    const numeric =
      p === "quarter"
        ? ["revenue", "operating_income", "revenue_share", "yoy_growth"]
        : ["revenue", "operating_income", "revenue_share", "yoy_growth", "employees", "assets"];
    const columns = [
      plainColumn("fiscal_year"),
      ...(p === "quarter" ? [plainColumn("quarter")] : []),
      plainColumn("segment_name"),
      ...numeric.map((k) => numberColumn("segments", k, money, shaping.host)),
      plainColumn("revenue_basis"),
      plainColumn("operating_income_basis"),
    ];
    const title = titleRow(
      shaping,
      body,
      code,
      `segments ${p}${money === "jpy" ? "" : ` (${moneyUnitLabel(money, titleLang(shaping))})`}`,
      rows[0]?.fiscal_year ?? "",
      body.attribution,
    );
    // A quarter row sorts inside its fiscal year; segments of one period keep the API's name order.
    return orderedTable(
      shaping,
      columns,
      rows,
      (r) => `${r.fiscal_year} ${r.quarter ?? 9}`,
      args,
      title,
    );
  },
});

export function segments(
  company: unknown,
  fiscalYear: unknown,
  period: unknown,
  unit: unknown,
  headers: unknown,
  invocation?: InvocationLike,
  order?: unknown,
): TableResult {
  return segmentsTable(invocation, [company, fiscalYear, period, unit, headers, order]);
}
