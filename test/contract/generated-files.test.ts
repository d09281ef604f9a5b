// The committed generated files of src/contract/ must equal a fresh generation from openapi.json.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "../..");
const OPENAPI = path.join(ROOT, "src/contract/openapi.json");
const HINT = "Run `npm run generate:types` and commit the result.";

interface GeneratedFile {
  path: string;
  content: string;
}

/** What one document generates: its files, or the generation's error message. */
type Generation = { files: GeneratedFile[] } | { error: string };

/**
 * Runs the generator in memory (`--print`) on every document in one child Node process:
 * openapi-typescript depends on ES modules that Jest's CommonJS runtime cannot load, while Node
 * itself can (one process for all: each start costs about 2 s of CPU).
 */
function generateAll(openapiFiles: readonly string[]): Generation[] {
  const out = execFileSync(
    process.execPath,
    [
      require.resolve("ts-node/dist/bin.js"),
      "scripts/generate-types.ts",
      "--print",
      ...openapiFiles,
    ],
    { cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 1024 * 1024, stdio: ["ignore", "pipe", "pipe"] },
  );
  return JSON.parse(out) as Generation[];
}

function filesOf(generation: Generation | undefined): GeneratedFile[] {
  if (generation === undefined || "error" in generation)
    throw new Error(`the generation failed: ${generation?.error ?? "no result"}`);
  return generation.files;
}

function errorOf(generation: Generation | undefined): string {
  if (generation === undefined || !("error" in generation))
    throw new Error("the generation succeeded where it should fail");
  return generation.error;
}

/** Throws, naming the stale files and the fix, when committed files differ from `files`. */
function assertFresh(files: GeneratedFile[]): void {
  const stale = files
    .filter((file) => {
      const full = path.join(ROOT, file.path);
      return !fs.existsSync(full) || fs.readFileSync(full, "utf8") !== file.content;
    })
    .map((file) => file.path);
  if (stale.length > 0) {
    throw new Error(`Generated contract files are stale: ${stale.join(", ")}. ${HINT}`);
  }
}

interface Doc {
  components: {
    schemas: Record<string, { properties: Record<string, Record<string, string>> }>;
  };
}

/** openapi.json as a fresh object, to edit. */
function contract(): Doc {
  return JSON.parse(fs.readFileSync(OPENAPI, "utf8")) as Doc;
}

/** The edited documents the tests below generate from, each with what it changes. */
const EDITS = {
  /** FinancialsPeriod.sales's Japanese label changed, not regenerated. */
  label(doc: Doc): void {
    const sales = doc.components.schemas.FinancialsPeriod?.properties.sales;
    if (sales === undefined) throw new Error("FinancialsPeriod.sales missing");
    sales["x-label-ja"] = "売上収益";
  },
  /** A numeric financials property without x-ltm-kind. */
  ltmSales(doc: Doc): void {
    const sales = doc.components.schemas.FinancialsPeriod?.properties.sales;
    if (sales === undefined) throw new Error("FinancialsPeriod.sales missing");
    delete sales["x-ltm-kind"];
  },
  /** A property that is not numeric (fiscal_year) without x-ltm-kind. */
  ltmFiscalYear(doc: Doc): void {
    const fiscalYear = doc.components.schemas.FinancialsPeriod?.properties.fiscal_year;
    if (fiscalYear === undefined) throw new Error("FinancialsPeriod.fiscal_year missing");
    delete fiscalYear["x-ltm-kind"];
  },
  /** A yen field (a price per share) without x-money-kind. */
  moneyKind(doc: Doc): void {
    const price = doc.components.schemas.ValuationHistoryPoint?.properties.stock_price;
    if (price === undefined) throw new Error("ValuationHistoryPoint.stock_price missing");
    delete price["x-money-kind"];
  },
};
type Edit = keyof typeof EDITS;

describe("generated contract files", () => {
  jest.setTimeout(120_000);
  let fresh: GeneratedFile[];
  const edited = new Map<Edit, Generation | undefined>();

  beforeAll(() => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kaisha-contract-"));
    try {
      const edits = Object.keys(EDITS) as Edit[];
      const files = edits.map((name) => {
        const doc = contract();
        EDITS[name](doc);
        const file = path.join(dir, `${name}.json`);
        fs.writeFileSync(file, JSON.stringify(doc));
        return file;
      });
      const [committed, ...others] = generateAll([OPENAPI, ...files]);
      fresh = filesOf(committed);
      edits.forEach((name, i) => edited.set(name, others[i]));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("regenerating from openapi.json gives byte-identical api-types, param rules, field dictionary and response fields", () => {
    expect(fresh.map((f) => f.path)).toEqual([
      "src/contract/generated/api-types.ts",
      "src/contract/generated/param-rules.ts",
      "src/contract/generated/fields.ts",
      "src/contract/generated/response-fields.ts",
    ]);
    assertFresh(fresh);
  });

  it("every generated file starts with the do-not-edit header", () => {
    for (const file of fresh) {
      expect(file.content.split("\n")[0]).toBe(
        "// Generated by scripts/generate-types.ts from src/contract/openapi.json: do not edit, run `npm run generate:types`.",
      );
    }
  });

  it("an openapi.json edit that was not regenerated is reported as stale, naming npm run generate:types", () => {
    const files = filesOf(edited.get("label"));
    expect(files.find((f) => f.path.endsWith("generated/fields.ts"))?.content).toContain(
      'label: "売上収益"',
    );
    expect(() => assertFresh(files)).toThrow(
      `Generated contract files are stale: src/contract/generated/fields.ts. ${HINT}`,
    );
  });

  it("a financials property without x-ltm-kind, numeric or not, fails the generation, naming it", () => {
    expect(errorOf(edited.get("ltmSales"))).toMatch(
      /FinancialsPeriod\.sales: x-ltm-kind must be one of/,
    );
    expect(errorOf(edited.get("ltmFiscalYear"))).toMatch(
      /FinancialsPeriod\.fiscal_year: x-ltm-kind must be one of/,
    );
  });

  it("a yen field without x-money-kind fails the generation, naming it (a price is never scaled by default)", () => {
    expect(
      contract().components.schemas.ValuationHistoryPoint?.properties.stock_price?.["x-money-kind"],
    ).toBe("per_share");
    expect(errorOf(edited.get("moneyKind"))).toMatch(
      /ValuationHistoryPoint\.stock_price: x-money-kind must be one of amount, per_share, per_person/,
    );
  });
});
