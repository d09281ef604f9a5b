// openapi.json is a valid OpenAPI 3.1 document whose schemas are valid JSON Schema 2020-12.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import { deref, loadDoc, OPENAPI_FILE, operationsOf } from "./openapi-document";

/**
 * swagger-parser's validate() (OpenAPI 3.1 schema, bundled, offline) run in a child Node process:
 * its ref parser is an ES module that Jest's CommonJS runtime cannot load.
 */
function swaggerValidate(file: string): string {
  const run = spawnSync(process.execPath, [path.join(__dirname, "validate-openapi.cjs"), file], {
    encoding: "utf8",
  });
  return run.stdout || run.stderr;
}

describe("openapi.json as an OpenAPI 3.1 document", () => {
  jest.setTimeout(60_000);

  it("passes swagger-parser's offline OpenAPI 3.1 validation", () => {
    expect(loadDoc().openapi).toBe("3.1.0");
    expect(swaggerValidate(OPENAPI_FILE)).toBe("valid");
  });

  it("the validator really checks the document: a parameter without `in` is rejected", () => {
    const broken = loadDoc() as unknown as {
      paths: Record<string, { get: { parameters: Record<string, unknown>[] } }>;
    };
    const first = broken.paths["/financials"]?.get.parameters[0];
    if (first === undefined) throw new Error("no /financials parameter");
    delete first.in;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kaisha-openapi-"));
    try {
      const file = path.join(dir, "openapi.json");
      fs.writeFileSync(file, JSON.stringify(broken));
      expect(swaggerValidate(file)).toMatch(/^invalid: .*validation failed/is);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("every component schema is valid JSON Schema 2020-12", () => {
    const ajv = new Ajv2020({ strict: false });
    const invalid = Object.entries(loadDoc().components.schemas)
      .filter(([, schema]) => !ajv.validateSchema(schema))
      .map(([name]) => name);
    expect(invalid).toEqual([]);
  });

  it("every $ref resolves", () => {
    const doc = loadDoc();
    const refs: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node !== null && typeof node === "object") {
        for (const [k, v] of Object.entries(node)) {
          if (k === "$ref" && typeof v === "string") refs.push(v);
          else walk(v);
        }
      }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(100);
    for (const ref of refs) expect(() => deref(doc, { $ref: ref })).not.toThrow();
  });

  it("operationIds are unique and every {template} of a path is a declared required path parameter", () => {
    const doc = loadDoc();
    const ids = operationsOf(doc).map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { route, op } of operationsOf(doc)) {
      const templated = [...route.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      const declared = op.parameters
        .filter((p) => p.in === "path")
        .map((p) => {
          expect(p.required).toBe(true);
          return p.name;
        })
        .sort();
      expect({ route, declared }).toEqual({ route, declared: templated });
    }
  });

  it("targets the production server with bearer authentication on every operation", () => {
    const doc = loadDoc();
    expect(doc.servers.map((s) => s.url)).toEqual(["https://api.irbank.net/v1"]);
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({
      type: "http",
      scheme: "bearer",
    });
  });
});
