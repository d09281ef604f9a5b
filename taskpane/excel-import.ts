// The real Excel side of imports (taskpane/excel functions), for the import flow.

import { existingTableNames, saveImportDefinition } from "./excel/import-store";
import { writeTable } from "./excel/write-table";
import type { ImportExcel } from "./state/import-flow";

export const EXCEL_IMPORT: ImportExcel = { writeTable, saveImportDefinition, existingTableNames };
