// Tells the client which sheet is on screen, so its companies are asked first (cold and in the background).

import type { KaishaClient } from "../../src/client";
import { splitAddress } from "./cell-address";
import { runExcel } from "./run";

/**
 * A test of cell addresses ("'Sheet 1'!B2") for the sheet named `sheet`.
 * @internal Tests check the sheet test directly.
 */
export function onSheet(sheet: string): (address: string) => boolean {
  return (address) => splitAddress(address)?.[0] === sheet;
}

/** The name of the sheet on screen (the open recalculates its cells first: taskpane/open/). */
export function activeSheetName(): Promise<string> {
  return runExcel(async (context) => {
    const sheet = context.workbook.worksheets.getActiveWorksheet();
    sheet.load("name");
    await context.sync();
    return sheet.name;
  });
}

/** What follows the sheet on screen: the client (its pacer's and revalidator's queues), or one queue. */
type SheetFollower = Pick<KaishaClient, "prioritize">;

/**
 * Follows the active worksheet: now, on every activation, and for each new session's queues (a new
 * client has a new pacer and revalidator), `prioritize` gets the sheet on screen. Returns
 * unsubscribe; a failure (no Excel) leaves the queues in their own order.
 *
 * @example await followActiveSheet(getClient, onSessionChange);
 */
export async function followActiveSheet(
  follower: () => SheetFollower,
  onSessionChange: (listener: () => void) => () => void,
): Promise<() => void> {
  let sheet: string | undefined;
  const apply = (): void => follower().prioritize(sheet === undefined ? undefined : onSheet(sheet));
  const offSession = onSessionChange(apply);
  const nameOf = (id: string) =>
    runExcel(async (context) => {
      const ws = context.workbook.worksheets.getItem(id);
      ws.load("name");
      await context.sync();
      return ws.name;
    });
  const handler = await runExcel(async (context) => {
    const active = context.workbook.worksheets.getActiveWorksheet();
    active.load("name");
    const added = context.workbook.worksheets.onActivated.add(async (event) => {
      sheet = await nameOf(event.worksheetId).catch(() => sheet);
      apply();
    });
    await context.sync();
    sheet = active.name;
    apply();
    return added;
  }).catch(() => undefined);
  return () => {
    offSession();
    if (handler === undefined) return;
    void runExcel(async (context) => {
      handler.remove();
      await context.sync();
    }).catch(() => undefined);
  };
}
