// GET /disclosures/{doc_id} (openapi.json getDisclosure): a document's meta, sections, XBRL facts,
// section ids.
import { SECTION_IDS } from "../../src/contract/disclosure-sections";
import type { Dataset, DisclosureRecord } from "../data/model";
import { ApiError } from "../lib/api-error";
import { attribution } from "../lib/attribution";
import { isVisible } from "../lib/disclosure-visibility";
import { findDisclosure } from "../lib/lookup";
import { defineRoute, type SuccessBody } from "../lib/route";

type DocumentBody = SuccessBody<"getDisclosure">;
/** A normalized section id (openapi.json getDisclosureSection `section`). */
export type SectionId = NonNullable<DocumentBody["available_sections"]>[number];

const GROUPS = ["meta", "sections", "xbrl_facts", "available_sections"] as const;

/**
 * openapi.json getDisclosureSection: the contract's section ids; typed here so they are checked
 * against the body's type.
 */
const KNOWN_SECTIONS: readonly SectionId[] = SECTION_IDS;

/**
 * A document visible at the data clock, or 404 (openapi.json getDisclosure: timely and under 24
 * hours -> 404).
 */
export function visibleDisclosure(dataset: Dataset, docId: string, now: string): DisclosureRecord {
  const record = findDisclosure(dataset, docId);
  if (!isVisible(record, now)) {
    throw ApiError.notFound(
      `Document ${docId} is not available yet: timely disclosures are served 24 hours after disclosure.`,
    );
  }
  return record;
}

/** Normalized section ids present in the document, in document order, without duplicates. */
export function availableSections(record: DisclosureRecord): SectionId[] {
  const ids = record.sections.map((s) => s.section_id).filter((id): id is string => id !== null);
  return [...new Set(ids)].filter((id): id is SectionId =>
    (KNOWN_SECTIONS as readonly string[]).includes(id),
  );
}

export const disclosureRoute = defineRoute({
  operationId: "getDisclosure",
  handle({ state, params }) {
    const record = visibleDisclosure(state.dataset(), params.reqStr("doc_id"), state.now());
    // openapi.json getDisclosure: comma-separated groups (the contract pattern admits only known
    // ones); all by default.
    const include = new Set<string>(params.str("include")?.split(",") ?? GROUPS);
    const body: DocumentBody = { attribution: attribution() };
    if (include.has("meta")) body.meta = record.meta;
    if (include.has("sections")) body.sections = record.sections;
    if (include.has("xbrl_facts")) body.xbrl_facts = record.xbrl_facts;
    if (include.has("available_sections")) body.available_sections = availableSections(record);
    return body;
  },
});
