// The import form's fields come from the contract (OPERATIONS, generated from openapi.json): their
// lists, bounds, patterns and defaults are the API's, what the form accepts the client sends without
// a refusal, and what the API would refuse the form stops before any request.
import { OPERATIONS, type OperationId } from "../../src/contract";
import { loadIndustryNames, validateParams } from "../../src/client";
import { contractQuery, isEdinetCode } from "../../taskpane/state/contract-params";
import {
  DATASET_PARAMS,
  IMPORT_DATASETS,
  checkParams,
  defaultParams,
  type DatasetId,
  type ParamSpec,
  type ParamValues,
} from "../../taskpane/state/datasets";

// validateParams reads sector / industry names from a lazy chunk (the client loads it itself).
beforeAll(() => loadIndustryNames());

/** The operation each import form asks (datasets.ts fetchRaw). */
const OPERATION: Record<Exclude<DatasetId, "screening">, OperationId> = {
  financials: "getFinancials",
  valuations: "getValuations",
  prices: "getPrices",
  dividends: "getDividends",
  segments: "getSegments",
  disclosures: "listSecurityDisclosures",
  officers: "getOfficers",
  peers: "getPeers",
  margin: "getWeeklyMarginBalance",
  jsf: "getJsfMarginDaily",
  securities: "listSecurities",
  rankings: "getRankings",
};

const datasets = IMPORT_DATASETS.filter(
  (d): d is Exclude<DatasetId, "screening"> => d !== "screening",
);

/** The form's defaults with a company filled in. */
function filled(dataset: DatasetId): ParamValues {
  const v = defaultParams(dataset, new Date("2026-06-15T00:00:00Z"));
  for (const k of ["code", "security_code"]) if (k in v) v[k] = "7203";
  return v;
}

/** The request the form's values make (EDINET-keyed operations get the resolved code). */
function request(dataset: Exclude<DatasetId, "screening">, values: ParamValues) {
  const op = OPERATION[dataset];
  const names = OPERATIONS[op].params.map((p) => p.name);
  const query: Record<string, unknown> = { ...contractQuery(op, values, names) };
  if (dataset === "dividends" || dataset === "segments") {
    delete query.security_code;
    query.edinet_code = "E02144";
  }
  return { op, query };
}

test.each(datasets)(
  "%s: every field of the form is the contract's parameter, rule for rule",
  (dataset) => {
    const op = OPERATION[dataset];
    let compared = 0;
    for (const spec of DATASET_PARAMS[dataset]) {
      const rule = OPERATIONS[op].params.find((p) => p.name === spec.name);
      if (!rule) continue; // unit, table: the pane's own choices
      compared++;
      if (rule.enum) expect(spec.options?.filter((o) => o !== "")).toEqual(rule.enum);
      if (rule.type === "integer")
        expect([spec.min, spec.max]).toEqual([rule.minimum, rule.maximum]);
      // A company field: either code (exactly one of the two is required, getFinancials).
      if (spec.labelKey === "param_company") continue;
      if (rule.pattern) expect(spec.pattern).toBe(rule.pattern);
      expect(spec.required === true).toBe(rule.required);
    }
    expect(compared).toBeGreaterThan(0);
  },
);

test.each(datasets)(
  "%s: each listed value and each bound the form accepts, the client sends",
  (dataset) => {
    const variants: ParamValues[] = [filled(dataset)];
    for (const spec of DATASET_PARAMS[dataset]) {
      for (const o of spec.options ?? []) variants.push({ ...filled(dataset), [spec.name]: o });
      if (spec.kind === "int") {
        for (const n of [spec.min, spec.max]) {
          if (n !== undefined) variants.push({ ...filled(dataset), [spec.name]: String(n) });
        }
      }
    }
    for (const values of variants) {
      expect(checkParams(dataset, values)).toEqual([]);
      const { op, query } = request(dataset, values);
      expect(() => validateParams(op, query)).not.toThrow();
    }
  },
);

test.each(datasets)(
  "%s: a value just outside a bound or a list is stopped before any request",
  (dataset) => {
    for (const spec of DATASET_PARAMS[dataset]) {
      const bad: [string, string][] = [];
      if (spec.kind === "int" && spec.max !== undefined)
        bad.push([String(spec.max + 1), "out_of_range"]);
      if (spec.kind === "int" && spec.min !== undefined)
        bad.push([String(spec.min - 1), "out_of_range"]);
      if (spec.kind === "select") bad.push(["not-a-choice", "invalid_format"]);
      for (const [value, reason] of bad) {
        expect(checkParams(dataset, { ...filled(dataset), [spec.name]: value })).toEqual([
          { param: spec.name, reason },
        ]);
      }
    }
  },
);

test("dates: before the API's first day (2005-01-01) or not on the calendar are stopped; text too long too", () => {
  expect(checkParams("prices", { code: "7203", from: "2004-12-31" })).toEqual([
    { param: "from", reason: "out_of_range" },
  ]);
  expect(checkParams("prices", { code: "7203", from: "2005-01-01" })).toEqual([]);
  expect(checkParams("jsf", { code: "7203", to: "2024-02-30" })).toEqual([
    { param: "to", reason: "invalid_format" },
  ]);
  expect(checkParams("securities", { q: "あ".repeat(101) })).toEqual([
    { param: "q", reason: "out_of_range" },
  ]);
  expect(checkParams("financials", { security_code: "7203", as_of: "2024/13" })).toEqual([
    { param: "as_of", reason: "invalid_format" },
  ]);
});

test("a company field takes a security code or an EDINET code, the contract's two patterns", () => {
  const company = DATASET_PARAMS.financials.find((p: ParamSpec) => p.name === "security_code");
  const pattern = new RegExp(company?.pattern ?? "");
  for (const ok of ["7203", "130A", "72030", "E02144", "G12345"])
    expect(pattern.test(ok)).toBe(true);
  for (const bad of ["720", "E021444", "X02144", "7203.T"]) expect(pattern.test(bad)).toBe(false);
  expect(isEdinetCode("E02144")).toBe(true);
  expect(isEdinetCode("7203")).toBe(false);
});

test("defaults are the API's own, except the pane's: every peer, and the first ranking", () => {
  expect(defaultParams("financials")).toMatchObject({ period: "annual", years: "10" });
  expect(defaultParams("margin")).toMatchObject({ period: "52w" });
  expect(defaultParams("jsf")).toMatchObject({ period: "1y", exchange: "", table: "days" });
  expect(defaultParams("peers")).toMatchObject({ limit: "20" });
  expect(defaultParams("rankings")).toMatchObject({ metric: "gainers", limit: "100" });
});
