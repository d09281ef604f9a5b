// The runtime's workbook work, loaded by taskpane/index.ts as chunk "open" once Office is ready: recalculation of revalidated cells, the sheet on screen first, and the open itself.

import { getClient, onSessionChange } from "../../src/session";
import { cellsAnswered } from "../../src/cell-errors";
import { followActiveSheet } from "../excel/active-sheet-priority";
import { findKaishaFormulas } from "../excel/formulas";
import { recalculateAddresses } from "../excel/reenter-formulas";
import { runExcel } from "../excel/run";
import { recalcOnRevalidation } from "../recalc-on-revalidation";
import { followOpen, openWorkbook, type OpenHost, type OpenOptions } from "./morning-open";
import { recordOpen } from "./open-state";
import { officeStartup } from "./startup-behavior";

/** Excel's side of the open (taskpane/excel/: the only code that calls Excel.run). */
export function excelOpenHost(): OpenHost {
  return {
    scanCells: () => findKaishaFormulas("workbook"),
    activeSheet: () =>
      runExcel(async (context) => {
        const sheet = context.workbook.worksheets.getActiveWorksheet();
        sheet.load("name");
        await context.sync();
        return sheet.name;
      }),
    recalculate: (addresses) => recalculateAddresses(addresses),
    client: getClient,
    cellsAnswered,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
}

/**
 * Runs an open (or Update) over Excel and records it for the pane (open-state.ts); its progress
 * counts from now.
 */
export function startOpen(options: OpenOptions): ReturnType<typeof openWorkbook> {
  const progress = followOpen(getClient());
  const result = openWorkbook(excelOpenHost(), options);
  recordOpen({ result, progress });
  return result;
}

/**
 * Wires the runtime to the workbook (Excel is available): cells whose answers a background
 * revalidation changed are recalculated (a custom function cannot recalculate itself; the shared
 * runtime's pane code can), the sheet on screen's companies are asked first, and the open runs:
 * by itself when the workbook's startup behaviour is on (the analyst chose it), else held for
 * Update with its cost shown.
 */
export function startWorkbook(): void {
  recalcOnRevalidation(() => getClient().revalidation(), onSessionChange, recalculateAddresses);
  void followActiveSheet(getClient, onSessionChange);
  const mode = officeStartup().readChoice() === "on" ? "auto" : "offer";
  void startOpen({ mode }).catch(() => undefined);
}
