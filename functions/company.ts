// COMPANY: a company card (entity where data types exist, else a one-row table).

import { isKaishaError } from "../src/client";
import type { FinancialsResponse, SecurityListItem, ValuationsResponse } from "../src/contract";
import type { Dataset } from "../src/contract";
import { companyFinancials } from "../src/domain/company-resolver";
import { resolveEdinetCode } from "../src/domain/network-rules";
import { labelJa, unitLabel, unitOf } from "../src/excel/labels";
import { numberFormatFor, sheetValue } from "../src/excel/number-formats";
import { headerCell } from "../src/excel/shape";
import { entityCell, plainCell, type Cell, type EntityValue } from "../src/excel/values";
import { companyOf, companyRefArg } from "./company-arg";
import { run, type CallContext, type InvocationLike } from "./run";

type Value = string | number | boolean | null | undefined;

/**
 * A numeric card property on the sheet's scale, with its contract unit's number format (PER 12.3
 * as 12.3; ROE and dividend yield, `percent` in getValuations, as fractions shown with %:
 * percent-scale.ts), as an entry of the card's field list.
 */
function numeric(
  dataset: Dataset,
  key: string,
  value: number | null | undefined,
): [string, Value, string] {
  if (typeof value !== "number") return [key, value, "General"];
  const unit = unitOf(dataset, key);
  const shown = sheetValue(value, unit, "jpy");
  return [key, shown, numberFormatFor(unit, shown) ?? "General"];
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
    // EDINET code, so no separate resolution request is needed (openapi.json getFinancials response
    // edinet_code).
    const fin = await optional<FinancialsResponse>(
      companyFinancials(ctx.client, who, { period: "annual", years: 30 }, ctx.options),
    );
    const edinet =
      "edinet_code" in who
        ? who.edinet_code
        : (fin?.edinet_code ??
          (await resolveEdinetCode(ctx.client, who.security_code, ctx.options)));
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
      numeric("valuations", "market_cap", v?.market_cap),
      numeric("valuations", "per", v?.per),
      numeric("valuations", "pbr_adjusted", v?.pbr_adjusted),
      numeric("valuations", "dividend_yield_adjusted", v?.dividend_yield_adjusted),
      numeric("valuations", "roe", v?.roe ?? v?.roe_computed),
      numeric("financials", "sales", f?.sales),
      numeric("financials", "operating_profit", f?.operating_profit),
      numeric("financials", "net_income", f?.net_income),
      ["source_label", org.attribution.source_label],
    ];
    const name = (key: string): string => {
      const dataset = labelJa(key, "valuations") !== undefined ? "valuations" : "financials";
      const label = unitLabel(labelJa(key, dataset), unitOf(dataset, key));
      return headerCell({ key, label: label ?? key }, ctx.headerLanguage);
    };
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
