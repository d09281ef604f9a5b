// GET /securities/{code}/disclosures (openapi.json listSecurityDisclosures): a security's
// disclosures, newest first, paged.
import { ApiError } from "../lib/api-error";
import { attribution } from "../lib/attribution";
import { paginate } from "../lib/cursor";
import { jstDate } from "../lib/data-clock";
import { isVisible } from "../lib/disclosure-visibility";
import { reasonFor } from "../lib/empty-reason";
import { corporationOfSecurity, indexes } from "../lib/lookup";
import { defineRoute } from "../lib/route";

export const securityDisclosuresRoute = defineRoute({
  operationId: "listSecurityDisclosures",
  handle({ state, params, page }) {
    const from = params.str("from");
    const to = params.str("to");
    if (from !== undefined && to !== undefined && from > to) {
      throw ApiError.param("from", "out_of_range", `a date on or before to (${to})`);
    }
    const dataset = state.dataset();
    // openapi.json listSecurityDisclosures: 404 for an unknown or non-primary security, or one
    // without a statutory filer.
    const { security, corporation } = corporationOfSecurity(dataset, params.reqStr("code"));
    const { offset, hash } = page();
    const documentType = params.str("document_type");
    const now = state.now();
    const matches = (indexes(dataset).disclosuresByCode.get(security.code) ?? [])
      .filter((record) => {
        if (!isVisible(record, now)) return false;
        // from/to bound the disclosure date in JST, inclusive.
        const day = jstDate(record.meta.disclosed_at);
        if ((from !== undefined && day < from) || (to !== undefined && day > to)) return false;
        // Prefix match; timely items have no document type, so this keeps statutory ones only.
        return (
          documentType === undefined ||
          (record.item.document_type ?? null)?.startsWith(documentType) === true
        );
      })
      .sort((a, b) => Date.parse(b.meta.disclosed_at) - Date.parse(a.meta.disclosed_at));
    const { page: items, next_cursor } = paginate(matches, offset, params.reqNum("limit"), hash);
    return {
      security_code: security.code,
      edinet_code: corporation.edinet_code,
      disclosures: items.map((record) => record.item),
      next_cursor,
      reason: reasonFor(items.length, "No disclosures match the conditions."),
      attribution: attribution(),
    };
  },
});
