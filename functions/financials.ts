// FINANCIALS (a statement table) over GET /financials; FINANCIAL (one value) is in financial-cell.ts.

import type { FinancialsPeriod, FinancialsResponse } from "../src/contract";
import { FINANCIAL_ITEMS } from "./financial-cell";
import {
  headersArg,
  moneyUnitArg,
  optionalChoice,
  optionalInteger,
  type Company,
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
import { companyFinancials } from "../src/domain/company-resolver";
import { labelJa, unitLabel, unitOf } from "../src/excel/labels";
import { headerCell, padRows, titleCells, type Column } from "../src/excel/shape";
import { unitCell } from "../src/excel/number-formats";
import { moneyUnitLabel } from "../src/excel/units";
import type { Cell } from "../src/excel/values";
import {
  fieldList,
  noResults,
  numberColumn,
  table,
  plainColumn,
  titleLang,
  titleRow,
} from "./common";
import { companyOf, companyRefArg } from "./company-arg";
import { orderArg } from "../src/excel/order";
import { run, type CallContext, type InvocationLike } from "./run";
import { FINANCIALS_FETCH_YEARS } from "../src/domain/financials-window";

export { FINANCIAL_ITEMS, financial } from "./financial-cell";

/** The default statement set: headline P&L, balance sheet, cash flow and per-share lines. */
export const DEFAULT_FINANCIAL_ITEMS: readonly string[] = [
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

/**
 * FINANCIALS: the /financials table. items_down (default): items in rows, periods in columns
 * (oldest left, like a statement); periods_down: one row per period.
 */
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
): Promise<Cell[][]> {
  return run(invocation, async (ctx) => {
    const ref = companyRefArg(company);
    const keys = fieldList(items, "items", FINANCIAL_ITEMS, DEFAULT_FINANCIAL_ITEMS, "financials");
    const periodType = optionalChoice(period, "period", PERIODS) ?? "annual";
    const count = optionalInteger(years, "years", { min: 1, max: 30 }) ?? 10;
    const asOfArg = optionalPeriodArg(asOf, "as_of");
    refuseFutureDate(asOfArg, ctx.client.today());
    const money = moneyUnitArg(unit);
    const shape =
      optionalChoice(layout, "layout", ["items_down", "periods_down"] as const) ?? "items_down";
    const mode = headersArg(headers);
    const direction = orderArg(order);

    const who = await companyOf(ctx, ref);
    const month = asOfArg === undefined ? undefined : await asOfMonth(ctx, who, asOfArg);
    const body = await companyFinancials(
      ctx.client,
      who,
      {
        period: periodType,
        years: count,
        ...(month !== undefined ? { as_of: month } : {}),
      },
      ctx.options,
    );
    if (body.periods.length === 0) throw noResults();
    const last = body.periods[body.periods.length - 1] as FinancialsPeriod;
    const title = titleRow(
      ctx,
      body,
      companyLabel(who),
      `financials ${periodType}${money === "jpy" ? "" : ` (${moneyUnitLabel(money, titleLang(ctx))})`}`,
      // The latest row's own label: "2027/03 Q2" for a running year, not a year end not yet reached.
      periodLabel(last),
      body.attribution,
    );

    const shown = { ...body, periods: statementRows(body.periods, direction) };
    if (shape === "periods_down") {
      const columns: Column<Record<string, unknown>>[] = [plainColumn("fiscal_year")];
      if (periodType !== "annual") columns.push(plainColumn("quarter"));
      for (const key of keys) columns.push(numberColumn("financials", key, money));
      return table(
        ctx,
        columns,
        shown.periods as unknown as Record<string, unknown>[],
        mode,
        title,
      );
    }
    return itemsDown(ctx, shown, keys, money, mode, title);
  });
}

/**
 * as_of as a month (openapi.json getFinancials as_of: upper bound month YYYY/MM): a year, label or
 * date directly; a relative token, a 年度 or a quarter names a fiscal year of the company, read
 * from the widest answer of its series (the request FINANCIAL cells make, shared with them).
 */
async function asOfMonth(ctx: CallContext, who: Company, arg: PeriodArg): Promise<string> {
  const direct = monthWithoutAnswer(arg);
  if (direct !== undefined) return direct;
  const all = await companyFinancials(
    ctx.client,
    who,
    { period: arg.type, years: FINANCIALS_FETCH_YEARS },
    ctx.options,
  );
  const label = fiscalYearIn(all.periods, arg);
  if (label === undefined)
    throw noData(
      `as_of: no such period for ${companyLabel(who)}: see =KAISHA.FINANCIALS for the periods`,
      `as_of：${companyLabel(who)} にその期間はありません：FINANCIALS で期間を確認してください`,
    );
  return label;
}

function itemsDown(
  ctx: CallContext,
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
    const values = body.periods.map((p) =>
      unitCell((p as unknown as Record<string, unknown>)[key], unitId, money, ctx.host),
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
