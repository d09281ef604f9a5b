// functions.json as the build generates it (custom-functions-metadata over functions/index.ts), for
// the builder's tests.
import * as path from "node:path";
import { generateCustomFunctionsMetadata } from "custom-functions-metadata";
import type { EnumMetadata, FunctionMetadata } from "../../taskpane/state/function-catalogue";

export interface FunctionsJson {
  functions: FunctionMetadata[];
  enums: EnumMetadata[];
}

/** The generated metadata; fails on any metadata error (as the build does). */
export async function generatedFunctionsJson(): Promise<FunctionsJson> {
  const result = await generateCustomFunctionsMetadata(
    [path.join(__dirname, "../../functions/index.ts")],
    false,
  );
  if (result.errors.length > 0) throw new Error(result.errors.join("\n"));
  return JSON.parse(result.metadataJson) as FunctionsJson;
}
