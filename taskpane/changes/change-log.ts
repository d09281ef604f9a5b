// The Changes log of one workbook, kept on this computer (localStorage, like the pane's settings):
// the latest updates first, bounded in updates and cells so it never outgrows its storage.

import type { LoggedUpdate } from "./change-diff";

/** Updates kept per workbook. */
const MAX_UPDATES = 30;
/** Cells kept per update (the rest are counted in `more`). */
export const MAX_CELLS_PER_UPDATE = 1_000;
const PREFIX = "kaisha.changes.";

/** Where the log lives: a Storage (window.localStorage in the pane, a map in tests). */
export type LogStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/** A short stable name for a workbook (its URL or name), so each workbook has its own log. */
function workbookLogKey(workbook: string): string {
  let h = 5381;
  for (let i = 0; i < workbook.length; i++) h = ((h * 33) ^ workbook.charCodeAt(i)) >>> 0;
  return `${PREFIX}${h.toString(36)}`;
}

function isUpdate(x: unknown): x is LoggedUpdate {
  const u = x as Partial<LoggedUpdate> | null;
  return (
    typeof u === "object" &&
    u !== null &&
    typeof u.id === "string" &&
    typeof u.at === "number" &&
    Array.isArray(u.groups)
  );
}

/** The workbook's updates, newest first ([] when none or unreadable). */
export function readLog(storage: LogStorage | undefined, workbook: string): LoggedUpdate[] {
  try {
    const raw = storage?.getItem(workbookLogKey(workbook));
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed) ? parsed.filter(isUpdate) : [];
  } catch {
    return [];
  }
}

/**
 * Adds an update at the head of the workbook's log, dropping the oldest beyond MAX_UPDATES, and
 * again the oldest while the storage refuses the size (its quota); returns the log as kept.
 */
export function appendLog(
  storage: LogStorage | undefined,
  workbook: string,
  update: LoggedUpdate,
): LoggedUpdate[] {
  let log = [update, ...readLog(storage, workbook)].slice(0, MAX_UPDATES);
  while (storage !== undefined && log.length > 0) {
    try {
      storage.setItem(workbookLogKey(workbook), JSON.stringify(log));
      break;
    } catch {
      log = log.slice(0, log.length - 1);
    }
  }
  return log;
}

/** Empties the workbook's log. */
export function clearLog(storage: LogStorage | undefined, workbook: string): void {
  storage?.removeItem(workbookLogKey(workbook));
}
