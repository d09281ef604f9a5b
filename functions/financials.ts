// FINANCIALS (a statement table) and FINANCIAL (one value for a model cell) over GET /financials.

import type { FinancialsPeriod, FinancialsResponse } from "../src/contract";
import { FIELD_DICTIONARY } from "../src/contract";
import {
  ArgumentError,
  headersArg,
  moneyUnitArg,
  optionalChoice,
  optionalFiscalMonth,
  optionalInteger,
  requiredText,
  type Company,
  type MoneyUnit,
} from "../src/excel/args";
import {
  computeLtm,
  financialPeriodArgs,
  ltmFromHalves,
  ltmKind,
  olderWindowAsOf,
  statementRows,
  type FiscalPeriodSpec,
} from "../src/excel/financial-period";
import { companyFinancials } from "../src/excel/company-resolver";
import { labelJa, unitOf } from "../src/excel/labels";
import { headerCell, padRows, titleCells, type Column } from "../src/excel/shape";
import { roundToDecimals, sourceDecimals, unitCell } from "../src/excel/number-formats";
import { moneyUnitLabel } from "../src/excel/units";
import { EMPTY, type Cell } from "../src/excel/values";
import { FINANCIALS_FETCH_YEARS } from "../src/client";
import {
  fieldList,
  noResults,
  numberColumn,
  table,
  plainColumn,
  titleLang,
  titleRow,
} from "./common";
import { noData } from "./excel-errors";
import { companyOf, companyRefArg } from "./company-arg";
import { orderArg } from "../src/excel/order";
import { run, type CallContext, type InvocationLike } from "./run";
import { selectPeriodOnce } from "./period-index";

/** Every numeric financials key, in schema order (spec 2.5). */
export const FINANCIAL_ITEMS: readonly string[] = FIELD_DICTIONARY.financials.map((f) => f.key);

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

/** Older windows FINANCIAL may step back through (30 years each: back to the 1900s). */
const MAX_OLDER_WINDOWS = 4;

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
    const month = optionalFiscalMonth(asOf, "as_of");
    const money = moneyUnitArg(unit);
    const shape =
      optionalChoice(layout, "layout", ["items_down", "periods_down"] as const) ?? "items_down";
    const mode = headersArg(headers);
    const direction = orderArg(order);

    const who = await companyOf(ctx, ref);
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
      return table(ctx, columns, shown.periods as unknown as Record<string, unknown>[], mode, title);
    }
    return itemsDown(ctx, shown, keys, money, mode, title);
  });
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
        headerCell({ key, label: labelJa(key, "financials") ?? key }, ctx.headerLanguage),
        ...values,
      ]);
  }
  return padRows(out);
}

function readItem(p: FinancialsPeriod, item: string): unknown {
  return (p as unknown as Record<string, unknown>)[item];
}

function describeSpec(spec: FiscalPeriodSpec): string {
  switch (spec.kind) {
    case "relative":
      return spec.offset === 0 ? "latest" : String(spec.offset);
    case "month":
      return spec.month;
    case "year":
      return String(spec.year);
    case "onOrBefore":
      return `on or before ${spec.month}`;
  }
}

/** What FINANCIAL's `item` takes, for its messages. */
const ITEM_FORMS = {
  en: 'a key from =KAISHA.FIELDS("financials"), e.g. sales',
  ja: '=KAISHA.FIELDS("financials") のキー（sales など）',
} as const;

/** Per frozen answer and item: the decimals its figures carry (an LTM sum is rounded to them). */
const itemDecimals = new WeakMap<readonly FinancialsPeriod[], Map<string, number>>();

function decimalsOfItem(periods: readonly FinancialsPeriod[], item: string): number {
  const read = () => sourceDecimals(periods.map((p) => readItem(p, item) as number | null));
  if (!Object.isFrozen(periods)) return read();
  let known = itemDecimals.get(periods);
  if (known === undefined) {
    known = new Map();
    itemDecimals.set(periods, known);
  }
  let decimals = known.get(item);
  if (decimals === undefined) {
    decimals = read();
    known.set(item, decimals);
  }
  return decimals;
}

/**
 * FINANCIAL: one value. Asks /financials for the widest window (the client answers every cell of a
 * company and period type from one request, spec 4.8) and picks the row locally.
 */
export function financial(
  company: unknown,
  item: unknown,
  fiscalPeriod: unknown,
  period: unknown,
  quarter: unknown,
  unit: unknown,
  invocation?: InvocationLike,
): Promise<Cell> {
  return run(invocation, async (ctx) => {
    const ref = companyRefArg(company);
    const accepted = ITEM_FORMS;
    const key = fieldList(
      requiredText(item, "item", accepted),
      "item",
      FINANCIAL_ITEMS,
      [],
      "financials",
      true,
    );
    if (key.length !== 1) throw new ArgumentError("item", accepted, item);
    const itemKey = key[0] as string;
    const { spec, type, quarter: q } = financialPeriodArgs(fiscalPeriod, period, quarter);
    const money = moneyUnitArg(unit);
    const unitId = unitOf("financials", itemKey);
    if (type === "LTM" && ltmKind(itemKey) === undefined) {
      throw new ArgumentError(
        "item",
        {
          en: "an income, cash-flow, balance-sheet or per-share item with period LTM",
          ja: "LTM では損益・キャッシュフロー・貸借対照表・1株当たりの項目",
        },
        itemKey,
      );
    }

    const fetchType = type === "LTM" ? "quarterly" : type;
    // A code or entity is already the company (resolveCompany returns it): no await per cell.
    const who = "name" in ref ? await companyOf(ctx, ref) : ref;
    const base = { ...who, period: fetchType, years: FINANCIALS_FETCH_YEARS };
    let body = await companyFinancials(ctx.client, who, base, ctx.options);
    // An older period than the window: step back one whole window at a time (each step the same
    // request for every older cell of the company), never past the start of the history.
    for (let step = 0; step < MAX_OLDER_WINDOWS; step++) {
      const older = olderWindowAsOf(body.periods, spec, FINANCIALS_FETCH_YEARS);
      if (older === undefined) break;
      body = await companyFinancials(ctx.client, who, { ...base, as_of: older }, ctx.options);
    }
    if (body.periods.length === 0) throw noResults();

    if (type === "LTM") {
      let ltm = computeLtm(body.periods, itemKey, spec, q);
      if (!ltm.ok && ltm.reason === "incomplete" && ltm.anchor !== undefined) {
        // spec 4.8 rule 3: an item disclosed only half-yearly (cash flow) is null in quarterly
        // rows; Q4 reads the full year, Q2 adds the halves (one semiannual request per company).
        const anchor = ltm.anchor;
        let halves = ltmFromHalves(body.periods, itemKey, anchor);
        if (!halves.ok && anchor.quarter === "Q2" && ltmKind(itemKey) === "flow") {
          const semi = await ctx.client.financials(
            { ...who, period: "semiannual", years: FINANCIALS_FETCH_YEARS },
            ctx.options,
          );
          halves = ltmFromHalves(semi.periods, itemKey, anchor);
        }
        if (halves.ok) ltm = halves;
      }
      if (!ltm.ok) {
        const what = `${describeSpec(spec)}${q ? ` ${q}` : ""}`;
        const odd = ltm.reason === "incomplete" ? ltm.anchor?.quarter : undefined;
        const oddQuarter = (odd === "Q1" || odd === "Q3") && ltmKind(itemKey) === "flow";
        throw ltm.reason === "no_anchor"
          ? noData(
              `LTM ${itemKey} (${what}): no such quarter for ${companyLabel(who)}: see =KAISHA.FINANCIALS(…,"quarterly") for the quarters`,
              `LTM ${itemKey}（${what}）：${companyLabel(who)} にその四半期はありません：FINANCIALS(…,"quarterly") で四半期を確認してください`,
            )
          : noData(
              `LTM ${itemKey} (${what}): fewer than four consecutive quarters disclosed${oddQuarter ? "; half-yearly items end at quarter Q2 or Q4" : ""}`,
              `LTM ${itemKey}（${what}）：連続する4四半期のデータがありません${oddQuarter ? "（半期開示の項目は quarter を Q2 か Q4 に）" : ""}`,
            );
      }
      if (ltm.value === null) return EMPTY;
      // A sum of four quarters carries float noise (0.1 + 0.2); the API's figures do not: round
      // to the precision of the item's own values before scaling.
      const decimals = decimalsOfItem(body.periods, itemKey);
      return unitCell(roundToDecimals(ltm.value, decimals), unitId, money, ctx.host);
    }
    const row = selectPeriodOnce(body.periods, type, spec, q);
    if (row === undefined) {
      const what = `${describeSpec(spec)}${q ? ` ${q}` : ""}`;
      throw noData(
        `No ${type} period ${what} for ${companyLabel(who)}: see =KAISHA.FINANCIALS for the periods`,
        `${companyLabel(who)} に ${what} の期間（${type}）はありません：FINANCIALS で期間を確認してください`,
      );
    }
    return unitCell(readItem(row, itemKey), unitId, money, ctx.host);
  });
}
