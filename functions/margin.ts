// MARGIN (weekly margin balances) and JSFMARGIN (securities-finance balances and reverse fees).

import type { Dataset } from "../src/contract";
import { headersArg, optionalChoice, optionalDate } from "../src/excel/args";
import { dateCell, type Cell } from "../src/excel/values";
import { dateColumn, noResults, numberColumn, plainColumn, table, titleRow } from "./common";
import { companyRefArg, securityCodeOf } from "./company-arg";
import { inOrder, orderArg } from "../src/excel/order";
import { futureDate } from "./excel-errors";
import { run, type InvocationLike } from "./run";

/** openapi.json WeeklyMarginBalanceWeek, in schema order. */
const WEEK_FIELDS = [
  "buy_balance_total",
  "buy_balance_regulated",
  "buy_balance_general",
  "sell_balance_total",
  "sell_balance_regulated",
  "sell_balance_general",
  "margin_ratio",
  "buy_balance_change",
  "sell_balance_change",
  "close_price",
  "volume",
  "buy_balance_total_reported",
  "buy_balance_regulated_reported",
  "buy_balance_general_reported",
  "sell_balance_total_reported",
  "sell_balance_regulated_reported",
  "sell_balance_general_reported",
  "volume_reported",
  "split_adjustment_factor",
];

/**
 * MARGIN: one row per week, oldest first (openapi.json getWeeklyMarginBalance): report_date,
 * adjusted balances, ratio, changes, close, volume, then the exchange-published (`*_reported`)
 * values. When the split status is `undeterminable` the adjusted columns are empty: use the
 * `*_reported` ones.
 */
export function margin(
  securityCode: unknown,
  period: unknown,
  headers: unknown,
  invocation?: InvocationLike,
  order?: unknown,
): Promise<Cell[][]> {
  return run(invocation, async (ctx) => {
    const ref = companyRefArg(securityCode);
    const p = optionalChoice(period, "period", ["26w", "52w"] as const) ?? "52w";
    const mode = headersArg(headers);
    const direction = orderArg(order);
    const code = await securityCodeOf(ctx, ref);
    const body = await ctx.client.weeklyMargin({ code, period: p }, ctx.options);
    if (body.weeks.length === 0) throw noResults();
    const columns = [
      dateColumn("report_date", ctx),
      ...WEEK_FIELDS.map((k) => numberColumn("margin", k)),
    ];
    const last = body.weeks[body.weeks.length - 1];
    const title = titleRow(
      ctx,
      body,
      code,
      `margin ${body.period} ${body.split_adjustment_status}`,
      dateCell(last?.report_date, ctx.host),
      body.attribution,
    );
    const weeks = inOrder(body.weeks, (w) => w.report_date, direction);
    return table(ctx, columns, weeks as unknown as Record<string, unknown>[], mode, title);
  });
}

const TABLES = ["days", "reverse", "other_exchange_reverse"] as const;
const DAY_FIELDS = [
  "loan_balance",
  "stock_loan_balance",
  "net_balance",
  "loan_new",
  "loan_repay",
  "stock_loan_new",
  "stock_loan_repay",
  "loan_balance_change",
  "stock_loan_balance_change",
  "lending_ratio",
];
const FEE_FIELDS = ["fee_per_day", "fee_days", "fee_total"];

/**
 * JSFMARGIN: `table` days (default; daily balances, oldest first), reverse (reverse fees on the own
 * market) or other_exchange_reverse (with exchange_code) (openapi.json getJsfMarginDaily).
 */
export function jsfMargin(
  securityCode: unknown,
  period: unknown,
  to: unknown,
  exchange: unknown,
  tableName: unknown,
  headers: unknown,
  invocation?: InvocationLike,
  order?: unknown,
): Promise<Cell[][]> {
  return run(invocation, async (ctx) => {
    const ref = companyRefArg(securityCode);
    const p = optionalChoice(period, "period", ["1m", "3m", "6m", "1y"] as const) ?? "1y";
    const end = optionalDate(to, "to");
    // openapi.json getJsfMarginDaily to: the end of a past period; a day not reached yet has none.
    const today = ctx.client.today();
    if (end !== undefined && end > today) throw futureDate(end, today);
    const ex = optionalChoice(exchange, "exchange", ["XTKS", "XNGO", "XFKA", "XSAP"] as const);
    const which = optionalChoice(tableName, "table", TABLES) ?? "days";
    const mode = headersArg(headers);
    const direction = orderArg(order);
    const code = await securityCodeOf(ctx, ref);
    const body = await ctx.client.jsfMarginDaily(
      {
        code,
        period: p,
        ...(end !== undefined ? { to: end } : {}),
        ...(ex !== undefined ? { exchange: ex } : {}),
      },
      ctx.options,
    );
    const rows = (which === "days"
      ? body.days
      : which === "reverse"
        ? body.reverse
        : body.other_exchange_reverse) as unknown as Record<string, unknown>[];
    if (rows.length === 0) throw noResults();
    const jsf: Dataset = "jsf";
    const columns = [
      dateColumn("date", ctx),
      ...(which === "other_exchange_reverse" ? [plainColumn("exchange_code")] : []),
      ...(which === "days" ? DAY_FIELDS : FEE_FIELDS).map((k) => numberColumn(jsf, k)),
    ];
    const last = rows[rows.length - 1] as { date?: string } | undefined;
    const title = titleRow(
      ctx,
      body,
      code,
      `jsf ${which} ${body.exchange} ${body.period}`,
      dateCell(last?.date, ctx.host),
      body.attribution,
    );
    const ordered = inOrder(rows, (r) => String(r.date ?? ""), direction);
    return table(ctx, columns, ordered, mode, title);
  });
}
