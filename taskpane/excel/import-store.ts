// Import definitions kept in the hidden sheet "KaishaImports" (one row per table; never the API key).

import { rangeAddress } from "../state/a1";
import {
  parseDefinition,
  serializeDefinition,
  type ImportDefinition,
} from "../state/import-definition";
import { runExcel } from "./run";

export const IMPORTS_SHEET = "KaishaImports";
const HEADER = ["table", "definition", "updated_at"];

async function importsSheet(
  context: Excel.RequestContext,
  create: boolean,
): Promise<Excel.Worksheet | undefined> {
  const found = context.workbook.worksheets.getItemOrNullObject(IMPORTS_SHEET);
  await context.sync();
  if (!found.isNullObject) return found;
  if (!create) return undefined;
  const sheet = context.workbook.worksheets.add(IMPORTS_SHEET);
  sheet.getRange("A1:C1").values = [HEADER];
  // Hidden: it is bookkeeping, not something to edit by hand.
  sheet.visibility = "Hidden";
  return sheet;
}

async function storedRows(
  sheet: Excel.Worksheet,
  context: Excel.RequestContext,
): Promise<unknown[][]> {
  const used = sheet.getUsedRangeOrNullObject(true);
  used.load("values");
  await context.sync();
  return used.isNullObject ? [] : used.values;
}

/** Stores (or replaces) the definition of `def.tableName`. */
export async function saveImportDefinition(
  def: ImportDefinition,
  now: Date = new Date(),
): Promise<void> {
  const json = serializeDefinition(def);
  await runExcel(async (context) => {
    const sheet = await importsSheet(context, true);
    if (!sheet) return;
    const rows = await storedRows(sheet, context);
    let index = rows.findIndex((r, i) => i > 0 && r[0] === def.tableName);
    if (index < 0) index = Math.max(1, rows.length);
    sheet.getRange(rangeAddress(index, 0, 1, 3)).values = [
      [def.tableName, json, now.toISOString()],
    ];
    await context.sync();
  });
}

/** Every readable stored definition, in sheet order. */
export async function readImportDefinitions(): Promise<ImportDefinition[]> {
  return runExcel(async (context) => {
    const sheet = await importsSheet(context, false);
    if (!sheet) return [];
    const rows = await storedRows(sheet, context);
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
