// SEGMENTS: segment results of a corporation (GET /segments), money scaled by `unit`.

import type { SegmentRow } from "../src/contract";
import { headersArg, moneyUnitArg, optionalChoice, optionalYear } from "../src/excel/args";
import { moneyUnitLabel } from "../src/excel/units";
import type { Cell } from "../src/excel/values";
import { noResults, numberColumn, plainColumn, table, titleLang, titleRow } from "./common";
import { companyOf, companyRefArg } from "./company-arg";
import { inOrder, orderArg } from "../src/excel/order";
import { run, type InvocationLike } from "./run";

/**
 * SEGMENTS: fiscal_year, [quarter], segment_name, revenue, operating_income, revenue_share,
 * yoy_growth, [employees, assets], revenue_basis, operating_income_basis (spec 2.7), ordered as the
 * API orders them (fiscal year, quarter descending). All years are fetched once per company and
 * filtered here; a year outside that window is asked for explicitly.
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
    const year = optionalYear(fiscalYear, "fiscal_year", { min: 1990, max: 2100 });
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
    const inYear = (r: SegmentRow): boolean =>
      year === undefined || r.fiscal_year.startsWith(`${year}/`);
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
