// Runs one custom-function call: cancel, preview, limits, and every failure mapped to a cell error.

import type { KaishaClient, RequestOptions } from "../src/client";
import { assertWithinLimits } from "../src/excel/limits";
import type { HeaderLanguage } from "../src/excel/shape";
import type { Cell, HostCapabilities } from "../src/excel/values";
import { getClient, getSettings, type Lang } from "../src/session";
import { toCellError } from "./excel-errors";
import { getHostCapabilities, messageLang } from "./host";

/** The invocation object Excel passes as the last argument of a @cancelable function. */
export interface InvocationLike {
  onCanceled?: () => void;
  /** CustomFunctionsRuntime 1.5; typed as string in @types, a boolean in practice. */
  isInValuePreview?: boolean | string;
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
 * anything thrown becomes `CustomFunctions.Error` (#VALUE! / #N/A with a message).
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
    const ctx: CallContext = {
      // A value preview answers from fresh cache entries only (NotCachedError -> #N/A otherwise).
      client: preview ? shared.withOptions({ cacheOnly: true }) : shared,
      options: { signal: controller.signal },
      signal: controller.signal,
      host: getHostCapabilities(),
      headerLanguage: settings.headerLanguage,
      lang,
      preview,
    };
    const result = await body(ctx);
    if (Array.isArray(result)) {
      if (result.length === 0) return [[""]] as T; // Excel rejects an empty array
      assertWithinLimits(result);
    }
    return result;
  } catch (err) {
    throw toCellError(err, lang);
  }
}
