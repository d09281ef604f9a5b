// The /screening filter grammar: units, conversion, the migration guard (openapi.json
// getScreening).
import { ApiError } from "../../sandbox/lib/api-error";
import {
  acceptedUnits,
  matches,
  parseFilters,
  type CatalogField,
} from "../../sandbox/lib/screening-filters";

const catalog = new Map<string, CatalogField>(
  [
    { key: "marketCap", unit: "jpy", type: "numeric" },
    { key: "equityRatio", unit: "ratio", type: "numeric" },
    { key: "roe", unit: "percent", type: "numeric" },
    { key: "per", unit: "times", type: "numeric" },
    { key: "industry", unit: null, type: "enum" },
  ].map((f) => [f.key, f as CatalogField]),
);

function rejection(text: string): ApiError {
  try {
    parseFilters(text, catalog);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error(`'${text}' was accepted`);
}

describe("screening filters", () => {
  test("money thresholds convert from million_jpy and hundred_million_jpy to yen", () => {
    expect(parseFilters("marketCap:gte:1000:hundred_million_jpy", catalog)).toEqual([
      { field: "marketCap", op: "gte", threshold: 100_000_000_000 },
    ]);
    expect(parseFilters("marketCap:lt:250:million_jpy", catalog)[0]?.threshold).toBe(250_000_000);
  });

  test("without a unit the field's own unit applies (yen, ratio scale)", () => {
    expect(parseFilters("marketCap:gte:5000000000", catalog)[0]?.threshold).toBe(5_000_000_000);
    expect(parseFilters("equityRatio:gte:0.4", catalog)[0]?.threshold).toBe(0.4);
  });

  test("percent converts to a ratio field and ratio to a percent field", () => {
    expect(parseFilters("equityRatio:gte:40:percent", catalog)[0]?.threshold).toBe(0.4);
    expect(parseFilters("roe:gte:0.15:ratio", catalog)[0]?.threshold).toBe(15);
  });

  test("several conditions are ANDed, in order", () => {
    const parsed = parseFilters("per:lt:15, roe:gte:8", catalog);
    expect(parsed.map((c) => c.field)).toEqual(["per", "roe"]);
  });

  test("migration guard: money threshold in (0, 1,000,000) yen without unit -> 400", () => {
    const error = rejection("marketCap:gte:1000");
    expect(error.status).toBe(400);
    expect(error.details?.[0]).toMatchObject({ param: "filters", reason: "out_of_range" });
    expect(error.message).toContain("hundred_million_jpy");
  });

  test("migration guard also applies when the unit is written as jpy", () => {
    expect(rejection("marketCap:gte:999999:jpy").status).toBe(400);
  });

  test("migration guard exempts 0, 1,000,000 and explicit converting units", () => {
    expect(parseFilters("marketCap:gt:0", catalog)[0]?.threshold).toBe(0);
    expect(parseFilters("marketCap:gte:1000000", catalog)[0]?.threshold).toBe(1_000_000);
    expect(parseFilters("marketCap:gte:5:million_jpy", catalog)[0]?.threshold).toBe(5_000_000);
  });

  test("a unit of another kind -> 400 listing the accepted units", () => {
    const error = rejection("marketCap:gte:10:percent");
    expect(error.details?.[0]).toMatchObject({
      param: "filters",
      reason: "invalid",
      expected: "unit for marketCap: jpy, million_jpy, hundred_million_jpy",
    });
    expect(error.message).toContain("jpy, million_jpy, hundred_million_jpy");
  });

  test("a unit without counterpart (times) accepts only itself", () => {
    expect(acceptedUnits("times")).toEqual(["times"]);
    expect(parseFilters("per:lt:15:times", catalog)[0]?.threshold).toBe(15);
    expect(rejection("per:lt:15:percent").details?.[0]?.expected).toBe("unit for per: times");
  });

  test.each([
    ["marketCap:gte", "invalid_format"],
    ["marketCap:gte:1:jpy:x", "invalid_format"],
    ["marketCap::1", "invalid_format"],
    ["unknownMetric:gte:1", "unknown_value"],
    ["industry:eq:1", "unknown_value"],
    ["per:between:1", "unknown_value"],
    ["per:lt:abc", "invalid_type"],
    ["per:lt:1e999", "invalid_type"],
  ])("'%s' -> 400 %s on filters", (text, reason) => {
    expect(rejection(text).details?.[0]).toMatchObject({ param: "filters", reason });
  });

  test("operators compare as named", () => {
    const at = (op: string) => parseFilters(`per:${op}:10`, catalog)[0]!;
    expect([9, 10, 11].map((v) => matches(v, at("gte")))).toEqual([false, true, true]);
    expect([9, 10, 11].map((v) => matches(v, at("gt")))).toEqual([false, false, true]);
    expect([9, 10, 11].map((v) => matches(v, at("lte")))).toEqual([true, true, false]);
    expect([9, 10, 11].map((v) => matches(v, at("lt")))).toEqual([true, false, false]);
    expect([9, 10, 11].map((v) => matches(v, at("eq")))).toEqual([false, true, false]);
  });
});
