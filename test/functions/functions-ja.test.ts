// functions.json from the JSDoc (custom-functions-metadata) lists the whole catalogue, and
// functions-ja.json has a Japanese description for every function and parameter.
import * as path from "node:path";
import { generateCustomFunctionsMetadata } from "custom-functions-metadata";
import { ATTRIBUTION_DATASETS } from "../../functions/attribution";
import { DATASETS } from "../../functions/fields";

const { buildFunctionsJa, rewriteHelpOrigin } = require("../../scripts/functions-ja.js") as {
  buildFunctionsJa: (json: unknown, table: unknown) => Metadata;
  rewriteHelpOrigin: (json: Metadata, origin: string) => Metadata;
};
const table = require("../../scripts/functions-ja-table.json") as Record<
  string,
  { description: string; parameters: Record<string, string> }
> & { $parameterNames: Record<string, string> };

interface Param {
  name: string;
  type?: string;
  customEnumId?: string;
  description?: string;
  optional?: boolean;
  dimensionality?: string;
}
interface Fn {
  id: string;
  name: string;
  description?: string;
  helpUrl?: string;
  parameters: Param[];
  options?: { cancelable?: boolean; volatile?: boolean; requiresAddress?: boolean };
  result?: { dimensionality?: string };
}
interface Metadata {
  functions: Fn[];
  enums?: {
    id: string;
    type: string;
    values: { name: string; stringValue?: string; numberValue?: number }[];
  }[];
}

/** The catalogue (functions/index.ts): names and argument order, fixed. */
const CATALOGUE: Record<string, string[]> = {
  FINANCIALS: [
    "company",
    "items",
    "period",
    "years",
    "as_of",
    "unit",
    "layout",
    "headers",
    "order",
  ],
  FINANCIAL: ["company", "item", "fiscal_period", "period", "quarter", "unit"],
  VALUATION: ["company", "fields", "years", "headers", "order", "as_of"],
  PRICES: ["company", "from", "to", "fields", "order", "headers"],
  PRICE: ["company", "field", "date"],
  RANKINGS: ["metric", "limit", "headers"],
  SCREEN: [
    "filters",
    "sort_by",
    "sort_order",
    "sector",
    "industry",
    "as_of",
    "limit",
    "name",
    "headers",
  ],
  SCREENFIELDS: ["headers"],
  FIELDS: ["dataset", "headers"],
  SECURITIES: ["q", "market", "industry", "limit", "headers"],
  COMPANY: ["company"],
  SEGMENTS: ["company", "fiscal_year", "period", "unit", "headers", "order"],
  DIVIDENDS: ["company", "from_fiscal_year", "to_fiscal_year", "headers", "order"],
  PEERS: ["company", "limit", "headers"],
  DISCLOSURES: ["company", "from", "to", "document_type", "limit", "headers", "order"],
  DOCUMENT: ["doc_id", "part", "headers"],
  XBRL: ["doc_id", "element", "context"],
  SECTION: ["doc_id", "section"],
  OFFICERS: ["company", "headers"],
  PERSON: ["person_id", "headers"],
  APPOINTMENTS: ["person_id", "headers"],
  COMPENSATION: ["person_id", "headers"],
  MARGIN: ["company", "period", "headers", "order"],
  JSFMARGIN: ["company", "period", "to", "exchange", "table", "headers", "order"],
  USAGE: [],
  ATTRIBUTION: ["dataset"],
};
/** Arguments the issue writes without brackets. */
const REQUIRED = new Set([
  "FINANCIALS.company",
  "FINANCIAL.company",
  "FINANCIAL.item",
  "VALUATION.company",
  "PRICES.company",
  "PRICE.company",
  "RANKINGS.metric",
  "FIELDS.dataset",
  "COMPANY.company",
  "SEGMENTS.company",
  "DIVIDENDS.company",
  "PEERS.company",
  "DISCLOSURES.company",
  "DOCUMENT.doc_id",
  "XBRL.doc_id",
  "XBRL.element",
  "SECTION.doc_id",
  "SECTION.section",
  "OFFICERS.company",
  "PERSON.person_id",
  "APPOINTMENTS.person_id",
  "COMPENSATION.person_id",
  "MARGIN.company",
  "JSFMARGIN.company",
]);

let english: Metadata;

beforeAll(async () => {
  const result = await generateCustomFunctionsMetadata(
    [path.join(__dirname, "../../functions/index.ts")],
    false,
  );
  expect(result.errors).toEqual([]);
  english = JSON.parse(result.metadataJson) as Metadata;
}, 60_000);

describe("functions.json", () => {
  test("lists exactly the catalogue, names equal to ids", () => {
    expect(english.functions.map((f) => f.id).sort()).toEqual(Object.keys(CATALOGUE).sort());
    for (const f of english.functions) expect(f.name).toBe(f.id);
  });
  test("every function has its arguments in the issue's order, optional ones marked", () => {
    for (const f of english.functions) {
      expect(f.parameters.map((p) => p.name)).toEqual(CATALOGUE[f.id]);
      for (const p of f.parameters)
        expect(Boolean(p.optional)).toBe(!REQUIRED.has(`${f.id}.${p.name}`));
    }
  });
  test("every function is cancelable, none is volatile, all have help and descriptions", () => {
    for (const f of english.functions) {
      expect(f.options?.cancelable).toBe(true);
      // The Problems list reads each cell's last error by the address Excel passes.
      expect(f.options?.requiresAddress).toBe(true);
      expect(f.options?.volatile).toBeUndefined();
      expect(f.helpUrl).toMatch(/^https:\/\//);
      expect(f.description?.length).toBeGreaterThan(10);
      for (const p of f.parameters) expect(p.description?.length).toBeGreaterThan(3);
    }
  });
  test("period, unit, layout, headers, order, metric and dataset arguments carry custom enums", () => {
    const enumOf = (fn: string, param: string) =>
      english.functions.find((f) => f.id === fn)?.parameters.find((p) => p.name === param)
        ?.customEnumId;
    expect(enumOf("FINANCIALS", "period")).toBe("StatementPeriod");
    expect(enumOf("FINANCIAL", "period")).toBe("ValuePeriod");
    expect(enumOf("FINANCIAL", "quarter")).toBe("Quarter");
    expect(enumOf("FINANCIALS", "unit")).toBe("MoneyUnit");
    expect(enumOf("SEGMENTS", "unit")).toBe("MoneyUnit");
    expect(enumOf("FINANCIALS", "layout")).toBe("Layout");
    expect(enumOf("RANKINGS", "metric")).toBe("RankingMetric");
    expect(enumOf("FIELDS", "dataset")).toBe("FieldDataset");
    for (const f of english.functions) {
      for (const p of f.parameters) {
        if (p.name === "headers") expect(p.customEnumId).toBe("HeadersMode");
        if (p.name === "order") expect(p.customEnumId).toBe("Order");
      }
    }
    const order = english.enums?.find((e) => e.id === "Order");
    expect(order?.values.map((v) => v.stringValue)).toEqual(["asc", "desc"]);
    const values = (id: string) =>
      english.enums?.find((e) => e.id === id)?.values.map((v) => v.stringValue);
    expect(enumOf("SEGMENTS", "period")).toBe("SegmentPeriod");
    expect(enumOf("ATTRIBUTION", "dataset")).toBe("SourceDataset");
    // The suggestions are exactly what the functions accept.
    expect(values("FieldDataset")?.sort()).toEqual([...DATASETS].sort());
    expect(values("SourceDataset")?.sort()).toEqual([...ATTRIBUTION_DATASETS].sort());
    const metric = english.enums?.find((e) => e.id === "RankingMetric");
    expect(metric?.values.map((v) => v.stringValue)).toContain("stop-high");
  });
  test("range arguments are matrices; tables return matrices", () => {
    const fin = english.functions.find((f) => f.id === "FINANCIALS") as Fn;
    expect(fin.parameters.find((p) => p.name === "items")?.dimensionality).toBe("matrix");
    expect(fin.result?.dimensionality).toBe("matrix");
    const one = english.functions.find((f) => f.id === "FINANCIAL") as Fn;
    expect(one.result?.dimensionality).toBeUndefined();
  });
});

describe("functions-ja.json", () => {
  test("keeps English names and has Japanese text for every function and parameter", () => {
    const ja = buildFunctionsJa(english, table);
    expect(ja.functions.map((f) => f.id)).toEqual(english.functions.map((f) => f.id));
    const japanese = /[\u3040-\u30ff\u4e00-\u9fff]/;
    ja.functions.forEach((f, i) => {
      const en = english.functions[i] as Fn;
      expect(f.name).toBe(en.name);
      expect(f.description).toMatch(japanese);
      expect(f.parameters.map((p) => p.name)).toEqual(
        en.parameters.map((p) => table.$parameterNames[p.name] ?? p.name),
      );
      for (const p of f.parameters) expect(p.description).toMatch(japanese);
    });
  });
  test("parameter names are Japanese where Excel's naming rule allows, one name per English name", () => {
    const ja = buildFunctionsJa(english, table);
    const fin = ja.functions.find((f) => f.id === "FINANCIAL") as Fn;
    expect(fin.parameters.map((p) => p.name)).toEqual([
      "会社",
      "項目",
      "決算期",
      "期間",
      "四半期",
      "単位",
    ]);
    // Microsoft, custom functions naming: a letter first, then letters, digits, _ and . only.
    for (const f of ja.functions) {
      for (const p of f.parameters) expect(p.name).toMatch(/^\p{L}[\p{L}\p{N}_.]*$/u);
      expect(new Set(f.parameters.map((p) => p.name)).size).toBe(f.parameters.length);
    }
  });
  test("a parameter name Excel would refuse fails the build", () => {
    const bad = { ...table, $parameterNames: { ...table.$parameterNames, company: "1会社" } };
    expect(() => buildFunctionsJa(english, bad)).toThrow(/FINANCIAL\.company \(name "1会社"\)/);
  });
  test("a missing translation fails with the function and parameter named", () => {
    const partial = JSON.parse(JSON.stringify(table)) as typeof table;
    delete partial.PRICE;
    delete (partial.FINANCIALS as { parameters: Record<string, string> }).parameters.layout;
    expect(() => buildFunctionsJa(english, partial)).toThrow(
      /PRICE \(description\).*FINANCIALS\.layout|FINANCIALS\.layout.*PRICE/,
    );
  });
  test("help URLs can be moved to the deployment origin", () => {
    const moved = rewriteHelpOrigin(english, "https://kaisha.example.com");
    expect(
      moved.functions.every((f) =>
        f.helpUrl?.startsWith("https://kaisha.example.com/assets/help.html"),
      ),
    ).toBe(true);
  });
});
