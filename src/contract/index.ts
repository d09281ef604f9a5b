// Public entry of the API contract: generated OpenAPI types under short names, plus rule tables.
import type { components, operations } from "./generated/api-types";

export type { OperationId, Dataset, FieldInfo } from "./rules";
export { OPERATIONS } from "./generated/param-rules";
export { FIELD_DICTIONARY } from "./generated/fields";

/**
 * Every component schema of openapi.json, e.g. `Schemas["FinancialsPeriod"]`.
 * @internal Tests and scripts name schemas by it; the add-in uses the aliases below.
 */
export type Schemas = components["schemas"];

export type Attribution = Schemas["Attribution"];
export type DisclosureAttribution = Schemas["DisclosureAttribution"];
/** @internal The sandbox and tests use it. */
export type ErrorDetail = Schemas["ErrorDetail"];
/** @internal The sandbox, the dev server and tests use it. */
export type ErrorResponse = Schemas["ErrorResponse"];
export type ScreeningSecurity = Schemas["ScreeningSecurity"];
export type ScreeningField = Schemas["ScreeningField"];
export type ScreeningResponse = Schemas["ScreeningResponse"];
export type UsageResponse = Schemas["UsageResponse"];
export type SecurityListItem = Schemas["SecurityListItem"];
export type SecuritiesResponse = Schemas["SecuritiesResponse"];
export type SecurityDailyPrice = Schemas["SecurityDailyPrice"];
export type PricesResponse = Schemas["PricesResponse"];
export type ValuationsResponse = Schemas["ValuationsResponse"];
export type FinancialsPeriod = Schemas["FinancialsPeriod"];
export type FinancialsResponse = Schemas["FinancialsResponse"];
export type SegmentRow = Schemas["SegmentRow"];
export type DividendSourceRef = Schemas["DividendSourceRef"];
export type DividendRecord = Schemas["DividendRecord"];
export type PeerCompany = Schemas["PeerCompany"];
export type SecurityDisclosure = Schemas["SecurityDisclosure"];
export type SecurityDisclosuresResponse = Schemas["SecurityDisclosuresResponse"];
export type DisclosureDocumentSection = Schemas["DisclosureDocumentSection"];
export type DisclosureXbrlFact = Schemas["DisclosureXbrlFact"];

/**
 * Body of the 200 answer of an operation.
 *
 * @example
 * type Body = OkResponse<"getFinancials">; // FinancialsResponse
 */
export type OkResponse<Op extends keyof operations> =
  operations[Op]["responses"][200]["content"]["application/json"];

/**
 * Query parameters of an operation (path parameters excluded).
 *
 * @example
 * const q: QueryParams<"getFinancials"> = { security_code: "7203", years: 10 };
 */
export type QueryParams<Op extends keyof operations> = NonNullable<
  operations[Op]["parameters"]["query"]
>;
