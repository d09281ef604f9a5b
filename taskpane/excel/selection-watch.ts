// Follows the analyst's selection (Workbook.onSelectionChanged, ExcelApi 1.2), so the Why view
// explains the cell selected without a click where the host tells the pane.

import { excelApiSupported } from "./requirements";
import { runExcel } from "./run";

/**
 * Calls `listener` on each change of the selection; returns unsubscribe. A host without the event
 * (or without Excel) never calls it: the Why view's button still explains the selected cell.
 * @example const off = await followSelection(() => explain());
 */
export async function followSelection(listener: () => void): Promise<() => void> {
  if (!excelApiSupported("1.2")) return () => undefined;
  const handler = await runExcel(async (context) => {
    const event = (context.workbook as Partial<Pick<Excel.Workbook, "onSelectionChanged">>)
      .onSelectionChanged;
    if (event === undefined) return undefined;
    const added = event.add(async () => listener());
    await context.sync();
    return added;
  }).catch(() => undefined);
  return () => {
    if (handler === undefined) return;
    void runExcel(async (context) => {
      handler.remove();
      await context.sync();
    }).catch(() => undefined);
  };
}
