// All 21 endpoints are present with their operationIds and documented status codes.
import { deref, loadDoc, operationsOf, type Schema } from "./openapi-document";

// The 21 openapi.json operations with their operationIds and the error statuses each one lists.
const EXPECTED: [string, string, string[]][] = [
  ["/screening", "getScreening", ["400"]],
  ["/screening/fields", "getScreeningFields", []],
  ["/usage", "getUsage", []],
  ["/securities", "listSecurities", ["400"]],
  ["/securities/{code}/prices", "getPrices", ["400", "404"]],
  ["/rankings/{metric}", "getRankings", ["400", "404", "503"]],
  ["/valuations", "getValuations", ["400", "404"]],
  ["/financials", "getFinancials", ["400", "404"]],
  ["/segments", "getSegments", ["400", "404"]],
  ["/dividends", "getDividends", ["400", "404"]],
  ["/organizations/{edinet_code}", "getOrganization", ["400", "404"]],
  ["/peers", "getPeers", ["400", "404"]],
  ["/securities/{code}/disclosures", "listSecurityDisclosures", ["400", "404"]],
  ["/disclosures/{doc_id}", "getDisclosure", ["400", "404"]],
  ["/disclosures/{doc_id}/sections/{section}", "getDisclosureSection", ["400", "404"]],
  ["/securities/{code}/officers", "getOfficers", ["400", "404"]],
  ["/persons/{id}", "getPerson", ["400", "404"]],
  ["/persons/{id}/appointments", "getPersonAppointments", ["400", "404"]],
  ["/persons/{id}/compensation-history", "getPersonCompensationHistory", ["400", "404"]],
  ["/securities/{code}/weekly-margin-balance", "getWeeklyMarginBalance", ["400", "404"]],
  // openapi.json getJsfMarginDaily does not show its error statuses; 400/404 are assumed, plus a
  // default error.
  ["/securities/{code}/jsf-margin-daily", "getJsfMarginDaily", ["400", "404"]],
];

const SCHEMA_NAMES =
  `Attribution, DisclosureAttribution, EmptyReason, FieldUnit, ErrorResponse, ErrorBody,
  ErrorDetail, ScreeningSecurity, ScreeningSecurityMetric, ScreeningField, ScreeningResponse,
  ScreeningFieldsResponse, UsageResponse, SecurityListItem, SecuritiesResponse, SecurityDailyPrice,
  PricesResponse, RankingItem, RankingsResponse, ValuationHistoryPoint, ValuationsResponse,
  FinancialsPeriod, FinancialsResponse, SegmentRow, SegmentsResponse, DividendSourceRef,
  DividendRecord, DividendsResponse, Organization, PeerCompany, PeerParentCompany,
  CapitalRelationship, PeersResponse, SecurityDisclosure, SecurityDisclosuresResponse,
  DisclosureDocumentMeta, DisclosureDocumentSection, DisclosureXbrlFact, DisclosureDocumentResponse,
  DisclosureSectionResponse, SecurityOfficer, OfficersResponse, PersonCurrentAppointment,
  PersonResponse, PositionHistoryEntry, PersonAppointment, PersonAppointmentsResponse,
  CompensationHistoryEntry, PersonCompanyCompensation, PersonCompensationResponse,
  WeeklyMarginBalanceWeek, WeeklyMarginSplitEventExternal, WeeklyMarginResponse,
  JsfMarginDailyPoint, JsfReverseFeeExternal, JsfOtherExchangeReverseFeeExternal,
  JsfMarginDailyResponse`
    .split(",")
    .map((s) => s.trim());

describe("operations of openapi.json", () => {
  const doc = loadDoc();
  const ops = operationsOf(doc);

  it("has exactly the 21 GET endpoints with the architecture's operationIds", () => {
    expect(Object.keys(doc.paths)).toHaveLength(21);
    expect(
      Object.entries(doc.paths).map(([route, item]) => [
        route,
        Object.keys(item),
        item.get?.operationId,
      ]),
    ).toEqual(EXPECTED.map(([route, id]) => [route, ["get"], id]));
  });

  it("defines exactly the component schemas named in ARCHITECTURE.md", () => {
    expect(Object.keys(doc.components.schemas).sort()).toEqual([...SCHEMA_NAMES].sort());
  });

  it.each(EXPECTED)(
    "%s (%s) answers 200, 401, 429 and the errors the service documents for it",
    (route, _id, errors) => {
      const op = doc.paths[route]?.get;
      if (op === undefined) throw new Error(`${route} missing`);
      const statuses = Object.keys(op.responses).filter((s) => s !== "default");
      expect(statuses.sort()).toEqual(["200", "401", "429", ...errors].sort());
    },
  );

  it("every error response carries the common error object", () => {
    for (const { op } of ops) {
      for (const [status, raw] of Object.entries(op.responses)) {
        if (status === "200") continue;
        const schema = deref(doc, raw).content?.["application/json"]?.schema;
        expect({ op: op.operationId, status, schema }).toEqual({
          op: op.operationId,
          status,
          schema: { $ref: "#/components/schemas/ErrorResponse" },
        });
      }
    }
  });

  it("429 documents the Retry-After header in seconds", () => {
    for (const { op } of ops) {
      const rateLimited = deref(doc, op.responses["429"] ?? {});
      const header = deref(doc, rateLimited.headers?.["Retry-After"] ?? {}) as { schema?: unknown };
      expect(header.schema).toEqual({ type: "integer", minimum: 0 });
    }
  });

  // openapi.json info.description: every 200 response carries an attribution.
  it("every 200 answer is a named component schema with a required attribution", () => {
    for (const { op } of ops) {
      const ref = op.responses["200"]?.content?.["application/json"]?.schema.$ref ?? "";
      const schema: Schema = deref<Schema>(doc, { $ref: ref });
      expect(schema.properties?.attribution).toBeDefined();
      // The /usage body is "not shown" in openapi.json getUsage: its attribution stays optional
      // there.
      const required = op.operationId !== "getUsage";
      expect({ op: op.operationId, required: schema.required?.includes("attribution") }).toEqual({
        op: op.operationId,
        required,
      });
    }
  });

  it("financials states exactly-one-of edinet_code / security_code as x-exactly-one-of", () => {
    const op = doc.paths["/financials"]?.get;
    expect(op?.["x-exactly-one-of"]).toEqual(["edinet_code", "security_code"]);
    expect(op?.description).toContain("Exactly one of edinet_code / security_code");
    expect(op?.parameters.filter((p) => p.required)).toEqual([]);
  });

  it("error details reasons are the eight words of openapi.json ErrorResponse", () => {
    expect(doc.components.schemas.ErrorDetail?.properties?.reason?.enum).toEqual([
      "missing",
      "conflict",
      "invalid_type",
      "invalid_format",
      "out_of_range",
      "unknown_value",
      "too_many_items",
      "invalid",
    ]);
  });

  it("no response schema forbids unknown properties (the beta API adds fields)", () => {
    const forbidding = Object.entries(doc.components.schemas)
      .filter(([, s]) => s.additionalProperties === false)
      .map(([n]) => n);
    expect(forbidding).toEqual([]);
  });
});
