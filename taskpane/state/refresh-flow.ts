// Refresh all: drop cached answers, recalculate KAISHA formulas, re-run stored imports; report what
// it did (formulas recalculated, cells still in error, requests spent).

import { DEFAULT_DEADLINE_MS } from "../../src/client";
import type { KaishaCell } from "../excel/formulas";
import type { Translator } from "../i18n/messages";
import type { ImportDefinition } from "./import-definition";
import { genericErrorKey, problemsOf } from "./problems";

export interface RefreshDeps {
  invalidateAll(): unknown;
  /** the workbook's KAISHA formula cells with their values and errors (formulas.ts). */
  scanKaishaCells(): Promise<readonly KaishaCell[]>;
  recalculateAll(): Promise<void>;
  readImportDefinitions(): Promise<ImportDefinition[]>;
  existingTableNames(): Promise<Set<string>>;
  /** re-runs one import in place. */
  refreshImport(def: ImportDefinition): Promise<void>;
  /** requests the client has sent so far (its stats). */
  requestsSent(): number;
  /** whether the client has no request waiting or in flight. */
  clientIdle(): boolean;
  /** waits `ms` milliseconds. */
  sleep(ms: number): Promise<void>;
}

export interface RefreshProgress {
  step: "invalidate" | "recalculate" | "import" | "settle";
  done: number;
  total: number;
  table?: string;
}

export interface RefreshSummary {
  formulas: number;
  /** KAISHA cells showing an error once the recalculation settled (the Problems list's cells). */
  errors: number;
  /** KAISHA cells still calculating when the wait ended (SETTLE_BOUND_MS, or cancelled). */
  pending: number;
  /** requests sent to the API during the refresh (the client's count). */
  requests: number;
  imports: number;
  refreshed: number;
  failures: { table: string; error: unknown }[];
}

/** How often the settled check reads the workbook. */
const SETTLE_POLL_MS = 1_000;

/**
 * Longest wait for the recalculation to settle: every call settles within the client's deadline
 * (src/client/deadline.ts DEFAULT_DEADLINE_MS), so a cell still calculating after it is reported
 * as such rather than waited for.
 */
const SETTLE_BOUND_MS = DEFAULT_DEADLINE_MS;

/** A cell whose function has not answered yet (#BUSY!, #GETTING_DATA): not an error. */
function isPending(error: string): boolean {
  return genericErrorKey(error) === "err_Busy";
}

/**
 * Waits until the client has nothing waiting or in flight and no KAISHA cell is calculating (at
 * most SETTLE_BOUND_MS), then counts the cells in error and those still calculating.
 */
async function settledCells(
  deps: RefreshDeps,
  signal: AbortSignal | undefined,
): Promise<{ errors: number; pending: number }> {
  for (let waited = 0; ; waited += SETTLE_POLL_MS) {
    const problems = problemsOf(await deps.scanKaishaCells());
    const pending = problems.filter((p) => isPending(p.error)).length;
    const settled = pending === 0 && deps.clientIdle();
    if (settled || waited >= SETTLE_BOUND_MS || signal?.aborted)
      return { errors: problems.length - pending, pending };
    await deps.sleep(SETTLE_POLL_MS);
  }
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
  const sentBefore = deps.requestsSent();
  let done = 0;
  let formulas = 0;
  if (options.formulas) {
    options.onProgress?.({ step: "invalidate", done, total });
    await deps.invalidateAll();
    done++;
    formulas = (await deps.scanKaishaCells()).length;
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
  // What the cells show once their answers are in: an error still there is reported, never a
  // success over it.
  options.onProgress?.({ step: options.formulas ? "settle" : "import", done: total, total });
  const cells = options.formulas
    ? await settledCells(deps, options.signal)
    : { errors: 0, pending: 0 };
  return {
    formulas,
    ...cells,
    requests: deps.requestsSent() - sentBefore,
    imports: live.length,
    refreshed,
    failures,
  };
}

/** The end of a refresh as the pane says it: the message, and whether to offer Problems. */
interface RefreshMessage {
  intent: "success" | "warning";
  text: string;
  data: Record<string, string>;
  /** cells are still in error: the pane links to the Problems list. */
  showProblems: boolean;
}

/**
 * What a refresh did, in the pane's words: formulas recalculated and imports refreshed, requests
 * spent, then what is still wrong (cells in error, cells still calculating, imports that failed);
 * a success only when nothing is.
 *
 * @param describe an import failure's text (the pane's errorText).
 */
export function refreshMessage(
  s: RefreshSummary,
  t: Translator,
  describe: (error: unknown) => string,
): RefreshMessage {
  const failures = s.failures.map((f) => `${f.table}: ${describe(f.error)}`).join(" / ");
  const parts = [
    t("refreshSummary", { formulas: s.formulas, imports: s.imports, ok: s.refreshed }),
    t("refreshRequests", { n: s.requests }),
    ...(s.errors > 0 ? [t("refreshErrors", { n: s.errors })] : []),
    ...(s.pending > 0 ? [t("refreshPending", { n: s.pending })] : []),
    ...(failures ? [t("refreshFailures", { list: failures })] : []),
  ];
  const clean = s.failures.length === 0 && s.errors === 0 && s.pending === 0;
  return {
    intent: clean ? "success" : "warning",
    // Japanese sentences follow one another without a space (after 。).
    text: parts.join(t.lang === "ja" ? "" : " "),
    data: {
      formulas: String(s.formulas),
      imports: String(s.imports),
      refreshed: String(s.refreshed),
      errors: String(s.errors),
      pending: String(s.pending),
      requests: String(s.requests),
    },
    showProblems: s.errors > 0,
  };
}
