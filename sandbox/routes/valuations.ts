// GET /valuations (openapi.json getValuations): annual valuation series, newest fiscal year first,
// plus per_5y_avg.
import { attribution } from "../lib/attribution";
import { jstDate } from "../lib/data-clock";
import { reasonFor } from "../lib/empty-reason";
import { fieldsOf } from "../lib/fields";
import { findSecurity } from "../lib/lookup";
import { isPublished } from "../lib/publication";
import { defineRoute } from "../lib/route";

/**
 * openapi.json ValuationsResponse: simple mean of the positive close-based PERs of the latest 5
 * years.
 */
function per5yAverage(history: readonly { per: number | null }[]): number | null {
  const positives = history
    .slice(0, 5)
    .map((point) => point.per)
    .filter((per): per is number => per !== null && per > 0);
  if (positives.length === 0) return null;
  return Math.round((positives.reduce((a, b) => a + b, 0) / positives.length) * 100) / 100;
}

export const valuationsRoute = defineRoute({
  operationId: "getValuations",
  handle({ state, params }) {
    const dataset = state.dataset();
    const security = findSecurity(dataset, params.reqStr("security_code"));
    const record = dataset.valuations.get(security.code);
    const now = state.now();
    const today = jstDate(now);
    const all = record?.history ?? [];
    // A fiscal year appears with its annual results (24 hours after the tanshin, openapi.json
    // info.description).
    const visible = all.filter((point) =>
      isPublished(dataset, security.code, point.fiscal_year, undefined, now, today),
    );
    const history = visible.slice(0, params.reqNum("years"));
    const per5y =
      record === undefined
        ? null
        : visible.length === all.length
          ? record.per_5y_avg
          : per5yAverage(visible);
    return {
      fields: fieldsOf("valuations"),
      security_code: security.code,
      history,
      per_5y_avg: per5y,
      reason: reasonFor(history.length, "No valuation history for this security."),
      attribution: attribution(),
    };
  },
});
