// Runs one custom-function call: cancel, preview, limits, and every failure mapped to a cell error.

import type { CallScope, KaishaClient, RequestOptions } from "../src/client";
import { assertWithinLimits } from "../src/excel/limits";
import type { HeaderLanguage } from "../src/excel/shape";
import { STALE_SUFFIX, staleCell, type Cell, type HostCapabilities } from "../src/excel/values";
import { clearCellError, inPreview, recordCellError } from "../src/cell-errors";
import { getCacheStore, getClient, getSettings, type Lang } from "../src/session";
import {
  INVALID_VALUE,
  NOT_AVAILABLE,
  cellError,
  fullMessageOf,
  sharedCellError,
  toCellError,
  type CellError,
} from "./excel-errors";
import { getHostCapabilities, messageLang } from "./host";

/** The invocation object Excel passes as the last argument of a @cancelable function. */
export interface InvocationLike {
  onCanceled?: (() => void) | undefined;
  /** CustomFunctionsRuntime 1.5; typed as string in @types, a boolean in practice. */
  isInValuePreview?: boolean | string;
  /** @requiresAddress: the calling cell, e.g. "Sheet1!B2" (the Problems list shows its message). */
  address?: string;
}

/** What a function body gets. */
export interface CallContext {
  client: KaishaClient;
  /** Pass to every client call: carries the cancellation signal and the stale flag. */
  options: RequestOptions;
  signal: AbortSignal;
  host: HostCapabilities;
  headerLanguage: HeaderLanguage;
  lang: Lang;
  preview: boolean;
  /** Calls `listener` if Excel cancels this call (a fetch shared by many cells counts them). */
  onCanceled(listener: () => void): void;
}

/** True while Excel shows the formula's value preview (src/cell-errors.ts, beside its records). */
export { inPreview } from "../src/cell-errors";

/**
 * Wraps a function body. Excel's cancel (recalculation, edit, close) aborts the client calls; a
 * value preview only reads fresh cache entries; table results are checked against Excel's limits;
 * anything thrown becomes `CustomFunctions.Error` (#VALUE! / #N/A with a message), which is also
 * recorded against the calling cell for the task pane's Problems list (src/cell-errors.ts).
 */
export async function run<T extends Cell | Cell[][]>(
  invocation: InvocationLike | undefined,
  body: (ctx: CallContext) => Promise<T>,
): Promise<T> {
  const lang = messageLang();
  const call = new CallState(
    invocation?.address && !inPreview(invocation) ? invocation.address : undefined,
  );
  const onCanceled = (): void => call.cancel();
  if (invocation !== undefined) invocation.onCanceled = onCanceled;
  startCall();
  try {
    const preview = inPreview(invocation);
    const shared = getClient();
    const settings = getSettings();
    // A value preview answers from fresh cache entries only (NotCachedError -> #N/A otherwise).
    const client = preview ? shared.withOptions({ cacheOnly: true }) : shared;
    const host = getHostCapabilities();
    // No AbortController yet: most cells of a recalculation are answered from the cache and
    // never need one (bench: one per cell was a large share of warm-recalculation garbage).
    const options: RequestOptions = {
      get signal() {
        return call.signal();
      },
      staleSink: call,
      // One deadline for every request of this call (README "#BUSY! that does not go away").
      call,
    };
    const ctx: CallContext = {
      client,
      options,
      get signal() {
        return call.signal();
      },
      host,
      headerLanguage: settings.headerLanguage,
      lang,
      preview,
      onCanceled: (listener) => call.onCanceled(listener),
    };
    const result = await body(ctx);
    if (Array.isArray(result)) {
      if (result.length === 0) return answered(invocation, call, [[""]] as T); // Excel rejects []
      assertWithinLimits(result);
    }
    // A value served from a stored answer marked stale (the API down, or its data can have
    // changed: a filing window open, results due) says so in its number format, every number of
    // a table too: the title row (functions/common.ts) shows only in headers mode 2, and the
    // morning after results a table's last-year rows must not pass for current.
    const shown = call.stale ? staleResult(result, lang, host) : result;
    return answered(invocation, call, shown);
  } catch (err) {
    const thrown = toCellError(err, lang);
    // Read from an answer served marked stale (a filing window open, the company not yet checked):
    // "no period 2026" can be old news, so the error says so as a stale value's format does.
    const cellErr =
      call.stale && thrown.code === NOT_AVAILABLE
        ? cellError(NOT_AVAILABLE, `${thrown.message ?? ""}${STALE_SUFFIX[lang]}`)
        : thrown;
    remember(invocation, call.canceled, cellErr);
    throw cellErr;
  } finally {
    endCall();
    // A finished call cannot be canceled; the handler would keep this call's state (and the
    // answers it waited for) alive for as long as the host keeps the invocation object.
    if (invocation !== undefined && invocation.onCanceled === onCanceled)
      invocation.onCanceled = undefined;
  }
}

/** `result` with each number marked stale (staleCell), a table's cell by cell. */
function staleResult<T>(result: T, lang: "en" | "ja", host: HostCapabilities): T {
  if (!Array.isArray(result)) return staleCell(result as Cell, lang, host) as T;
  return result.map((row: unknown) =>
    Array.isArray(row) ? row.map((cell: Cell) => staleCell(cell, lang, host)) : row,
  ) as T;
}

/**
 * One call's cancellation (its AbortController made only when asked for), stale flag, deadline
 * (the client keeps it here: `RequestOptions.call`), and the cell it answers (the client records
 * it against answers it serves while asking them again).
 */
class CallState implements CallScope {
  stale = false;
  deadline: CallScope["deadline"];
  canceled = false;
  constructor(readonly address: string | undefined) {}
  private controller: AbortController | undefined;
  private listeners: (() => void)[] | undefined;

  onCanceled(listener: () => void): void {
    if (this.canceled) listener();
    else (this.listeners ??= []).push(listener);
  }

  signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.canceled) this.controller.abort();
    }
    return this.controller.signal;
  }

  cancel(): void {
    if (this.canceled) return;
    this.canceled = true;
    this.controller?.abort();
    const listeners = this.listeners;
    this.listeners = undefined;
    if (listeners !== undefined) for (const listener of listeners) listener();
  }
}

/** Calls under way: when the count leaves 0 a recalculation starts (the persistent tier pins). */
let active = 0;

function startCall(): void {
  active += 1;
  if (active === 1) {
    const store = getCacheStore() as { beginRecalculation?: () => void } | undefined;
    store?.beginRecalculation?.();
  }
}

function endCall(): void {
  active -= 1;
}

/**
 * The address whose record this call may change: none for a value preview (not what the cell
 * keeps) or a canceled call (Excel drops its answer, and a newer call for the cell may already have
 * recorded its own).
 */
function recordedAddress(invocation: InvocationLike | undefined, canceled: boolean) {
  if (!invocation?.address || inPreview(invocation) || canceled) return undefined;
  return invocation.address;
}

/** The cell shows a value again: its recorded error no longer applies. */
function answered<T>(invocation: InvocationLike | undefined, call: CallState, result: T): T {
  const address = recordedAddress(invocation, call.canceled);
  if (address !== undefined) clearCellError(address);
  return result;
}

/**
 * An error found at once from memory (functions/cells/define-cell.ts warm path), reported as `run`
 * reports it: the same cell error, recorded against the cell for the Problems list.
 */
export function failedAtOnce(invocation: InvocationLike | undefined, err: Error): Promise<never> {
  const cellErr = sharedCellError(err, messageLang());
  remember(invocation, false, cellErr);
  return Promise.reject(cellErr);
}

function remember(invocation: InvocationLike | undefined, canceled: boolean, err: CellError) {
  const address = recordedAddress(invocation, canceled);
  if (address === undefined) return;
  if (err.code !== INVALID_VALUE && err.code !== NOT_AVAILABLE) return;
  // The whole message: the cell's tooltip gets a clipped one, the Problems list shows all of it.
  recordCellError(address, err.code, fullMessageOf(err) ?? "");
}
