// Runs one custom-function call: cancel, preview, limits, and every failure mapped to a cell error.

import type { KaishaClient, RequestOptions } from "../src/client";
import { assertWithinLimits } from "../src/excel/limits";
import type { HeaderLanguage } from "../src/excel/shape";
import { staleCell, type Cell, type HostCapabilities } from "../src/excel/values";
import { clearCellError, recordCellError } from "../src/cell-errors";
import { getClient, getSettings, type Lang } from "../src/session";
import { INVALID_VALUE, NOT_AVAILABLE, toCellError, type CellError } from "./excel-errors";
import { getHostCapabilities, messageLang } from "./host";
import { watchStale } from "./stale-watch";

/** The invocation object Excel passes as the last argument of a @cancelable function. */
export interface InvocationLike {
  onCanceled?: () => void;
  /** CustomFunctionsRuntime 1.5; typed as string in @types, a boolean in practice. */
  isInValuePreview?: boolean | string;
  /** @requiresAddress: the calling cell, e.g. "Sheet1!B2" (the Problems list shows its message). */
  address?: string;
}

/** What a function body gets. */
export interface CallContext {
  client: KaishaClient;
  /** Pass to every client call: carries the cancellation signal. */
  options: RequestOptions;
  signal: AbortSignal;
  host: HostCapabilities;
  headerLanguage: HeaderLanguage;
  lang: Lang;
  preview: boolean;
}

function inPreview(invocation: InvocationLike | undefined): boolean {
  const flag = invocation?.isInValuePreview;
  return flag === true || flag === "true";
}

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
  const controller = new AbortController();
  if (invocation !== undefined) invocation.onCanceled = () => controller.abort();
  try {
    const preview = inPreview(invocation);
    const shared = getClient();
    const settings = getSettings();
    // A value preview answers from fresh cache entries only (NotCachedError -> #N/A otherwise).
    const watched = watchStale(preview ? shared.withOptions({ cacheOnly: true }) : shared);
    const host = getHostCapabilities();
    const ctx: CallContext = {
      client: watched.client,
      options: { signal: controller.signal },
      signal: controller.signal,
      host,
      headerLanguage: settings.headerLanguage,
      lang,
      preview,
    };
    const result = await body(ctx);
    if (Array.isArray(result)) {
      if (result.length === 0) return answered(invocation, controller.signal, [[""]] as T); // Excel rejects []
      assertWithinLimits(result);
    }
    // A single value served from the cache while the API is down says so in its format (issue 6:
    // a visible stale marker); tables say it in their title row (functions/common.ts).
    const shown =
      !Array.isArray(result) && watched.wasStale() ? (staleCell(result, lang, host) as T) : result;
    return answered(invocation, controller.signal, shown);
  } catch (err) {
    const cellErr = toCellError(err, lang);
    remember(invocation, controller.signal, cellErr);
    throw cellErr;
  }
}

/**
 * The address whose record this call may change: none for a value preview (not what the cell
 * keeps) or a canceled call (Excel drops its answer, and a newer call for the cell may already have
 * recorded its own).
 */
function recordedAddress(invocation: InvocationLike | undefined, signal: AbortSignal) {
  if (!invocation?.address || inPreview(invocation) || signal.aborted) return undefined;
  return invocation.address;
}

/** The cell shows a value again: its recorded error no longer applies. */
function answered<T>(invocation: InvocationLike | undefined, signal: AbortSignal, result: T): T {
  const address = recordedAddress(invocation, signal);
  if (address !== undefined) clearCellError(address);
  return result;
}

function remember(invocation: InvocationLike | undefined, signal: AbortSignal, err: CellError) {
  const address = recordedAddress(invocation, signal);
  if (address === undefined) return;
  if (err.code !== INVALID_VALUE && err.code !== NOT_AVAILABLE) return;
  recordCellError(address, err.code, err.message ?? "");
}
