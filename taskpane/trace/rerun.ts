// A KAISHA function called again from memory, as Excel's value preview calls it (no request): the
// table a cell without headers belongs to, given again with its header row (table-place.ts).

import { previewFormula } from "../state/formula-preview";

/** A cell as the function returns it: a formatted number or entity by its plain value. */
function plain(v: unknown): unknown {
  return typeof v === "object" && v !== null && "basicValue" in v
    ? (v as { basicValue: unknown }).basicValue
    : v;
}

/**
 * The function's table from fresh answers in memory (taskpane/state/formula-preview.ts with
 * cacheOnly), its cells as plain values; undefined when an answer is not in memory or refused.
 * @example await rerunFromMemory("FINANCIALS", [7203, "sales", null, 3, null, null, null, 1])
 */
export async function rerunFromMemory(
  fn: string,
  args: readonly unknown[],
): Promise<unknown[][] | undefined> {
  const out = await previewFormula(fn, args, true);
  return out.kind === "value" ? out.rows.map((r) => r.map(plain)) : undefined;
}
