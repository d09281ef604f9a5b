// Lists the functions accept that neither functions.json enums nor openapi.json parameters hold;
// test/taskpane/function-catalogue.test.ts calls the function with each value (and with one outside).

import type { OkResponse } from "../../src/contract";

/**
 * JSFMARGIN `table` and the jsf import's table: the arrays of the getJsfMarginDaily answer
 * (openapi.json getJsfMarginDaily: days, reverse, other_exchange_reverse), checked against its type.
 */
export const JSF_TABLES = [
  "days",
  "reverse",
  "other_exchange_reverse",
] as const satisfies readonly (keyof OkResponse<"getJsfMarginDaily">)[];

/**
 * DOCUMENT `part`: the getDisclosure `include` parts one at a time (openapi.json getDisclosure),
 * `xbrl` being the function's name for `xbrl_facts`.
 */
export const DOCUMENT_PARTS: readonly string[] = ["meta", "sections", "xbrl", "available_sections"];
