// Refresh all: drop cached answers, recalculate KAISHA formulas, re-run stored imports; report a summary.

import type { ImportDefinition } from "./import-definition";

export interface RefreshDeps {
  invalidateAll(): unknown;
  countKaishaFormulas(): Promise<number>;
  recalculateAll(): Promise<void>;
  readImportDefinitions(): Promise<ImportDefinition[]>;
  existingTableNames(): Promise<Set<string>>;
  /** re-runs one import in place. */
  refreshImport(def: ImportDefinition): Promise<void>;
}

export interface RefreshProgress {
  step: "invalidate" | "recalculate" | "import";
  done: number;
  total: number;
  table?: string;
}

export interface RefreshSummary {
  formulas: number;
  imports: number;
  refreshed: number;
  failures: { table: string; error: unknown }[];
}

/**
 * @param options.formulas false for "Refresh imports" only.
 */
export async function refreshAll(
  deps: RefreshDeps,
  options: { formulas: boolean; onProgress?: (p: RefreshProgress) => void; signal?: AbortSignal },
): Promise<RefreshSummary> {
  const defs = (await deps.readImportDefinitions()).filter(Boolean);
  const tables = await deps.existingTableNames();
  // A definition whose table the user deleted is skipped, not resurrected.
  const live = defs.filter((d) => tables.has(d.tableName));
  const total = live.length + (options.formulas ? 2 : 0);
  let done = 0;
  let formulas = 0;
  if (options.formulas) {
    options.onProgress?.({ step: "invalidate", done, total });
    await deps.invalidateAll();
    done++;
    formulas = await deps.countKaishaFormulas();
    options.onProgress?.({ step: "recalculate", done, total });
    await deps.recalculateAll();
    done++;
  } else {
    // Imports alone still need fresh answers rather than the cache's.
    await deps.invalidateAll();
  }
  const failures: RefreshSummary["failures"] = [];
  let refreshed = 0;
  for (const def of live) {
    if (options.signal?.aborted) break;
    options.onProgress?.({ step: "import", done, total, table: def.tableName });
    try {
      await deps.refreshImport(def);
      refreshed++;
    } catch (error) {
      failures.push({ table: def.tableName, error });
    }
    done++;
  }
  options.onProgress?.({ step: "import", done: total, total });
  return { formulas, imports: live.length, refreshed, failures };
}
