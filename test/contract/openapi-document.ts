// Test helper: the parsed openapi.json and small lookups shared by the contract tests.
import * as fs from "node:fs";
import * as path from "node:path";

export const OPENAPI_FILE = path.resolve(__dirname, "../../src/contract/openapi.json");

/** Loose view of the parts of openapi.json the tests read. */
export interface Doc {
  openapi: string;
  servers: { url: string }[];
  security: Record<string, string[]>[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, Schema>;
    responses: Record<string, Response>;
    securitySchemes: Record<string, { type: string; scheme?: string }>;
    headers: Record<string, { schema: Schema }>;
  };
}
export interface Operation {
  operationId: string;
  description?: string;
  parameters: { name: string; in: string; required?: boolean; schema: Schema }[];
  responses: Record<string, Response>;
  "x-exactly-one-of"?: string[];
}
interface Response {
  $ref?: string;
  description?: string;
  headers?: Record<string, { $ref?: string }>;
  content?: Record<string, { schema: Schema }>;
}
export interface Schema {
  $ref?: string;
  type?: string | string[];
  required?: string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
  oneOf?: Schema[];
  additionalProperties?: unknown;
  pattern?: string;
  description?: string;
  "x-unit"?: string;
  "x-label-ja"?: string;
}

/** A fresh parse each call, so a test may mutate its copy. */
export function loadDoc(): Doc {
  return JSON.parse(fs.readFileSync(OPENAPI_FILE, "utf8")) as Doc;
}

/** Every operation with its path, in document order. */
export function operationsOf(doc: Doc): { route: string; op: Operation }[] {
  return Object.entries(doc.paths).flatMap(([route, item]) =>
    Object.values(item).map((op) => ({ route, op })),
  );
}

/** Follows a local `#/...` reference. */
export function deref<T extends { $ref?: string }>(doc: Doc, node: T): T {
  if (node.$ref === undefined) return node;
  let cur: unknown = doc;
  for (const part of node.$ref.replace(/^#\//, "").split("/")) {
    cur = (cur as Record<string, unknown>)[part];
  }
  if (cur === undefined) throw new Error(`unresolved ${node.$ref}`);
  return deref(doc, cur as T);
}
