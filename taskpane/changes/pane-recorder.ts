// The Changes log's recorder wired to the workbook and the shared session: which workbook, where
// its log is kept, how its cells are read and traced, and the recalculations that are recorded.

import type { SecurityDisclosuresResponse } from "../../src/contract";
import { getCacheStore, getClient } from "../../src/session";
import { readKaishaCellsAt, readKaishaValues } from "../excel/kaisha-values";
import { recalculateAll } from "../excel/formulas";
import { recalculateAddresses } from "../excel/reenter-formulas";
import type { Lang } from "../i18n/language";
import { onAnswerReplaced, watchAnswers } from "./answer-watch";
import type { UpdateTrigger } from "./change-diff";
import type { LogStorage } from "./change-log";
import {
  noteOutsideReplacement,
  recordUpdate,
  takeBaseline,
  type RecorderDeps,
} from "./record-update";
import { traceCell } from "../trace/resolve-trace";
import { heldPriceOnOrBefore, storedAnswer } from "../trace/stored-answer";
import type { Rerun } from "../trace/table-place";

/** The pane's language for the log's item and period words (set by the pane when shown). */
let logLang: Lang = "ja";

/** The log's language: the pane's (its item and period words are written in it). */
export function setChangesLanguage(lang: Lang): void {
  logLang = lang;
}

function storage(): LogStorage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/**
 * The workbook's name for its log: its URL or path where Office gives one (Office.context.document
 * .url), else one log for the unsaved workbook.
 */
export function workbookName(): string {
  try {
    const url = (globalThis as { Office?: { context?: { document?: { url?: unknown } } } }).Office
      ?.context?.document?.url;
    return typeof url === "string" && url !== "" ? url : "workbook";
  } catch {
    return "workbook";
  }
}

/** Remaining requests today under which recording asks nothing (the Why view's bound too). */
const LOW_REMAINING = 100;
/** Companies whose disclosures list one update may ask for (restatements are rare). */
const MAX_ASKED = 5;

/**
 * The disclosures list: from memory, or for a restated company (its 訂正 named) asked once,
 * unless few requests remain today.
 */
function disclosuresFor(
  restated: ReadonlySet<string>,
): (code: string) => Promise<SecurityDisclosuresResponse | undefined> {
  const asked = new Set<string>();
  return async (code) => {
    const client = getClient();
    const params = { code };
    const cached = client.peek("listSecurityDisclosures", params);
    if (cached !== undefined || !restated.has(code)) return cached;
    const remaining = client.stats().lastUsageRemaining;
    if (typeof remaining === "number" && remaining < LOW_REMAINING) return undefined;
    if (!asked.has(code) && asked.size >= MAX_ASKED) return undefined;
    asked.add(code);
    return client.securityDisclosures(params);
  };
}

/**
 * A table without headers given again from memory (trace/rerun.ts), loaded only when such a
 * cell changed: it carries the number-format renderer, which the open's chunk does not need.
 */
const rerunLazily: Rerun = async (fn, args) =>
  (await import(/* webpackChunkName: "trace-rerun" */ "../trace/rerun")).rerunFromMemory(fn, args);

const deps: RecorderDeps = {
  read: (addresses) => readKaishaValues(addresses),
  async trace(cells, restated) {
    const reads = await readKaishaCellsAt(cells);
    const client = getClient();
    const disclosures = disclosuresFor(restated);
    return Promise.all(
      reads.map((r) =>
        r === undefined
          ? undefined
          : traceCell(
              r,
              {
                client,
                disclosures,
                stored: storedAnswer,
                rerun: rerunLazily,
                priceOnOrBefore: heldPriceOnOrBefore,
              },
              logLang,
            ),
      ),
    );
  },
  storage: storage(),
  workbook: workbookName,
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  idle: () => {
    const q = getClient().queueStatus();
    return q.waiting === 0 && q.inFlight === 0;
  },
};

let outsideWatched = false;

/**
 * Starts keeping the answers updates replace (answer-watch.ts) on the session's cache store, and
 * logging the recalculations the analyst starts in Excel (F9, an edited formula) whose cells an
 * answer replaced meanwhile changed (record-update.ts noteOutsideReplacement): this runs in the
 * runtime's lazily loaded chunks (taskpane/open/start.ts), where the session keeps the answers.
 */
export function keepReplacedAnswers(): void {
  watchAnswers(getCacheStore());
  if (outsideWatched) return;
  outsideWatched = true;
  onAnswerReplaced((r) => noteOutsideReplacement(r.at, deps));
  takeBaseline(deps);
}

/** Full recalculation (Refresh all, Update), its changed cells logged. */
export async function recordedRecalculateAll(trigger: UpdateTrigger = "refresh"): Promise<void> {
  keepReplacedAnswers();
  await recordUpdate(trigger, recalculateAll, deps);
}

/**
 * Re-enters these cells' formulas ("'Sheet 1'!B2", as a background revalidation names them), the
 * cells whose values change logged; returns how many were re-entered (reenter-formulas.ts).
 */
export async function recordedRecalculateAddresses(
  addresses: readonly string[],
  trigger: UpdateTrigger = "revalidation",
): Promise<number> {
  keepReplacedAnswers();
  return (await recordUpdate(trigger, () => recalculateAddresses(addresses), deps, addresses))
    .result;
}
