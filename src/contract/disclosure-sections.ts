// The normalized disclosure section ids (openapi.json getDisclosureSection), read from the
// generated contract, not copied.

import type { operations } from "./generated/api-types";
import { OPERATIONS } from "./generated/param-rules";

/**
 * A normalized section id (openapi.json getDisclosureSection): `section` of GET
 * /disclosures/{doc_id}/sections/{section}.
 */
export type SectionId = operations["getDisclosureSection"]["parameters"]["path"]["section"];

/**
 * Every section id in openapi.json's order. The enum of the generated parameter rules and the
 * `SectionId` type both come from openapi.json, so the cast below cannot drift.
 *
 * @example SECTION_IDS.includes("risk_factors") // true
 */
export const SECTION_IDS: readonly SectionId[] = sectionIds();

function sectionIds(): readonly SectionId[] {
  const rule = OPERATIONS.getDisclosureSection.params.find((p) => p.name === "section");
  if (rule?.enum === undefined) {
    throw new Error("openapi.json: getDisclosureSection's section parameter lost its enum");
  }
  return rule.enum as readonly SectionId[];
}
