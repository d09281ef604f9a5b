// The index aliases give usable request/response types (checked by `tsc --noEmit`, which `npm test` runs first).
import type {
  DividendRecord,
  ErrorResponse,
  FinancialsPeriod,
  OkResponse,
  OperationId,
  QueryParams,
  Schemas,
  SecurityListItem,
} from "../../src/contract";
import { FIELD_DICTIONARY, OPERATIONS } from "../../src/contract";

describe("contract type aliases", () => {
  it("query, path and response types follow openapi.json", () => {
    const query: QueryParams<"getFinancials"> = {
      security_code: "7203",
      period: "quarterly",
      years: 10,
    };
    // @ts-expect-error period is an enum (openapi.json getFinancials)
    const badQuery: QueryParams<"getFinancials"> = { period: "monthly" };
    const market: SecurityListItem["market"] = null;
    // @ts-expect-error markets are Prime, Standard, Growth or null
    const badMarket: SecurityListItem["market"] = "Mothers";
    const sales: FinancialsPeriod["sales"] = null;
    const change: DividendRecord["change_type"] = "increase";
    const error: ErrorResponse = { error: { code: "not_found", message: "Not found" } };
    const usage: OkResponse<"getUsage"> = { remaining: 3700 };
    const schemaByName: Schemas["Attribution"] = {
      source_label: "s",
      license_note: "l",
      processed_by: "p",
    };
    const ids: OperationId[] = Object.keys(OPERATIONS) as OperationId[];

    expect([query.years, badQuery.period, market, badMarket, sales, change]).toEqual([
      10,
      "monthly",
      null,
      "Mothers",
      null,
      "increase",
    ]);
    expect([error.error.code, usage.remaining, schemaByName.source_label, ids.length]).toEqual([
      "not_found",
      3700,
      "s",
      21,
    ]);
  });

  it("the index re-exports the generated tables", () => {
    expect(FIELD_DICTIONARY.financials[0]).toEqual({
      key: "sales",
      label: "売上高",
      unit: "jpy",
      ltm: "flow",
    });
    expect(OPERATIONS.getValuations.path).toBe("/valuations");
  });
});
