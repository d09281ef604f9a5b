// GET /dividends (openapi.json getDividends): annual dividend actuals, fiscal_year ascending,
// from/to bounded.
import { attribution } from "../lib/attribution";
import { jstDate } from "../lib/data-clock";
import { reasonFor } from "../lib/empty-reason";
import { fieldsOf } from "../lib/fields";
import { isVisible } from "../lib/disclosure-visibility";
import { indexes, listedCorporation } from "../lib/lookup";
import { defineRoute } from "../lib/route";

export const dividendsRoute = defineRoute({
  operationId: "getDividends",
  handle({ state, params }) {
    const dataset = state.dataset();
    const corporation = listedCorporation(dataset, params.reqStr("edinet_code"));
    const from = params.num("from_fiscal_year") ?? -Infinity;
    const to = params.num("to_fiscal_year") ?? Infinity;
    const currentYear = Number(jstDate(state.now()).slice(0, 4));
    const now = state.now();
    const documents = indexes(dataset).disclosuresById;
    // openapi.json info.description: timely-derived values appear 24 hours after disclosure. A
    // record is shown once one of its source documents is visible; sources outside the document
    // store do not hold it back.
    const published = (refs: readonly { doc_id: string }[]): boolean => {
      const known = refs.map((ref) => documents.get(ref.doc_id)).filter((d) => d !== undefined);
      return known.length === 0 || known.some((d) => isVisible(d, now));
    };
    const records = (dataset.dividends.get(corporation.edinet_code) ?? [])
      .filter(
        (r) =>
          r.fiscal_year >= from &&
          r.fiscal_year <= to &&
          r.fiscal_year <= currentYear &&
          published(r.source_refs),
      )
      .sort((a, b) => a.fiscal_year - b.fiscal_year);
    return {
      fields: fieldsOf("dividends"),
      edinet_code: corporation.edinet_code,
      security_code: corporation.primary_code ?? "",
      records,
      reason: reasonFor(records.length, "No dividend records match the conditions."),
      attribution: attribution(),
    };
  },
});
