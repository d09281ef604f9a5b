// Wires Update, Refresh all and Refresh imports to the shared client and the Excel module.

import { EXCEL_IMPORT } from "./excel-import";
import { findKaishaFormulas } from "./excel/formulas";
import { recordedRecalculateAll } from "./changes/pane-recorder";
import { existingTableNames, readImportDefinitions } from "./excel/import-store";
import { endOpen } from "./open/open-state";
import type { Lang } from "./i18n/language";
import { rerunImport } from "./state/import-flow";
import type { PaneClient } from "./state/pane-client";
import { refreshAll, type RefreshProgress, type RefreshSummary } from "./state/refresh-flow";
import { estimateRefreshCost } from "./state/refresh-cost";
import type { RefreshEstimate } from "./state/usage-model";
import type { OpenResult } from "./open/morning-open";

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
  endOpen();
  return refreshAll(
    {
      invalidateAll: () => client.invalidateAll(),
      // With their errors and messages (valuesAsJson where the host has it), as Problems reads them.
      scanKaishaCells: () => findKaishaFormulas("workbook", true),
      // Recorded: the cells Refresh all changes are listed in the pane's Changes view.
      recalculateAll: () => recordedRecalculateAll("refresh"),
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
      requestsSent: () => client.stats().requestsSent,
      clientIdle: () => {
        const q = client.queueStatus();
        return q.waiting === 0 && q.inFlight === 0;
      },
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    },
    options,
  );
}

/**
 * Update: the open's rule run again now (taskpane/open/start.ts, chunk "open"): every KAISHA cell
 * answered from what is stored and marked where its data can have changed, the background queue
 * held so its cost (`OpenResult.due`) is shown before anything is sent; `update()` sends it.
 */
export async function prepareUpdate(): Promise<OpenResult> {
  const { startOpen } = await import(/* webpackChunkName: "open" */ "./open/start");
  return startOpen({ mode: "offer", always: true });
}
