// FINANCIALS (a statement table) over GET /financials; FINANCIAL (one value) is in financial-cell.ts.

import type { FinancialsPeriod, FinancialsResponse } from "../src/contract";
import { FINANCIAL_ITEMS } from "./financial-cell";
import {
  headersArg,
  moneyUnitArg,
  optionalChoice,
  optionalInteger,
  type Company,
  type HeaderMode,
  type MoneyUnit,
} from "../src/excel/args";
import { statementRows } from "../src/excel/financial-period";
import {
  fiscalYearIn,
  monthWithoutAnswer,
  optionalPeriodArg,
  type PeriodArg,
} from "../src/excel/fiscal-year-arg";
import { noData, refuseFutureDate } from "./excel-errors";
import { fieldInfo, labelJa, unitLabel, unitOf } from "../src/excel/labels";
import { headerCell, padRows, titleCells, type Column } from "../src/excel/shape";
import { unitCell } from "../src/excel/number-formats";
import { moneyUnitFor, moneyUnitLabel } from "../src/excel/units";
import type { Cell } from "../src/excel/values";
import {
  fieldList,
  noResults,
  numberColumn,
  table,
  plainColumn,
  titleLang,
  titleRow,
  type Shaping,
} from "./common";
import { companyOf, companyRefArg } from "./company-arg";
import { orderArg, type Order } from "../src/excel/order";
import type { InvocationLike } from "./run";
import type { CompanyRef } from "../src/excel/company-ref";
import { narrowFinancials } from "../src/domain/financials-window";
import { defineTable, type TableResult } from "./cells/define-table";
import type { Answers } from "./cells/answers";
import { LACKING } from "./cells/rounds";
import {
  fetchFinancials,
  peekFinancials,
  widestAsk,
  type FinancialsAsk,
} from "./cells/financials-asks";
import { financialsAsk } from "./cells/interned-args";

/** The default statement set: headline P&L, balance sheet, cash flow and per-share lines. */
const DEFAULT_FINANCIAL_ITEMS: readonly string[] = [
  "sales",
  "operating_profit",
  "ordinary_income",
  "net_income",
  "total_assets",
  "net_assets",
  "shareholders_equity",
  "equity_ratio",
  "operating_cf",
  "investing_cf",
  "financing_cf",
  "cash_and_equivalents",
  "eps",
  "bps",
  "dps",
  "roe",
];

const PERIODS = ["annual", "quarterly", "semiannual"] as const;

function companyLabel(company: Company): string {
  return "security_code" in company ? company.security_code : company.edinet_code;
}

/** "2024/03" for annual rows, "2024/03 Q1" for quarterly / semiannual ones. */
function periodLabel(p: FinancialsPeriod): string {
  return p.quarter ? `${p.fiscal_year} ${p.quarter}` : p.fiscal_year;
}

/** FINANCIALS' arguments read. */
interface FinancialsArgs {
  ref: CompanyRef;
  keys: readonly string[];
  periodType: (typeof PERIODS)[number];
  count: number;
  asOf: PeriodArg | undefined;
  money: MoneyUnit;
  shape: "items_down" | "periods_down";
  mode: HeaderMode;
  direction: Order;
}

/** FINANCIALS' arguments in Excel's order (functions/index.ts), read. */
function parseFinancials(raw: readonly unknown[]): FinancialsArgs {
  const [company, items, period, years, asOf, unit, layout, headers, order] = raw;
  return {
    ref: companyRefArg(company),
    keys: fieldList(items, "items", FINANCIAL_ITEMS, DEFAULT_FINANCIAL_ITEMS, "financials"),
    periodType: optionalChoice(period, "period", PERIODS) ?? "annual",
    count: optionalInteger(years, "years", { min: 1, max: 30 }) ?? 10,
    asOf: optionalPeriodArg(asOf, "as_of"),
    money: moneyUnitArg(unit),
    shape:
      optionalChoice(layout, "layout", ["items_down", "periods_down"] as const) ?? "items_down",
    mode: headersArg(headers),
    direction: orderArg(order),
  };
}

/**
 * The widest window up to the as_of month, which the client asks for whatever `years` (openapi.json
 * getFinancials: one request answers every year; src/domain/financials-window.ts): its stored
 * body, the same object while fresh, is cut to `years` here as the client would cut it.
 */
function windowAsk(args: FinancialsArgs, who: Company, month: string | undefined) {
  return financialsAsk(who, args.periodType, month);
}

/**
 * FINANCIALS: the /financials table. items_down (default): items in rows, periods in columns
 * (oldest left, like a statement); periods_down: one row per period.
 */
const financialsTable = defineTable<FinancialsArgs, Company, FinancialsAsk, FinancialsResponse>({
  parse: parseFinancials,
  needs: {
    remembered: (args) => !("name" in args.ref),
    refuse: (args, today, userToday) => refuseFutureDate(args.asOf, today, userToday),
    subjectAtHand: (args) => ("name" in args.ref ? undefined : args.ref),
    subject: (ctx, args) => ("name" in args.ref ? companyOf(ctx, args.ref) : args.ref),
    first: (args, who) => {
      const { asOf } = args;
      if (asOf === undefined) return [windowAsk(args, who, undefined)];
      const month = monthWithoutAnswer(asOf);
      return [month === undefined ? widestAsk(who, asOf) : windowAsk(args, who, month)];
    },
    peek: peekFinancials,
    fetch: (ctx, _args, _who, ask) => fetchFinancials(ctx, ask),
  },
  compute(args, who, answers, shaping) {
    const { asOf, periodType, money, keys, mode } = args;
    const month = asOf === undefined ? undefined : asOfMonth(answers, who, asOf);
    if (month === LACKING) return LACKING;
    const wide = answers.read(windowAsk(args, who, month));
    if (wide === undefined) return LACKING;
    const body = narrowFinancials(wide, periodType, args.count) as FinancialsResponse;
    if (body.periods.length === 0) throw noResults();
    const last = body.periods[body.periods.length - 1] as FinancialsPeriod;
    const title = titleRow(
      shaping,
      // The stored body says whether it is stale (the API down): the cut copy does not carry it.
      wide,
      companyLabel(who),
      `financials ${periodType}${money === "jpy" ? "" : ` (${moneyUnitLabel(money, titleLang(shaping))})`}`,
      // The latest row's own label: "2027/03 Q2" for a running year, not a year end not yet reached.
      periodLabel(last),
      body.attribution,
    );

    const shown = { ...body, periods: statementRows(body.periods, args.direction) };
    if (args.shape === "periods_down") {
      const columns: Column<Record<string, unknown>>[] = [plainColumn("fiscal_year")];
      if (periodType !== "annual") columns.push(plainColumn("quarter"));
      for (const key of keys) columns.push(numberColumn("financials", key, money, shaping.host));
      return table(
        shaping,
        columns,
        shown.periods as unknown as Record<string, unknown>[],
        mode,
        title,
      );
    }
    return itemsDown(shaping, shown, keys, money, mode, title);
  },
});

export function financials(
  company: unknown,
  items: unknown,
  period: unknown,
  years: unknown,
  asOf: unknown,
  unit: unknown,
  layout: unknown,
  headers: unknown,
  invocation?: InvocationLike,
  order?: unknown,
): TableResult {
  return financialsTable(invocation, [
    company,
    items,
    period,
    years,
    asOf,
    unit,
    layout,
    headers,
    order,
  ]);
}

/**
 * as_of as a month (openapi.json getFinancials as_of: upper bound month YYYY/MM): a year, label or
 * date directly; a relative token, a 年度 or a quarter names a fiscal year of the company, read
 * from the widest answer of its series (the request FINANCIAL cells make, shared with them).
 */
function asOfMonth(
  answers: Answers<FinancialsAsk, FinancialsResponse>,
  who: Company,
  arg: PeriodArg,
): string | typeof LACKING {
  const direct = monthWithoutAnswer(arg);
  if (direct !== undefined) return direct;
  const all = answers.read(widestAsk(who, arg));
  if (all === undefined) return LACKING;
  const label = fiscalYearIn(all.periods, arg);
  if (label === undefined)
    throw noData(
      `as_of: no such period for ${companyLabel(who)}: see =KAISHA.FINANCIALS for the periods`,
      `as_of：${companyLabel(who)} にその期間はありません：FINANCIALS で期間を確認してください`,
    );
  return label;
}

function itemsDown(
  ctx: Shaping,
  body: FinancialsResponse,
  keys: readonly string[],
  money: MoneyUnit,
  mode: 0 | 1 | 2,
  title: ReturnType<typeof titleRow>,
): Cell[][] {
  const out: Cell[][] = [];
  if (mode === 2) out.push(titleCells(title));
  if (mode >= 1)
    out.push([
      headerCell({ key: "item", label: labelJa("item") ?? "item" }, ctx.headerLanguage),
      ...body.periods.map(periodLabel),
    ]);
  for (const key of keys) {
    const unitId = unitOf("financials", key);
    // openapi.json x-money-kind: the unit scales amounts only.
    const scale = moneyUnitFor(fieldInfo("financials", key), money);
    const values = body.periods.map((p) =>
      unitCell((p as unknown as Record<string, unknown>)[key], unitId, scale, ctx.host),
    );
    if (mode === 0) out.push(values);
    else
      out.push([
        headerCell(
          { key, label: unitLabel(labelJa(key, "financials"), unitId) ?? key },
          ctx.headerLanguage,
        ),
        ...values,
      ]);
  }
  return padRows(out);
}
