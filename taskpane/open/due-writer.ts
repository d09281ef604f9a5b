// Keeps the workbook's due record (due-record.ts) in its document settings while the runtime runs: written once the cells are in and the background is idle, again whenever what the cells read has moved.

import type { CacheEntry } from "../../src/client";
import { mergeDueRecord, parseDueRecord, sessionDues, type DueRecord } from "./due-record";
import type { OpenResult } from "./morning-open";

/** What the writer reads and writes (start.ts gives the runtime's and Office's). */
export interface DueWriterPort {
  /** The answers held in memory, with the expiries the client decided (cache key, entry). */
  held(): Promise<
    Iterable<readonly [string, Pick<CacheEntry, "body" | "storedAt" | "freshUntil">]>
  >;
  /** KAISHA cells answered so far (src/cell-errors.ts cellsAnswered): what the cells read moved. */
  cellsAnswered(): number;
  /** The background has nothing queued or under way (its answers and recalculations are in). */
  idle(): boolean;
  /** The open whose kept cells the record still vouches for (open-state.ts), once it is done. */
  open(): OpenResult | undefined;
  read(): unknown;
  write(record: DueRecord): Promise<void>;
  now(): number;
}

/** How often the writer looks: a cell's answer and its recalculation settle within it. @unit ms */
const DUE_WRITE_CHECK_MS = 1_000;

/**
 * Writes the record after the open and whenever cells have answered since the last write, once no
 * cell has answered for a check period and the background is idle (a record written mid-update
 * would vouch for cells still to be recalculated). A record equal to the one kept is not written
 * again (each write dirties the document). Returns stop.
 *
 * @example const stop = keepDueRecord(port); // start.ts, once the runtime has a workbook
 */
export function keepDueRecord(port: DueWriterPort, everyMs = DUE_WRITE_CHECK_MS): () => void {
  let seen = -1;
  let written = -1;
  let kept: string | undefined;
  let busy = false;
  const tick = async (): Promise<void> => {
    const answered = port.cellsAnswered();
    const settled = answered === seen;
    seen = answered;
    const open = port.open();
    if (busy || !settled || answered === written || open === undefined || !port.idle()) return;
    busy = true;
    try {
      const now = port.now();
      const session = sessionDues(await port.held());
      const record = mergeDueRecord(open.dueRecord, session, open.keptGroups, now);
      const text = JSON.stringify(record);
      kept ??= JSON.stringify(parseDueRecord(port.read()) ?? null);
      // A workbook never vouched for and with nothing to vouch for is left as it is.
      const empty = Object.keys(record.due).length === 0 && kept === "null";
      if (text !== kept && !empty) {
        await port.write(record);
        kept = text;
      }
      written = answered;
    } catch {
      // Settings not written (a busy host): the next check tries again.
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void tick(), everyMs);
  return () => clearInterval(timer);
}
