// GET /securities (openapi.json listSecurities): listed securities ascending by code, filtered,
// paged by cursor.
import { attribution } from "../lib/attribution";
import { paginate } from "../lib/cursor";
import { defineRoute } from "../lib/route";
import { normalizeText } from "../lib/text-match";

export const securitiesRoute = defineRoute({
  operationId: "listSecurities",
  handle({ state, params, page }) {
    const { offset, hash } = page();
    const q = params.str("q");
    const needle = q === undefined ? "" : normalizeText(q);
    const market = params.str("market");
    const industry = params.str("industry");
    const matches = state
      .dataset()
      .securities.filter(
        (s) =>
          (needle === "" ||
            normalizeText(s.name).includes(needle) ||
            s.code.toLowerCase().includes(needle)) &&
          (market === undefined || s.market === market) &&
          (industry === undefined || s.industry === industry),
      )
      .sort((a, b) => a.code.localeCompare(b.code));
    const { page: items, next_cursor } = paginate(matches, offset, params.reqNum("limit"), hash);
    return {
      securities: items.map((s) => ({
        code: s.code,
        name: s.name,
        market: s.market,
        industry: s.industry,
      })),
      next_cursor,
      attribution: attribution(),
    };
  },
});
