// Import definitions kept in the hidden sheet "KaishaImports" (one row per table; never the API key).

import { rangeAddress } from "../state/a1";
import {
  parseDefinition,
  serializeDefinition,
  type ImportDefinition,
} from "../state/import-definition";
import { recordRows, recordSheet, type RecordSheetSpec } from "./record-sheet";
import { runExcel } from "./run";
import { writeCells } from "./safe-values";

const IMPORTS_SHEET = "KaishaImports";
const IMPORTS: RecordSheetSpec = {
  name: IMPORTS_SHEET,
  header: ["table", "definition", "updated_at"],
  hidden: true,
};

/** Stores (or replaces) the definition of `def.tableName`. */
export async function saveImportDefinition(
  def: ImportDefinition,
  now: Date = new Date(),
): Promise<void> {
  const json = serializeDefinition(def);
  await runExcel(async (context) => {
    const sheet = await recordSheet(context, IMPORTS, true);
    if (!sheet) return;
    const rows = await recordRows(sheet, context);
    let index = rows.findIndex((r, i) => i > 0 && r[0] === def.tableName);
    if (index < 0) index = Math.max(1, rows.length);
    // Text, like every string the add-in writes: a table name or definition is never evaluated.
    writeCells(sheet.getRange(rangeAddress(index, 0, 1, IMPORTS.header.length)), [
      [def.tableName, json, now.toISOString()],
    ]);
    await context.sync();
  });
}

/** Every readable stored definition, in sheet order. */
export async function readImportDefinitions(): Promise<ImportDefinition[]> {
  return runExcel(async (context) => {
    const sheet = await recordSheet(context, IMPORTS, false);
    if (!sheet) return [];
    const rows = await recordRows(sheet, context);
    return rows
      .slice(1)
      .map((r) => parseDefinition(r[1]))
      .filter((d): d is ImportDefinition => d !== undefined);
  });
}

/** Names of the workbook's tables, to skip definitions whose table the user deleted. */
export async function existingTableNames(): Promise<Set<string>> {
  return runExcel(async (context) => {
    const tables = context.workbook.tables;
    tables.load("items");
    await context.sync();
    return new Set(tables.items.map((t) => t.name));
  });
}
