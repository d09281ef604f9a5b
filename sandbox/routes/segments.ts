// GET /segments (openapi.json getSegments): segment rows, 24-hour rule on timely-derived values,
// about 20 periods.
import { attribution } from "../lib/attribution";
import { isPastTimelyDelay } from "../lib/data-clock";
import { reasonFor } from "../lib/empty-reason";
import { fieldsOf } from "../lib/fields";
import { listedCorporation } from "../lib/lookup";
import { defineRoute } from "../lib/route";

/** openapi.json getSegments: without fiscal_year, about the latest 20 fiscal periods. */
const DEFAULT_SEGMENT_YEARS = 20;

export const segmentsRoute = defineRoute({
  operationId: "getSegments",
  handle({ state, params }) {
    const dataset = state.dataset();
    const corporation = listedCorporation(dataset, params.reqStr("edinet_code"));
    const record = dataset.segments.get(corporation.edinet_code);
    const period = params.reqStr("period") === "quarter" ? "quarter" : "annual";
    const now = state.now();
    // openapi.json getSegments, info.description: values from a timely disclosure appear only 24
    // hours or more after it.
    const visible = (record?.[period] ?? [])
      .filter((r) => isPastTimelyDelay(r.source_disclosed_at, now))
      .map((r) => r.row);
    const fiscalYear = params.num("fiscal_year");
    let rows;
    if (fiscalYear !== undefined) {
      rows = visible.filter((row) => row.fiscal_year.startsWith(`${fiscalYear}/`));
    } else {
      const latest = [...new Set(visible.map((row) => row.fiscal_year))]
        .sort()
        .slice(-DEFAULT_SEGMENT_YEARS);
      const keep = new Set(latest);
      rows = visible.filter((row) => keep.has(row.fiscal_year));
    }
    // openapi.json getSegments: fiscal_year desc, quarter desc, segment_name asc.
    rows.sort(
      (a, b) =>
        b.fiscal_year.localeCompare(a.fiscal_year) ||
        (b.quarter ?? 0) - (a.quarter ?? 0) ||
        (a.segment_name < b.segment_name ? -1 : a.segment_name > b.segment_name ? 1 : 0),
    );
    return {
      fields: fieldsOf("segments"),
      segments: rows,
      reason: reasonFor(rows.length, "No segment data matches the conditions."),
      attribution: attribution(),
    };
  },
});
