// MARGIN (weekly margin balances) and JSFMARGIN (securities-finance balances and reverse fees).

import type { Dataset } from "../src/contract";
import type { ParamsOf, ResponseOf } from "../src/client";
import { headersArg, optionalChoice, optionalDate, type HeaderMode } from "../src/excel/args";
import type { CompanyRef } from "../src/excel/company-ref";
import { dateCell } from "../src/excel/values";
import { dateColumn, noResults, numberColumn, orderedTable, plainColumn, titleRow } from "./common";
import { companyRefArg } from "./company-arg";
import { orderArg, type Order } from "../src/excel/order";
import { refuseFutureDay } from "./excel-errors";
import { upToToday } from "../src/excel/dates";
import type { InvocationLike } from "./run";
import { defineTable, type TableResult } from "./cells/define-table";
import { internedQuery } from "./cells/interned-args";
import { answersOf } from "./cells/answers";
import { LACKING } from "./cells/rounds";
import { bySecurityCode } from "./cells/subjects";

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

/** MARGIN's arguments read. */
interface MarginArgs {
  ref: CompanyRef;
  period: "26w" | "52w";
  mode: HeaderMode;
  direction: Order;
}

type WeeklyQuery = ParamsOf<"getWeeklyMarginBalance">;

function weeklyQuery(code: string, period: MarginArgs["period"]): WeeklyQuery {
  return internedQuery(`getWeeklyMarginBalance|${code}|${period}`, () => ({ code, period }));
}

/**
 * MARGIN: one row per week, oldest first (openapi.json getWeeklyMarginBalance): report_date,
 * adjusted balances, ratio, changes, close, volume, then the exchange-published (`*_reported`)
 * values. When the split status is `undeterminable` the adjusted columns are empty: use the
 * `*_reported` ones.
 */
const marginTable = defineTable<
  MarginArgs,
  string,
  WeeklyQuery,
  ResponseOf<"getWeeklyMarginBalance">
>({
  parse: ([company, period, headers, order]) => ({
    ref: companyRefArg(company),
    period: optionalChoice(period, "period", ["26w", "52w"] as const) ?? "52w",
    mode: headersArg(headers),
    direction: orderArg(order),
  }),
  needs: {
    ...bySecurityCode<MarginArgs>(),
    first: (args, code) => [weeklyQuery(code, args.period)],
    ...answersOf("getWeeklyMarginBalance"),
  },
  compute(args, code, answers, shaping) {
    const body = answers.read(weeklyQuery(code, args.period));
    if (body === undefined) return LACKING;
    if (body.weeks.length === 0) throw noResults();
    const columns = [
      dateColumn("report_date", shaping),
      ...WEEK_FIELDS.map((k) => numberColumn("margin", k, "jpy", shaping.host)),
    ];
    const last = body.weeks[body.weeks.length - 1];
    const title = titleRow(
      shaping,
      body,
      code,
      `margin ${body.period} ${body.split_adjustment_status}`,
      dateCell(last?.report_date, shaping.host),
      body.attribution,
    );
    return orderedTable(shaping, columns, body.weeks, (w) => w.report_date, args, title);
  },
});

export function margin(
  securityCode: unknown,
  period: unknown,
  headers: unknown,
  invocation?: InvocationLike,
  order?: unknown,
): TableResult {
  return marginTable(invocation, [securityCode, period, headers, order]);
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

/** JSFMARGIN's arguments read. */
interface JsfArgs {
  ref: CompanyRef;
  period: "1m" | "3m" | "6m" | "1y";
  end: string | undefined;
  exchange: "XTKS" | "XNGO" | "XFKA" | "XSAP" | undefined;
  which: (typeof TABLES)[number];
  mode: HeaderMode;
  direction: Order;
}

type JsfQuery = ParamsOf<"getJsfMarginDaily">;

function jsfQuery(code: string, args: JsfArgs, today?: string): JsfQuery {
  const { period, exchange } = args;
  // The user's today east of Japan names JST today: no request for a day not reached yet.
  const end = today === undefined ? args.end : upToToday(args.end, today);
  return internedQuery(
    `getJsfMarginDaily|${code}|${period}|${end ?? ""}|${exchange ?? ""}`,
    () => ({
      code,
      period,
      ...(end !== undefined ? { to: end } : {}),
      ...(exchange !== undefined ? { exchange } : {}),
    }),
  );
}

/**
 * JSFMARGIN: `table` days (default; daily balances, oldest first), reverse (reverse fees on the own
 * market) or other_exchange_reverse (with exchange_code) (openapi.json getJsfMarginDaily).
 */
const jsfTable = defineTable<JsfArgs, string, JsfQuery, ResponseOf<"getJsfMarginDaily">>({
  parse: ([company, period, to, exchange, tableName, headers, order]) => ({
    ref: companyRefArg(company),
    period: optionalChoice(period, "period", ["1m", "3m", "6m", "1y"] as const) ?? "1y",
    end: optionalDate(to, "to"),
    exchange: optionalChoice(exchange, "exchange", ["XTKS", "XNGO", "XFKA", "XSAP"] as const),
    which: optionalChoice(tableName, "table", TABLES) ?? "days",
    mode: headersArg(headers),
    direction: orderArg(order),
  }),
  needs: {
    // openapi.json getJsfMarginDaily to: the end of a past period; a day not reached yet has none.
    refuse: ({ end }, today, userToday) => refuseFutureDay(end, today, userToday),
    ...bySecurityCode<JsfArgs>(),
    first: (args, code) => [jsfQuery(code, args)],
    ...answersOf("getJsfMarginDaily"),
  },
  compute(args, code, answers, shaping, client) {
    const body = answers.read(jsfQuery(code, args, client.today()));
    if (body === undefined) return LACKING;
    const { which } = args;
    const rows = (which === "days"
      ? body.days
      : which === "reverse"
        ? body.reverse
        : body.other_exchange_reverse) as unknown as Record<string, unknown>[];
    if (rows.length === 0) throw noResults();
    const jsf: Dataset = "jsf";
    const columns = [
      dateColumn("date", shaping),
      ...(which === "other_exchange_reverse" ? [plainColumn("exchange_code")] : []),
      ...(which === "days" ? DAY_FIELDS : FEE_FIELDS).map((k) =>
        numberColumn(jsf, k, "jpy", shaping.host),
      ),
    ];
    const last = rows[rows.length - 1] as { date?: string } | undefined;
    const title = titleRow(
      shaping,
      body,
      code,
      `jsf ${which} ${body.exchange} ${body.period}`,
      dateCell(last?.date, shaping.host),
      body.attribution,
    );
    return orderedTable(shaping, columns, rows, (r) => String(r.date ?? ""), args, title);
  },
});

export function jsfMargin(
  securityCode: unknown,
  period: unknown,
  to: unknown,
  exchange: unknown,
  tableName: unknown,
  headers: unknown,
  invocation?: InvocationLike,
  order?: unknown,
): TableResult {
  return jsfTable(invocation, [securityCode, period, to, exchange, tableName, headers, order]);
}
