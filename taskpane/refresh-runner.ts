// Wires Refresh all / Refresh imports to the shared client and the Excel module.

import { EXCEL_IMPORT } from "./excel-import";
import { findKaishaFormulas, recalculateAll } from "./excel/formulas";
import { existingTableNames, readImportDefinitions } from "./excel/import-store";
import type { Lang } from "./i18n/language";
import { rerunImport } from "./state/import-flow";
import type { PaneClient } from "./state/pane-client";
import { refreshAll, type RefreshProgress, type RefreshSummary } from "./state/refresh-flow";
import { estimateRefreshCost } from "./state/refresh-cost";
import type { RefreshEstimate } from "./state/usage-model";

/** Reads the workbook (no request): distinct requests of its KAISHA formulas, and stored imports. */
export async function estimateWorkbookRefresh(): Promise<RefreshEstimate> {
  const [cells, imports] = await Promise.all([
    findKaishaFormulas("workbook"),
    readImportDefinitions(),
  ]);
  return { formulaRequests: estimateRefreshCost(cells), imports: imports.length };
}

export function runRefresh(
  client: PaneClient,
  lang: Lang,
  options: { formulas: boolean; signal?: AbortSignal; onProgress?: (p: RefreshProgress) => void },
): Promise<RefreshSummary> {
  return refreshAll(
    {
      invalidateAll: () => client.invalidateAll(),
      countKaishaFormulas: async () => (await findKaishaFormulas("workbook")).length,
      recalculateAll,
      readImportDefinitions,
      existingTableNames,
      refreshImport: async (def) => {
        await rerunImport(def, {
          client,
          excel: EXCEL_IMPORT,
          lang,
          ...(options.signal ? { signal: options.signal } : {}),
        });
      },
    },
    options,
  );
}
