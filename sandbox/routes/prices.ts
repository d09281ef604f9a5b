// GET /securities/{code}/prices (openapi.json getPrices): daily prices newest first, from/to
// bounded, paged.
import { ApiError } from "../lib/api-error";
import { priceAttribution } from "../lib/attribution";
import { paginate } from "../lib/cursor";
import { jstDate } from "../lib/data-clock";
import { reasonFor } from "../lib/empty-reason";
import { fieldsOf } from "../lib/fields";
import { findSecurity } from "../lib/lookup";
import { defineRoute } from "../lib/route";

/**
 * openapi.json getPrices: no data before 2005-01-01 (exchange license), and dates before it are
 * refused.
 */
const FIRST_PRICE_DATE = "2005-01-01";

export const pricesRoute = defineRoute({
  operationId: "getPrices",
  handle({ state, params, page }) {
    const from = params.str("from");
    const to = params.str("to");
    for (const [name, value] of [
      ["from", from],
      ["to", to],
    ] as const) {
      if (value !== undefined && value < FIRST_PRICE_DATE) {
        throw ApiError.param(name, "out_of_range", `a date on or after ${FIRST_PRICE_DATE}`);
      }
    }
    if (from !== undefined && to !== undefined && from > to) {
      throw ApiError.param("from", "out_of_range", `a date on or before to (${to})`);
    }
    const dataset = state.dataset();
    const security = findSecurity(dataset, params.reqStr("code"));
    const { offset, hash } = page();
    // The data clock hides days after "today" (JST), so an earlier setNow() rewinds the series.
    const today = jstDate(state.now());
    const upper = to === undefined || to > today ? today : to;
    const rows = (dataset.prices.get(security.code) ?? [])
      .filter((p) => p.date <= upper && (from === undefined || p.date >= from))
      .reverse();
    const { page: prices, next_cursor } = paginate(rows, offset, params.reqNum("limit"), hash);
    return {
      fields: fieldsOf("prices"),
      code: security.code,
      prices,
      next_cursor,
      reason: reasonFor(prices.length, "No daily prices in the requested range."),
      attribution: priceAttribution(security.listed_on),
    };
  },
});
