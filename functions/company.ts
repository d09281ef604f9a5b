// COMPANY: a company card (entity where data types exist, else a one-row table).

import { isKaishaError } from "../src/client";
import type { FinancialsResponse, SecurityListItem, ValuationsResponse } from "../src/contract";
import type { Dataset } from "../src/contract";
import { companyFinancials } from "../src/excel/company-resolver";
import { labelJa, unitOf } from "../src/excel/labels";
import { numberFormatFor } from "../src/excel/number-formats";
import { headerCell } from "../src/excel/shape";
import { entityCell, plainCell, type Cell, type EntityValue } from "../src/excel/values";
import { companyOf, companyRefArg } from "./company-arg";
import { run, type CallContext, type InvocationLike } from "./run";

type Value = string | number | boolean | null | undefined;

/** A card property's number format from its contract unit (PER 12.3 as 12.3, ROE with %). */
function format(dataset: Dataset, key: string, value: number | null | undefined): string {
  return typeof value === "number"
    ? (numberFormatFor(unitOf(dataset, key), value) ?? "General")
    : "General";
}

/** Optional parts of the card: a "not found" there leaves the fields out instead of failing. */
async function optional<T>(work: Promise<T>): Promise<T | undefined> {
  try {
    return await work;
  } catch (err) {
    if (isKaishaError(err) && (err.code === "not_found" || err.code === "no_results"))
      return undefined;
    throw err;
  }
}

async function listing(ctx: CallContext, code: string): Promise<SecurityListItem | undefined> {
  const body = await ctx.client.securities({ q: code, limit: 20 }, ctx.options);
  return body.securities.find((s) => s.code === code);
}

/**
 * COMPANY: name, codes, market, industry, address, and the latest key metrics (market cap, PER,
 * PBR, dividend yield, ROE, sales, operating profit, net income).
 */
export function company(value: unknown, invocation?: InvocationLike): Promise<Cell[][]> {
  return run(invocation, async (ctx) => {
    const ref = companyRefArg(value);
    const who = await companyOf(ctx, ref);
    // Financials first, asked the way FINANCIAL cells ask (same cache entry): its answer names the
    // EDINET code, so no separate resolution request is needed (spec 4.8 response edinet_code).
    const fin = await optional<FinancialsResponse>(
      companyFinancials(ctx.client, who, { period: "annual", years: 30 }, ctx.options),
    );
    const edinet =
      "edinet_code" in who
        ? who.edinet_code
        : (fin?.edinet_code ??
          (await ctx.client.resolveEdinetCode(who.security_code, ctx.options)));
    const org = await ctx.client.organization({ edinet_code: edinet }, ctx.options);
    const code = "security_code" in who ? who.security_code : org.listed_security_codes[0];
    const [item, val] = await Promise.all([
      code !== undefined ? optional(listing(ctx, code)) : Promise.resolve(undefined),
      code !== undefined
        ? optional<ValuationsResponse>(
            ctx.client.valuations({ security_code: code, years: 50 }, ctx.options),
          )
        : Promise.resolve(undefined),
    ]);
    const v = val?.history[0];
    const f = fin?.periods[fin.periods.length - 1];
    const fields: [string, Value, string?][] = [
      ["name", org.name_ja],
      ["security_code", code],
      ["edinet_code", edinet],
      ["market", item?.market],
      ["industry", item?.industry],
      ["address_ja", org.address_ja],
      ["fiscal_year", v?.fiscal_year ?? f?.fiscal_year],
      ["market_cap", v?.market_cap, format("valuations", "market_cap", v?.market_cap)],
      ["per", v?.per, format("valuations", "per", v?.per)],
      ["pbr_adjusted", v?.pbr_adjusted, format("valuations", "pbr_adjusted", v?.pbr_adjusted)],
      [
        "dividend_yield_adjusted",
        v?.dividend_yield_adjusted,
        format("valuations", "dividend_yield_adjusted", v?.dividend_yield_adjusted),
      ],
      ["roe", v?.roe ?? v?.roe_computed, format("valuations", "roe", v?.roe ?? v?.roe_computed)],
      ["sales", f?.sales, format("financials", "sales", f?.sales)],
      [
        "operating_profit",
        f?.operating_profit,
        format("financials", "operating_profit", f?.operating_profit),
      ],
      ["net_income", f?.net_income, format("financials", "net_income", f?.net_income)],
      ["source_label", org.attribution.source_label],
    ];
    const name = (key: string): string =>
      headerCell(
        { key, label: labelJa(key, "valuations") ?? labelJa(key, "financials") ?? key },
        ctx.headerLanguage,
      );
    if (ctx.host.dataTypes) {
      const props = fields.map(([k, val2, fmt]): [string, Value, string?] =>
        fmt === undefined ? [name(k), val2] : [name(k), val2, fmt],
      );
      const card: EntityValue = entityCell(org.name_ja, props);
      return [[card]]; // one cell: declared as a table so the fallback can be one too
    }
    return [fields.map(([k]) => name(k)), fields.map(([, val2]) => plainCell(val2))];
  });
}
