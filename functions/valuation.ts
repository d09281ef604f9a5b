// VALUATION: annual valuation history (GET /valuations), newest first; "per_5y_avg" alone is a scalar.

import type { ValuationsResponse } from "../src/contract";
import { FIELD_DICTIONARY } from "../src/contract";
import {
  ArgumentError,
  headersArg,
  listArg,
  optionalInteger,
  type HeaderMode,
} from "../src/excel/args";
import type { CompanyRef } from "../src/excel/company-ref";
import { unitCell } from "../src/excel/number-formats";
import { fieldList, noResults, numberColumn, orderedTable, plainColumn, titleRow } from "./common";
import { companyRefArg } from "./company-arg";
import { orderArg, type Order } from "../src/excel/order";
import type { InvocationLike } from "./run";
import {
  fiscalYearAmong,
  monthWithoutAnswer,
  optionalPeriodArg,
  type PeriodArg,
} from "../src/excel/fiscal-year-arg";
import { refuseFutureDate } from "./excel-errors";
import { defineTable, type TableResult } from "./cells/define-table";
import { internedQuery } from "./cells/interned-args";
import { answersOf } from "./cells/answers";
import { LACKING } from "./cells/rounds";
import { bySecurityCode } from "./cells/subjects";

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
export const VALUATION_FETCH_YEARS = 50;

/** VALUATION's arguments read: `keys` empty for the per_5y_avg scalar. */
interface ValuationArgs {
  ref: CompanyRef;
  scalar: boolean;
  keys: readonly string[];
  count: number;
  mode: HeaderMode;
  direction: Order;
  asOf: PeriodArg | undefined;
}

/** The one /valuations query of a security (frozen: the client keeps what it learned on it). */
type ValuationsQuery = Readonly<{ security_code: string; years: number }>;

function valuationsQuery(code: string): ValuationsQuery {
  return internedQuery(`getValuations|${code}`, () => ({
    security_code: code,
    years: VALUATION_FETCH_YEARS,
  }));
}

function parseValuation([company, fields, years, headers, order, asOf]: readonly unknown[]) {
  const ref = companyRefArg(company);
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
  return {
    ref,
    scalar,
    keys,
    count: optionalInteger(years, "years", { min: 1, max: 50 }) ?? 20,
    mode: headersArg(headers),
    direction: orderArg(order),
    asOf: optionalPeriodArg(asOf, "as_of"),
  };
}

/**
 * VALUATION: history newest first (openapi.json getValuations); `fields` "per_5y_avg" alone returns
 * that number. The API is always asked for 50 years so that cells with different `years` share one
 * answer. `as_of` ends the history at the fiscal year it names, in FINANCIAL's period language (a
 * year, label, FY-1, 2024年度 or date), read among the answer's own fiscal years: no other request.
 */
const valuationTable = defineTable<ValuationArgs, string, ValuationsQuery, ValuationsResponse>({
  parse: parseValuation,
  needs: {
    refuse: (args, today, userToday) => refuseFutureDate(args.asOf, today, userToday),
    ...bySecurityCode<ValuationArgs>(),
    first: (_args, code) => [valuationsQuery(code)],
    ...answersOf("getValuations"),
  },
  compute(args, code, answers, shaping) {
    const { asOf } = args;
    const body = answers.read(valuationsQuery(code));
    if (body === undefined) return LACKING;
    // A 1x1 result: the function is declared as returning a table (metadata any[][]).
    if (args.scalar) return [[unitCell(body.per_5y_avg, "times", "jpy", shaping.host)]];
    // openapi.json ValuationHistoryPoint.fiscal_year: YYYY/MM; history is newest first.
    const bound =
      asOf === undefined
        ? undefined
        : (monthWithoutAnswer(asOf) ??
          fiscalYearAmong(
            body.history.map((h) => h.fiscal_year),
            asOf,
          ));
    if (asOf !== undefined && bound === undefined) throw noResults();
    const upTo =
      bound === undefined ? body.history : body.history.filter((h) => h.fiscal_year <= bound);
    const history = upTo.slice(0, args.count);
    if (history.length === 0) throw noResults();
    const columns = [
      plainColumn("fiscal_year"),
      ...args.keys.map((k) =>
        k === "per_source" ? plainColumn(k) : numberColumn("valuations", k, "jpy", shaping.host),
      ),
    ];
    const title = titleRow(
      shaping,
      body,
      code,
      "valuations",
      history[0]?.fiscal_year ?? "",
      body.attribution,
    );
    return orderedTable(shaping, columns, history, (h) => h.fiscal_year, args, title);
  },
});

export function valuation(
  securityCode: unknown,
  fields: unknown,
  years: unknown,
  headers: unknown,
  invocation?: InvocationLike,
  order?: unknown,
  asOf?: unknown,
): TableResult {
  return valuationTable(invocation, [securityCode, fields, years, headers, order, asOf]);
}
