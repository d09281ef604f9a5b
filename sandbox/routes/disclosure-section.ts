// GET /disclosures/{doc_id}/sections/{section} (openapi.json getDisclosureSection): one normalized
// section's text.
import { attribution } from "../lib/attribution";
import { defineRoute } from "../lib/route";
import { availableSections, visibleDisclosure } from "./disclosure";

export const disclosureSectionRoute = defineRoute({
  operationId: "getDisclosureSection",
  handle({ state, params }) {
    const record = visibleDisclosure(state.dataset(), params.reqStr("doc_id"), state.now());
    const section = params.reqStr("section");
    const blocks = record.sections.filter((s) => s.section_id === section);
    const first = blocks[0];
    return {
      // openapi.json getDisclosureSection: an absent section gives 200 with null text, "" name and
      // the candidates.
      section_text: first === undefined ? null : blocks.map((b) => b.html_or_text).join("\n"),
      section_name: first?.section_title_raw ?? "",
      document_type: record.meta.document_type,
      filing_date: record.meta.filing_date,
      source_url: record.meta.source_url,
      pdf_url: record.meta.pdf_url,
      available_sections: availableSections(record),
      attribution: attribution(),
    };
  },
});
