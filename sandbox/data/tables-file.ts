// The dataset's tables in a file: generated once (the test suite's globalSetup), then read by every
// process that would otherwise generate the same tables again (about 3 s of CPU each).
import fs from "node:fs";
import v8 from "node:v8";
import type { DatasetTables } from "./model";

/**
 * Names a file written by writeTablesFile in this run; getDataset() reads it instead of generating.
 * Unset (the default, npm start, the bench), the dataset is generated.
 */
export const TABLES_FILE_VARIABLE = "KAISHA_SANDBOX_TABLES";

/**
 * Writes `tables` with v8.serialize (maps, shared arrays and undefined survive as they are, unlike
 * JSON) and names the file for this process and its children.
 */
export function writeTablesFile(file: string, tables: DatasetTables): void {
  fs.writeFileSync(file, v8.serialize(tables));
  process.env[TABLES_FILE_VARIABLE] = file;
}

/** The tables from the file TABLES_FILE_VARIABLE names, or undefined when it names none. */
export function readTablesFile(): DatasetTables | undefined {
  const file = process.env[TABLES_FILE_VARIABLE];
  if (!file) return undefined;
  return v8.deserialize(fs.readFileSync(file)) as DatasetTables;
}
