// The runtime's workbook work, loaded by taskpane/index.ts as chunk "open" once Office is ready: recalculation of revalidated cells, the sheet on screen first, and the open itself.

import { DEFAULT_BASE_URL, getCacheStore, getClient, onSessionChange } from "../../src/session";
import { TieredCacheStore, type CacheEntry } from "../../src/client";
import { cellKey, cellsAnswered } from "../../src/cell-errors";
import { activeSheetName, followActiveSheet } from "../excel/active-sheet-priority";
import { readCellValues } from "../excel/cell-values";
import { findKaishaFormulas } from "../excel/formulas";
import { keepReplacedAnswers, recordedRecalculateAddresses } from "../changes/pane-recorder";
import { isExcelAvailable } from "../excel/run";
import { DEMO_KEY, URL_PRESETS, startPaneSession } from "../pane-session";
import { recalcOnRevalidation } from "../recalc-on-revalidation";
import { applyDemoKeyOnSandbox } from "../state/demo-start";
import { baseUrlOf } from "../state/pane-settings";
import {
  cellAddressOf,
  companyOf,
  followOpen,
  openWorkbook,
  type OpenHost,
  type OpenOptions,
  type OpenResult,
} from "./morning-open";
import { DUE_RECORD_SETTING, parseDueRecord, type DueRecord } from "./due-record";
import { keepDueRecord } from "./due-writer";
import { recordOpen } from "./open-state";
import { officeStartup } from "./startup-behavior";

/** The document's settings as the due record uses them (Office.context.document.settings). */
interface DocumentSettings {
  get(name: string): unknown;
  set(name: string, value: unknown): void;
  saveAsync(callback?: (result: { status: string; error?: { message?: string } }) => void): void;
}

function documentSettings(): DocumentSettings | undefined {
  const office = (
    globalThis as { Office?: { context?: { document?: { settings?: DocumentSettings } } } }
  ).Office;
  return office?.context?.document?.settings;
}

function readDueSetting(): unknown {
  try {
    return documentSettings()?.get(DUE_RECORD_SETTING);
  } catch {
    return undefined;
  }
}

/** Saves the record into the document's settings (saved with the workbook when the analyst saves). */
function writeDueSetting(record: DueRecord): Promise<void> {
  const settings = documentSettings();
  if (settings === undefined) return Promise.resolve();
  settings.set(DUE_RECORD_SETTING, record);
  return new Promise((resolve, reject) =>
    settings.saveAsync((r) =>
      r.status === "failed" ? reject(new Error(r.error?.message ?? "saveAsync")) : resolve(),
    ),
  );
}

/** The answers the memory tier holds, with the expiries the client decided (no storage read). */
async function heldAnswers(): Promise<Array<readonly [string, CacheEntry]>> {
  const store = getCacheStore();
  const memory = store instanceof TieredCacheStore ? store.memory : store;
  if (memory?.peek === undefined) return [];
  const out: Array<readonly [string, CacheEntry]> = [];
  for (const key of await memory.keys()) {
    const entry = memory.peek(key);
    if (entry !== undefined) out.push([key, entry]);
  }
  return out;
}

/** The last open (or Update) done in this runtime: the due record's writer merges with it. */
let lastOpen: OpenResult | undefined;

/**
 * Excel's side of the open (taskpane/excel/: the only code that calls Excel.run); `found` gets
 * each cell's company from the scan.
 */
function excelOpenHost(found: Map<string, string>): OpenHost {
  return {
    scanCells: async () => {
      const cells = await findKaishaFormulas("workbook");
      for (const c of cells) {
        const company = companyOf(c);
        const key = cellKey(cellAddressOf(c));
        if (company !== undefined && key !== undefined) found.set(key, company);
      }
      return cells;
    },
    activeSheet: activeSheetName,
    // Recorded: the cells an open or Update changes are listed in the pane's Changes view.
    recalculate: (addresses) => recordedRecalculateAddresses(addresses, "update"),
    client: getClient,
    cellsAnswered,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    dueRecord: () => Promise.resolve(parseDueRecord(readDueSetting())),
    values: readCellValues,
    storedKeys: () => getCacheStore()?.keys() ?? Promise.resolve([]),
  };
}

/**
 * Runs an open (or Update) over Excel and records it for the pane (open-state.ts); its progress
 * counts from now.
 */
export function startOpen(options: OpenOptions): ReturnType<typeof openWorkbook> {
  const found = new Map<string, string>();
  // Keyed by cellKey: Excel's invocation writes an address as "Sheet1!B2" or "'Sheet 1'!B2".
  const progress = followOpen(getClient(), (address) => found.get(cellKey(address) ?? address));
  const result = openWorkbook(excelOpenHost(found), options);
  recordOpen({ result, progress });
  void result.then((r) => (lastOpen = r)).catch(() => undefined);
  return result;
}

/**
 * Wires the runtime to the workbook (nothing without Excel: a plain page): cells whose answers a background
 * revalidation changed are recalculated (a custom function cannot recalculate itself; the shared
 * runtime's pane code can), the sheet on screen's companies are asked first, and the open runs:
 * by itself when the workbook's startup behaviour is on (the analyst chose it) or no one sees the
 * pane, else held for Update with its cost shown.
 */
export async function startWorkbook(): Promise<void> {
  if (!isExcelAvailable()) return;
  // The answers updates replace are kept to say what moved (taskpane/changes/answer-watch.ts).
  keepReplacedAnswers();
  recalcOnRevalidation(
    () => getClient().revalidation(),
    onSessionChange,
    (addresses) => recordedRecalculateAddresses(addresses, "revalidation"),
  );
  void followActiveSheet(getClient, onSessionChange);
  // The workbook's due record kept current: the next desktop open recalculates only what is due.
  keepDueRecord({
    held: heldAnswers,
    cellsAnswered,
    idle: () => {
      const s = getClient().revalidation().status();
      return s.inFlight === 0 && (s.companies === 0 || s.paused !== undefined);
    },
    open: () => lastOpen,
    read: readDueSetting,
    write: writeDueSetting,
    now: Date.now,
  });
  // The session's server and remembered key, as the pane would set them (pane-main.tsx): a
  // runtime started with the workbook, the pane hidden, reads the stored answers of that key.
  await runtimeSession().catch(() => undefined);
  // Held for Update only where the analyst sees the offer: the pane on screen without the
  // startup behaviour. A runtime started by a cell's edit (the pane hidden) updates as the
  // called cells would have.
  const shown = typeof document !== "undefined" && document.visibilityState !== "hidden";
  const mode = officeStartup().readChoice() !== "on" && shown ? "offer" : "auto";
  await startOpen({ mode }).catch(() => undefined);
}

/** The pane's session started without the pane (its server, key, and the build's demo key). */
async function runtimeSession(): Promise<void> {
  const query = new URLSearchParams(globalThis.location?.search ?? "");
  const session = await startPaneSession({ query });
  await applyDemoKeyOnSandbox(session, {
    demoKey: DEMO_KEY,
    sandboxBaseUrl: DEFAULT_BASE_URL,
    baseUrl: baseUrlOf(session.settings, URL_PRESETS),
  });
}
