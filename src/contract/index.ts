// Public entry of the API contract: generated OpenAPI types under short names, plus rule tables.
import type { components, operations } from "./api-types";

export type { paths, components, operations } from "./api-types";
export type { OperationId, OperationRule, ParamRule, Dataset, FieldInfo, LtmKind } from "./rules";
export { OPERATIONS, FIELD_DICTIONARY } from "./rules";

/** Every component schema of openapi.json, e.g. `Schemas["FinancialsPeriod"]`. */
export type Schemas = components["schemas"];

export type Attribution = Schemas["Attribution"];
export type DisclosureAttribution = Schemas["DisclosureAttribution"];
export type EmptyReason = Schemas["EmptyReason"];
export type FieldUnit = Schemas["FieldUnit"];
export type ErrorDetail = Schemas["ErrorDetail"];
export type ErrorBody = Schemas["ErrorBody"];
export type ErrorResponse = Schemas["ErrorResponse"];
export type ScreeningSecurityMetric = Schemas["ScreeningSecurityMetric"];
export type ScreeningSecurity = Schemas["ScreeningSecurity"];
export type ScreeningField = Schemas["ScreeningField"];
export type ScreeningResponse = Schemas["ScreeningResponse"];
export type ScreeningFieldsResponse = Schemas["ScreeningFieldsResponse"];
export type UsageResponse = Schemas["UsageResponse"];
export type SecurityListItem = Schemas["SecurityListItem"];
export type SecuritiesResponse = Schemas["SecuritiesResponse"];
export type SecurityDailyPrice = Schemas["SecurityDailyPrice"];
export type PricesResponse = Schemas["PricesResponse"];
export type RankingItem = Schemas["RankingItem"];
export type RankingsResponse = Schemas["RankingsResponse"];
export type ValuationHistoryPoint = Schemas["ValuationHistoryPoint"];
export type ValuationsResponse = Schemas["ValuationsResponse"];
export type FinancialsPeriod = Schemas["FinancialsPeriod"];
export type FinancialsResponse = Schemas["FinancialsResponse"];
export type SegmentRow = Schemas["SegmentRow"];
export type SegmentsResponse = Schemas["SegmentsResponse"];
export type DividendSourceRef = Schemas["DividendSourceRef"];
export type DividendRecord = Schemas["DividendRecord"];
export type DividendsResponse = Schemas["DividendsResponse"];
export type Organization = Schemas["Organization"];
export type CapitalRelationship = Schemas["CapitalRelationship"];
export type PeerParentCompany = Schemas["PeerParentCompany"];
export type PeerCompany = Schemas["PeerCompany"];
export type PeersResponse = Schemas["PeersResponse"];
export type SecurityDisclosure = Schemas["SecurityDisclosure"];
export type SecurityDisclosuresResponse = Schemas["SecurityDisclosuresResponse"];
export type DisclosureDocumentMeta = Schemas["DisclosureDocumentMeta"];
export type DisclosureDocumentSection = Schemas["DisclosureDocumentSection"];
export type DisclosureXbrlFact = Schemas["DisclosureXbrlFact"];
export type DisclosureDocumentResponse = Schemas["DisclosureDocumentResponse"];
export type DisclosureSectionResponse = Schemas["DisclosureSectionResponse"];
export type SecurityOfficer = Schemas["SecurityOfficer"];
export type OfficersResponse = Schemas["OfficersResponse"];
export type PersonCurrentAppointment = Schemas["PersonCurrentAppointment"];
export type PersonResponse = Schemas["PersonResponse"];
export type PositionHistoryEntry = Schemas["PositionHistoryEntry"];
export type PersonAppointment = Schemas["PersonAppointment"];
export type PersonAppointmentsResponse = Schemas["PersonAppointmentsResponse"];
export type CompensationHistoryEntry = Schemas["CompensationHistoryEntry"];
export type PersonCompanyCompensation = Schemas["PersonCompanyCompensation"];
export type PersonCompensationResponse = Schemas["PersonCompensationResponse"];
export type WeeklyMarginBalanceWeek = Schemas["WeeklyMarginBalanceWeek"];
export type WeeklyMarginSplitEventExternal = Schemas["WeeklyMarginSplitEventExternal"];
export type WeeklyMarginResponse = Schemas["WeeklyMarginResponse"];
export type JsfMarginDailyPoint = Schemas["JsfMarginDailyPoint"];
export type JsfReverseFeeExternal = Schemas["JsfReverseFeeExternal"];
export type JsfOtherExchangeReverseFeeExternal = Schemas["JsfOtherExchangeReverseFeeExternal"];
export type JsfMarginDailyResponse = Schemas["JsfMarginDailyResponse"];

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

/** Path parameters of an operation, e.g. `{ code: string }` for getPrices. */
export type PathParams<Op extends keyof operations> = NonNullable<
  operations[Op]["parameters"]["path"]
>;
