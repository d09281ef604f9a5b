// VALUATION: annual valuation history (GET /valuations), newest first; "per_5y_avg" alone is a scalar.

import { FIELD_DICTIONARY } from "../src/contract";
import { ArgumentError, headersArg, listArg, optionalInteger } from "../src/excel/args";
import { unitCell } from "../src/excel/number-formats";
import type { Cell } from "../src/excel/values";
import { fieldList, noResults, numberColumn, table, plainColumn, titleRow } from "./common";
import { companyRefArg, securityCodeOf } from "./company-arg";
import { inOrder, orderArg } from "../src/excel/order";
import { run, type InvocationLike } from "./run";
import {
  fiscalYearAmong,
  monthWithoutAnswer,
  optionalPeriodArg,
} from "../src/excel/fiscal-year-arg";
import { futureDate } from "./excel-errors";
import { TableMemo } from "./cells/table-memo";

const VALUATION_FIELDS: readonly string[] = [
  ...FIELD_DICTIONARY.valuations.map((f) => f.key),
  "per_source",
];

/** Default columns: price, size, multiples, per-share values on the current share basis, returns. */
const DEFAULT_VALUATION_FIELDS: readonly string[] = [
  "stock_price_adjusted",
  "market_cap",
  "per",
  "pbr_adjusted",
  "eps_adjusted",
  "bps_adjusted",
  "dps_adjusted",
  "roe",
  "dividend_yield_adjusted",
];

/**
 * openapi.json getValuations: years 1..50. One request of 50 years answers every `years` (sliced
 * here).
 */
const FETCH_YEARS = 50;

/** Tables built, per answer and arguments (a warm recalculation gives the same one). */
const tables = new TableMemo();

/**
 * VALUATION: history newest first (openapi.json getValuations); `fields` "per_5y_avg" alone returns
 * that number. The API is always asked for 50 years so that cells with different `years` share one
 * answer. `as_of` ends the history at the fiscal year it names, in FINANCIAL's period language (a
 * year, label, FY-1, 2024年度 or date), read among the answer's own fiscal years: no other request.
 */
export function valuation(
  securityCode: unknown,
  fields: unknown,
  years: unknown,
  headers: unknown,
  invocation?: InvocationLike,
  order?: unknown,
  asOf?: unknown,
): Promise<Cell[][]> {
  return run(invocation, async (ctx) => {
    const ref = companyRefArg(securityCode);
    const requested = listArg(fields, "fields", {
      en: "valuation field keys",
      ja: "バリュエーション項目のキー",
    });
    const avg = requested?.some((k) => k.toLowerCase() === "per_5y_avg") ?? false;
    const scalar = avg && requested?.length === 1;
    if (avg && !scalar) {
      // openapi.json getValuations: per_5y_avg is a top-level number, not a column of the history.
      throw new ArgumentError("fields", {
        en: '"per_5y_avg" alone (one number), or history keys from =KAISHA.FIELDS("valuations")',
        ja: '"per_5y_avg" のみ（1つの数値）、または =KAISHA.FIELDS("valuations") の履歴のキー',
      });
    }
    const keys = scalar
      ? []
      : fieldList(fields, "fields", VALUATION_FIELDS, DEFAULT_VALUATION_FIELDS, "valuations");
    const count = optionalInteger(years, "years", { min: 1, max: 50 }) ?? 20;
    const mode = headersArg(headers);
    const direction = orderArg(order);
    const asOfArg = optionalPeriodArg(asOf, "as_of");
    const today = ctx.client.today();
    if (asOfArg?.spec.kind === "onOrBefore" && asOfArg.spec.iso > today)
      throw futureDate(asOfArg.spec.iso, today);

    const code = await securityCodeOf(ctx, ref);
    const body = await ctx.client.valuations(
      { security_code: code, years: FETCH_YEARS },
      ctx.options,
    );
    // A 1x1 result: the function is declared as returning a table (metadata any[][]).
    if (scalar) return [[unitCell(body.per_5y_avg, "times", "jpy", ctx.host)]];
    // Everything the table depends on besides the answer: a recalculation reuses it.
    const signature = [
      code,
      keys.join(","),
      count,
      mode,
      direction,
      asOfArg === undefined ? "" : JSON.stringify(asOfArg),
      ctx.headerLanguage,
      ctx.host.dataTypes,
    ].join("|");
    const known = tables.get(body, signature);
    if (known !== undefined) return known;
    // openapi.json ValuationHistoryPoint.fiscal_year: YYYY/MM; history is newest first.
    const bound =
      asOfArg === undefined
        ? undefined
        : (monthWithoutAnswer(asOfArg) ??
          fiscalYearAmong(
            body.history.map((h) => h.fiscal_year),
            asOfArg,
          ));
    if (asOfArg !== undefined && bound === undefined) throw noResults();
    const upTo =
      bound === undefined ? body.history : body.history.filter((h) => h.fiscal_year <= bound);
    const history = upTo.slice(0, count);
    if (history.length === 0) throw noResults();
    const columns = [
      plainColumn("fiscal_year"),
      ...keys.map((k) => (k === "per_source" ? plainColumn(k) : numberColumn("valuations", k))),
    ];
    const title = titleRow(
      ctx,
      body,
      code,
      "valuations",
      history[0]?.fiscal_year ?? "",
      body.attribution,
    );
    const rows = inOrder(history, (h) => h.fiscal_year, direction);
    return tables.set(
      body,
      signature,
      table(ctx, columns, rows as unknown as Record<string, unknown>[], mode, title),
    );
  });
}
