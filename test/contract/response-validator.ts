// Test helper: validates a response body against a component schema of openapi.json (Ajv, JSON Schema 2020-12).
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { loadDoc } from "./openapi-document";

let ajv: Ajv2020 | undefined;

function instance(): Ajv2020 {
  if (ajv === undefined) {
    // strict: false because the document carries OpenAPI keywords and x-unit / x-label-ja.
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(loadDoc(), "openapi.json");
  }
  return ajv;
}

/**
 * Checks `body` against `#/components/schemas/<schemaName>`; returns the Ajv error texts (empty when
 * valid). Usable by sandbox and client tests to prove answers follow the contract.
 *
 * @example
 * expect(schemaErrors("FinancialsResponse", await res.json())).toEqual([]);
 */
export function schemaErrors(schemaName: string, body: unknown): string[] {
  const validate = instance().getSchema(`openapi.json#/components/schemas/${schemaName}`);
  if (validate === undefined) throw new Error(`no schema ${schemaName} in openapi.json`);
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? e.keyword}`);
}
