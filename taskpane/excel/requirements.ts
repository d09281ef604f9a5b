// ExcelApi requirement sets: the set manifest.xml declares, and the check before any newer Excel API.

/**
 * The ExcelApi version manifest.xml declares (`<Set Name="ExcelApi" MinVersion="1.7"/>`): Excel
 * offers the add-in only on hosts that have it, so APIs up to 1.7 need no check. Every host with
 * SharedRuntime 1.1 (which the add-in needs anyway) has 1.7. test/taskpane/requirement-sets.test.ts
 * reads the set of every Excel API member taskpane/excel uses from office-js's own declarations and
 * fails when one newer than this is not guarded by `excelApiSupported`.
 * @internal The requirement-set test compares the API members used against it.
 */
export const MANIFEST_EXCEL_API = "1.7";

/**
 * Compares "1.12" and "1.7" numerically (1.12 is newer).
 * @internal The requirement-set test orders versions with it.
 */
export function compareVersions(a: string, b: string): number {
  const x = a.split(".").map(Number);
  const y = b.split(".").map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

interface OfficeRequirements {
  context?: { requirements?: { isSetSupported?: (name: string, version?: string) => boolean } };
}

/**
 * True when the host supports ExcelApi `version` (Microsoft: "Office.context.requirements.
 * isSetSupported" before using an API outside the manifest's sets). Outside Office (tests, the
 * preview page) the answer comes from whatever `Office` global is present; none means no.
 * @example if (excelApiSupported("1.12")) range.getSpillingToRangeOrNullObject();
 */
export function excelApiSupported(version: string): boolean {
  if (compareVersions(version, MANIFEST_EXCEL_API) <= 0) return true;
  try {
    const office = (globalThis as { Office?: OfficeRequirements }).Office;
    return office?.context?.requirements?.isSetSupported?.("ExcelApi", version) === true;
  } catch {
    return false;
  }
}

/** A feature this Excel lacks: the pane says which requirement set it needs. */
export class ExcelApiMissingError extends Error {
  override readonly name = "ExcelApiMissingError";
  constructor(
    /** e.g. "1.12" */
    readonly version: string,
    /** what needed it, for the message (e.g. "freeze") */
    readonly feature: string,
  ) {
    super(`This feature (${feature}) needs ExcelApi ${version}, which this Excel does not support`);
  }
}
