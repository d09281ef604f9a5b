// GET /securities/{code}/jsf-margin-daily (openapi.json getJsfMarginDaily): securities-finance
// balances and reverse fees.
import { ApiError } from "../lib/api-error";
import { attribution } from "../lib/attribution";
import { addMonths, jstDate } from "../lib/data-clock";
import { fieldsOf } from "../lib/fields";
import { findSecurity } from "../lib/lookup";
import { defineRoute } from "../lib/route";

type Period = "1m" | "3m" | "6m" | "1y";
const MONTHS: Record<Period, number> = { "1m": 1, "3m": 3, "6m": 6, "1y": 12 };

export const jsfMarginDailyRoute = defineRoute({
  operationId: "getJsfMarginDaily",
  handle({ state, params }) {
    const dataset = state.dataset();
    const security = findSecurity(dataset, params.reqStr("code"));
    const record = dataset.jsf.get(security.code);
    if (record === undefined) {
      throw ApiError.notFound(`No securities-finance data for ${security.code}.`);
    }
    // openapi.json getJsfMarginDaily: without `exchange`, the listing market decides (the main
    // exchange wins).
    const exchange = params.str("exchange") ?? record.exchange;
    if (exchange !== record.exchange) {
      throw ApiError.notFound(`No securities-finance data for ${security.code} on ${exchange}.`);
    }
    const period = params.reqStr("period") as Period;
    const today = jstDate(state.now());
    const published = record.days.filter((d) => d.date <= today);
    // openapi.json getJsfMarginDaily: the period ends at `to` (default: the latest application
    // date).
    const requestedTo = params.str("to");
    const latest = published[published.length - 1]?.date ?? today;
    const to = requestedTo ?? latest;
    const from = addMonths(to, -MONTHS[period]);
    const inWindow = (date: string): boolean => date > from && date <= to;
    return {
      fields: fieldsOf("jsf"),
      security_code: security.code,
      name: security.name,
      industry_name: security.industry,
      issued_shares_count: record.issued_shares_count,
      exchange: record.exchange,
      period,
      days: published.filter((d) => inWindow(d.date)),
      reverse: record.reverse.filter((r) => inWindow(r.date)),
      other_exchange_reverse: record.other_exchange_reverse.filter(
        (r) => inWindow(r.date) && r.exchange_code !== record.exchange,
      ),
      attribution: attribution(),
    };
  },
});
