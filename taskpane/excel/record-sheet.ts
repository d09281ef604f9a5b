// The add-in's own record sheets (KaishaImports, KaishaProvenance): found or created, read whole.

import { rangeAddress } from "../state/a1";
import { writeCells } from "./safe-values";

/** Name and first row of a record sheet, and how it is shown when it is created. */
export interface RecordSheetSpec {
  name: string;
  header: readonly string[];
  /** Hidden: bookkeeping, not something to edit by hand. */
  hidden?: boolean;
  boldHeader?: boolean;
}

/**
 * The record sheet `spec.name`; when it is missing, created with its header row if `create` is
 * set, otherwise undefined (reading never adds a sheet to the user's workbook).
 *
 * @example const sheet = await recordSheet(context, { name: "KaishaImports", header }, true);
 */
export async function recordSheet(
  context: Excel.RequestContext,
  spec: RecordSheetSpec,
  create: boolean,
): Promise<Excel.Worksheet | undefined> {
  const found = context.workbook.worksheets.getItemOrNullObject(spec.name);
  await context.sync();
  if (!found.isNullObject) return found;
  if (!create) return undefined;
  const sheet = context.workbook.worksheets.add(spec.name);
  const header = sheet.getRange(rangeAddress(0, 0, 1, spec.header.length));
  writeCells(header, [[...spec.header]]);
  if (spec.boldHeader === true) header.format.font.bold = true;
  if (spec.hidden === true) sheet.visibility = "Hidden";
  return sheet;
}

/** Every row of the sheet's used range, header row included; [] for an empty sheet. */
export async function recordRows(
  sheet: Excel.Worksheet,
  context: Excel.RequestContext,
): Promise<unknown[][]> {
  const used = sheet.getUsedRangeOrNullObject(true);
  used.load("values");
  await context.sync();
  return used.isNullObject ? [] : used.values;
}
