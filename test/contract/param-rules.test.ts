// Spot checks of the generated parameter rules against openapi.json parameters.
import { OPERATIONS } from "../../src/contract/generated/param-rules";
import type { OperationId, ParamRule } from "../../src/contract/rules";
import { loadDoc, operationsOf } from "./openapi-document";

function param(op: OperationId, name: string): ParamRule {
  const rule = OPERATIONS[op].params.find((p) => p.name === name);
  if (rule === undefined) throw new Error(`${op} has no parameter ${name}`);
  return rule;
}

function matches(rule: ParamRule, value: string): boolean {
  if (rule.pattern === undefined) throw new Error(`${rule.name} has no pattern`);
  return new RegExp(rule.pattern).test(value);
}

describe("OPERATIONS (generated/param-rules.ts)", () => {
  it("has one GET rule per operation of openapi.json, with its path template", () => {
    const fromDoc = operationsOf(loadDoc()).map(({ route, op }) => [op.operationId, route]);
    expect(Object.entries(OPERATIONS).map(([id, r]) => [id, r.path])).toEqual(fromDoc);
    expect(Object.values(OPERATIONS).every((r) => r.method === "GET")).toBe(true);
    expect(OPERATIONS.getPrices.path).toBe("/securities/{code}/prices");
  });

  it("financials: years 1..30 default 10, period enum, as_of YYYY/MM, exactly one of the two codes", () => {
    expect(param("getFinancials", "years")).toEqual({
      name: "years",
      in: "query",
      required: false,
      type: "integer",
      minimum: 1,
      maximum: 30,
      default: 10,
    });
    expect(param("getFinancials", "period")).toMatchObject({
      enum: ["annual", "quarterly", "semiannual"],
      default: "annual",
    });
    const asOf = param("getFinancials", "as_of");
    expect(["2024/03", "1999/12"].map((v) => matches(asOf, v))).toEqual([true, true]);
    expect(["2024/13", "2024-03", "2024/3", "2024/00"].map((v) => matches(asOf, v))).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(OPERATIONS.getFinancials.exactlyOneOf).toEqual(["edinet_code", "security_code"]);
    expect(param("getFinancials", "edinet_code").required).toBe(false);
    expect(param("getFinancials", "security_code").required).toBe(false);
  });

  it("only financials carries an exactly-one-of rule", () => {
    const withRule = Object.entries(OPERATIONS)
      .filter(([, r]) => r.exactlyOneOf !== undefined)
      .map(([id]) => id);
    expect(withRule).toEqual(["getFinancials"]);
  });

  it.each([
    ["getScreening", "limit", 1, 100, 30],
    ["listSecurities", "limit", 1, 500, 100],
    ["getPrices", "limit", 1, 500, 100],
    ["getRankings", "limit", 1, 200, 100],
    ["getValuations", "years", 1, 50, 20],
    ["getFinancials", "years", 1, 30, 10],
    ["getPeers", "limit", 1, 20, 8],
    ["listSecurityDisclosures", "limit", 1, 100, 50],
  ] as const)("%s %s is an integer %i..%i, default %i", (op, name, min, max, def) => {
    expect(param(op, name)).toMatchObject({
      type: "integer",
      minimum: min,
      maximum: max,
      default: def,
    });
  });

  it("integer year ranges without defaults: segments fiscal_year 1990..2100, dividends 1900..2200", () => {
    expect(param("getSegments", "fiscal_year")).toMatchObject({ minimum: 1990, maximum: 2100 });
    expect(param("getSegments", "fiscal_year").default).toBeUndefined();
    for (const name of ["from_fiscal_year", "to_fiscal_year"]) {
      expect(param("getDividends", name)).toMatchObject({
        type: "integer",
        minimum: 1900,
        maximum: 2200,
      });
    }
  });

  // Identifier formats: openapi.json info.description.
  it("identifier patterns accept valid codes and reject malformed ones", () => {
    const code = param("getPrices", "code");
    expect(code).toMatchObject({ in: "path", required: true });
    expect(["7203", "130A", "12345"].every((v) => matches(code, v))).toBe(true);
    expect(["720", "7203a", "123456", " 7203"].some((v) => matches(code, v))).toBe(false);

    const edinet = param("getOrganization", "edinet_code");
    expect(["E02144", "G12345"].every((v) => matches(edinet, v))).toBe(true);
    expect(["X02144", "E0214", "e02144"].some((v) => matches(edinet, v))).toBe(false);

    const person = param("getPerson", "id");
    expect(matches(person, "123")).toBe(true);
    expect(["12a", "", "-1"].some((v) => matches(person, v))).toBe(false);

    const doc = param("getDisclosure", "doc_id");
    expect(["S100ABCD", "20240514123456"].every((v) => matches(doc, v))).toBe(true);
    expect(["S100ABC", "s100ABCD", "2024051412345", "X100ABCD"].some((v) => matches(doc, v))).toBe(
      false,
    );
  });

  it("dates are YYYY-MM-DD on prices, disclosures and jsf `to`; screening as_of also takes now", () => {
    for (const [op, name] of [
      ["getPrices", "from"],
      ["getPrices", "to"],
      ["listSecurityDisclosures", "from"],
      ["listSecurityDisclosures", "to"],
      ["getJsfMarginDaily", "to"],
    ] as const) {
      const rule = param(op, name);
      expect([matches(rule, "2024-05-14"), matches(rule, "2024/05/14")]).toEqual([true, false]);
    }
    const asOf = param("getScreening", "as_of");
    expect(asOf).toMatchObject({ default: "now", minDate: "2005-01-01", notFuture: true });
    expect(param("getPrices", "from").minDate).toBe("2005-01-01");
    expect(param("getPrices", "to").minDate).toBe("2005-01-01");
    expect(param("getPrices", "from").notFuture).toBeUndefined();
    expect(["now", "2024-05-14"].every((v) => matches(asOf, v))).toBe(true);
    expect(["today", "now2024-05-14", "2024-5-14"].some((v) => matches(asOf, v))).toBe(false);
  });

  it("disclosure include takes a comma list of the four groups only", () => {
    const include = param("getDisclosure", "include");
    expect(
      ["meta", "meta,sections", "xbrl_facts,available_sections,meta"].every((v) =>
        matches(include, v),
      ),
    ).toBe(true);
    expect(
      ["", "meta,", "meta,,sections", "pdf", "meta sections"].some((v) => matches(include, v)),
    ).toBe(false);
  });

  it("enumerations: sections, rankings metric, margin periods, jsf exchange, screening sort order", () => {
    expect(param("getDisclosureSection", "section").enum).toEqual([
      "business_overview",
      "risk_factors",
      "mda",
      "dividend_policy",
      "major_shareholders",
      "corporate_governance",
      "corporate_history",
      "subsidiaries",
      "employees",
      "compensation",
      "audit",
      "body",
    ]);
    expect(param("getRankings", "metric")).toMatchObject({
      in: "path",
      enum: ["gainers", "losers", "volume", "stop-high", "stop-low"],
    });
    expect(param("getWeeklyMarginBalance", "period")).toMatchObject({
      enum: ["26w", "52w"],
      default: "52w",
    });
    expect(param("getJsfMarginDaily", "period")).toMatchObject({
      enum: ["1m", "3m", "6m", "1y"],
      default: "1y",
    });
    expect(param("getJsfMarginDaily", "exchange").enum).toEqual(["XTKS", "XNGO", "XFKA", "XSAP"]);
    expect(param("getJsfMarginDaily", "exchange").default).toBeUndefined();
    expect(param("getScreening", "sort_order")).toMatchObject({
      enum: ["asc", "desc"],
      default: "desc",
    });
    expect(param("listSecurities", "market").enum).toEqual(["Prime", "Standard", "Growth"]);
    expect(param("getSegments", "period")).toMatchObject({
      enum: ["annual", "quarter"],
      default: "annual",
    });
  });

  it("string lengths: securities q <= 100, industry 1..120, disclosures document_type 1..100", () => {
    expect(param("listSecurities", "q")).toMatchObject({ maxLength: 100 });
    expect(param("listSecurities", "industry")).toMatchObject({ minLength: 1, maxLength: 120 });
    expect(param("listSecurityDisclosures", "document_type")).toMatchObject({
      minLength: 1,
      maxLength: 100,
    });
    for (const name of ["name", "filters", "sort_by", "sector", "industry"]) {
      expect(param("getScreening", name).minLength).toBe(1);
    }
  });

  it("operations without parameters have an empty list", () => {
    expect(OPERATIONS.getUsage.params).toEqual([]);
    expect(OPERATIONS.getScreeningFields.params).toEqual([]);
  });
});
