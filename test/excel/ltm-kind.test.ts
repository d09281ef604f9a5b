// LTM kinds come from the contract: every FinancialsPeriod property is classified (the period's
// own facts such as fiscal_year as none), so a new field never silently gets no LTM (test/contract/generated-files.test.ts: an unclassified one fails generation).
import fs from "node:fs";
import path from "node:path";
import { FIELD_DICTIONARY } from "../../src/contract";
import { ltmKind } from "../../src/excel/ltm-kind";

type Schema = { properties?: Record<string, Record<string, unknown>> };
const openapi = JSON.parse(
  fs.readFileSync(path.join(__dirname, "../../src/contract/openapi.json"), "utf8"),
) as { components: { schemas: Record<string, Schema> } };
const financialsPeriod = openapi.components.schemas["FinancialsPeriod"]?.properties ?? {};

function properties(keep: (entry: [string, Record<string, unknown>]) => boolean): string[] {
  return Object.entries(financialsPeriod)
    .filter(keep)
    .map(([key]) => key);
}

test("every FinancialsPeriod property carries x-ltm-kind flow, stock or none", () => {
  const properties = Object.entries(financialsPeriod);
  expect(properties.filter(([, p]) => p["x-unit"] !== undefined).length).toBeGreaterThan(100);
  const unclassified = properties
    .filter(([, p]) => !["flow", "stock", "none"].includes(String(p["x-ltm-kind"])))
    .map(([key]) => key);
  expect(unclassified).toEqual([]);
});

test("the period's own facts (not items) are classified none: no LTM", () => {
  const facts = properties(([, p]) => p["x-unit"] === undefined);
  expect(facts).toEqual(
    expect.arrayContaining([
      "fiscal_year",
      "quarter",
      "accounting_standard",
      "is_consolidated",
      "scope_exceptions",
      "standard_exceptions",
    ]),
  );
  for (const key of facts) {
    expect([key, financialsPeriod[key]?.["x-ltm-kind"]]).toEqual([key, "none"]);
    expect(ltmKind(key)).toBeUndefined();
  }
});

test("the field dictionary carries each financials item's kind, and ltmKind reads it", () => {
  for (const field of FIELD_DICTIONARY.financials) {
    expect(field.ltm).toBe(financialsPeriod[field.key]?.["x-ltm-kind"]);
    expect(ltmKind(field.key)).toBe(field.ltm === "none" ? undefined : field.ltm);
  }
});

test("flows sum, stocks are read at the latest balance, ratios have no LTM", () => {
  expect(ltmKind("sales")).toBe("flow");
  expect(ltmKind("operating_cf")).toBe("flow");
  expect(ltmKind("eps_adjusted")).toBe("flow");
  expect(ltmKind("total_assets")).toBe("stock");
  expect(ltmKind("bps_adjusted")).toBe("stock");
  expect(ltmKind("roe")).toBeUndefined();
  expect(ltmKind("not_a_field")).toBeUndefined();
});
