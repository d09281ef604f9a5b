// Validates sandbox answers against src/contract/openapi.json with Ajv (JSON Schema 2020-12).
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { ValidateFunction } from "ajv";
import openapi from "../../src/contract/openapi.json";

const BASE = "https://kaisha.invalid/openapi.json";

interface ResponseObject {
  $ref?: string;
  content?: { "application/json"?: { schema?: { $ref?: string } } };
}

type Operation = { operationId: string; responses: Record<string, ResponseObject> };

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
// Only the components are registered: response schemas are `$ref`s into them.
ajv.addSchema({ $id: BASE, components: openapi.components });

const operations = new Map<string, Operation>();
for (const item of Object.values(openapi.paths as unknown as Record<string, { get: Operation }>)) {
  operations.set(item.get.operationId, item.get);
}

const compiled = new Map<string, ValidateFunction>();

/** The JSON pointer (into components) of an operation's response body schema for a status. */
function responseSchemaRef(operationId: string, status: number): string {
  const operation = operations.get(operationId);
  if (operation === undefined) throw new Error(`Unknown operation ${operationId}`);
  let response = operation.responses[String(status)] ?? operation.responses["default"];
  if (response === undefined) throw new Error(`${operationId} documents no ${status} response`);
  if (response.$ref !== undefined) {
    const name = response.$ref.split("/").pop() ?? "";
    response = (openapi.components.responses as Record<string, ResponseObject>)[name];
  }
  const ref = response?.content?.["application/json"]?.schema?.$ref;
  if (ref === undefined) throw new Error(`${operationId} ${status}: no JSON schema $ref`);
  return ref;
}

/**
 * Returns the list of schema violations of `body` as the `status` answer of `operationId`
 * (empty when valid). Fails when the contract does not document that status.
 */
export function contractErrors(operationId: string, status: number, body: unknown): string[] {
  const ref = responseSchemaRef(operationId, status);
  let validate = compiled.get(ref);
  if (validate === undefined) {
    validate = ajv.compile({ $ref: `${BASE}${ref}` });
    compiled.set(ref, validate);
  }
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`);
}

/** Every operationId of the contract. */
export const OPERATION_IDS: readonly string[] = [...operations.keys()];
