// GET /securities/{code}/weekly-margin-balance (openapi.json getWeeklyMarginBalance): the last 26
// or 52 weekly balances.
import { ApiError } from "../lib/api-error";
import { attribution } from "../lib/attribution";
import { jstDate } from "../lib/data-clock";
import { fieldsOf } from "../lib/fields";
import { findSecurity } from "../lib/lookup";
import { defineRoute } from "../lib/route";

export const weeklyMarginRoute = defineRoute({
  operationId: "getWeeklyMarginBalance",
  handle({ state, params }) {
    const dataset = state.dataset();
    const security = findSecurity(dataset, params.reqStr("code"));
    const record = dataset.weeklyMargin.get(security.code);
    const period: "26w" | "52w" = params.reqStr("period") === "26w" ? "26w" : "52w";
    const today = jstDate(state.now());
    const recorded = (record?.weeks ?? []).filter((w) => w.report_date <= today);
    // openapi.json getWeeklyMarginBalance 404: no weekly margin data for the exchange -> 404.
    if (record === undefined || recorded.length === 0) {
      throw ApiError.notFound(`No weekly margin balance data for ${security.code} on XTKS.`);
    }
    const weeks = recorded.slice(-(period === "26w" ? 26 : 52));
    // openapi.json WeeklyMarginResponse: `not-applicable` when no split affects the displayed
    // weeks; events only when applied.
    let status = record.split_adjustment_status;
    if (status === "applied" && weeks.every((w) => w.split_adjustment_factor === 1)) {
      status = "not-applicable";
    }
    const lastShown = weeks[weeks.length - 1]?.report_date ?? "";
    const splitEvents =
      status === "applied"
        ? record.split_events.map((event) => ({
            ...event,
            // null when the ex-rights date falls after the displayed period.
            applied_from_report_date:
              event.applied_from_report_date !== null && event.applied_from_report_date <= lastShown
                ? event.applied_from_report_date
                : null,
          }))
        : [];
    return {
      fields: fieldsOf("margin"),
      security_code: security.code,
      name: security.name,
      industry_name: security.industry,
      issued_shares_count: record.issued_shares_count,
      split_adjustment_status: status,
      split_events: splitEvents,
      exchange: "XTKS" as const,
      period,
      weeks,
      attribution: attribution(),
    };
  },
});
