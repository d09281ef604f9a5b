// SEGMENTS: segment results of a corporation (GET /segments), money scaled by `unit`.

import type { SegmentRow } from "../src/contract";
import { ArgumentError, headersArg, moneyUnitArg, optionalChoice } from "../src/excel/args";
import {
  fiscalYearAmong,
  optionalPeriodArg,
  yearWithoutAnswer,
} from "../src/excel/fiscal-year-arg";
import { PERIOD_FORMS } from "../src/excel/period-token";
import { refuseFutureDate } from "./excel-errors";
import { moneyUnitLabel } from "../src/excel/units";
import type { Cell } from "../src/excel/values";
import { noResults, numberColumn, plainColumn, table, titleLang, titleRow } from "./common";
import { companyOf, companyRefArg } from "./company-arg";
import { inOrder, orderArg } from "../src/excel/order";
import { run, type InvocationLike } from "./run";

/**
 * SEGMENTS: fiscal_year, [quarter], segment_name, revenue, operating_income, revenue_share,
 * yoy_growth, [employees, assets], revenue_basis, operating_income_basis (openapi.json SegmentRow),
 * ordered as the API orders them (fiscal year, quarter descending). All years are fetched once per
 * company and filtered here; a year outside that window is asked for explicitly. `fiscal_year`
 * takes the period language of FINANCIAL (2024, 2024/03, FY-1, 2024年度, 令和6年度, a date): a relative
 * token, 年度 or date names one of the fiscal years of the all-years answer.
 */
export function segments(
  company: unknown,
  fiscalYear: unknown,
  period: unknown,
  unit: unknown,
  headers: unknown,
  invocation?: InvocationLike,
  order?: unknown,
): Promise<Cell[][]> {
  return run(invocation, async (ctx) => {
    const ref = companyRefArg(company);
    const yearArg = optionalPeriodArg(fiscalYear, "fiscal_year");
    refuseFutureDate(yearArg, ctx.client.today());
    const plainYear = yearArg === undefined ? undefined : yearWithoutAnswer(yearArg);
    // openapi.json getSegments fiscal_year: 1990..2100; an older year is refused, never sent.
    if (plainYear !== undefined && plainYear < 1990)
      throw new ArgumentError("fiscal_year", PERIOD_FORMS, fiscalYear);
    const p =
      optionalChoice(period, "period", ["annual", "quarter"] as const, { quarterly: "quarter" }) ??
      "annual";
    const money = moneyUnitArg(unit);
    const mode = headersArg(headers);
    const direction = orderArg(order);
    const who = await companyOf(ctx, ref);
    const code = "security_code" in who ? who.security_code : who.edinet_code;
    const edinet = await ctx.client.resolveEdinetCode(code, ctx.options);

    let body = await ctx.client.segments({ edinet_code: edinet, period: p }, ctx.options);
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
      body = await ctx.client.segments(
        { edinet_code: edinet, period: p, fiscal_year: year },
        ctx.options,
      );
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
      ...numeric.map((k) => numberColumn("segments", k, money)),
      plainColumn("revenue_basis"),
      plainColumn("operating_income_basis"),
    ];
    const title = titleRow(
      ctx,
      body,
      code,
      `segments ${p}${money === "jpy" ? "" : ` (${moneyUnitLabel(money, titleLang(ctx))})`}`,
      rows[0]?.fiscal_year ?? "",
      body.attribution,
    );
    // A quarter row sorts inside its fiscal year; segments of one period keep the API's name order.
    const ordered = inOrder(rows, (r) => `${r.fiscal_year} ${r.quarter ?? 9}`, direction);
    return table(ctx, columns, ordered as unknown as Record<string, unknown>[], mode, title);
  });
}
