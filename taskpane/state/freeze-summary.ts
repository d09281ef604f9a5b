// The Freeze values summary: how many formulas were frozen, how many were skipped, and why.

import type { FreezeResult, SkipReason } from "../excel/freeze";
import type { RefusedRecord } from "../excel/restore-check";
import type { Translator } from "../i18n/messages";

/** At most this many skipped addresses are named; the rest are counted ("…"). */
const MAX_LISTED = 8;

export interface FreezeSummary {
  intent: "success" | "warning" | "info";
  text: string;
  data: Record<string, string>;
}

function reasonsText(result: FreezeResult, t: Translator): string {
  const by = new Map<SkipReason, string[]>();
  for (const s of result.skipped) by.set(s.reason, [...(by.get(s.reason) ?? []), s.code]);
  const parts: string[] = [];
  const calculating = by.get("calculating");
  if (calculating) parts.push(t("skipCalculating", { n: calculating.length }));
  const spill = by.get("spill");
  if (spill) parts.push(t("skipSpill", { n: spill.length }));
  const errors = by.get("error");
  if (errors) {
    parts.push(t("skipError", { n: errors.length, codes: [...new Set(errors)].join(", ") }));
  }
  const unrestorable = by.get("unrestorable");
  if (unrestorable) {
    parts.push(
      t("skipUnrestorable", {
        n: unrestorable.length,
        codes: [...new Set(unrestorable)].join(", "),
      }),
    );
  }
  return parts.join(t.lang === "ja" ? "、" : ", ");
}

function cellsText(result: FreezeResult): string {
  const names = result.skipped.map((s) => `${s.address} (${s.code})`);
  const shown = names.slice(0, MAX_LISTED).join(", ");
  return names.length > MAX_LISTED ? `${shown}, …` : shown;
}

/**
 * The message after Freeze values. Skipped formulas make it a warning that names them, so the user
 * knows which cells still depend on the add-in.
 * @example freezeSummary({ frozen: 3, cells, skipped: [{ address: "S!A1", code: "#BUSY!", reason: "calculating" }] }, t)
 */
export function freezeSummary(result: FreezeResult, t: Translator): FreezeSummary {
  const data = { count: String(result.frozen), skipped: String(result.skipped.length) };
  if (result.skipped.length === 0) {
    return result.frozen === 0
      ? { intent: "info", text: t("nothingToFreeze"), data }
      : { intent: "success", text: t("frozen", { n: result.frozen }), data };
  }
  const vars = {
    n: result.frozen,
    m: result.skipped.length,
    reasons: reasonsText(result, t),
    cells: cellsText(result),
  };
  return {
    intent: "warning",
    text: t(result.frozen === 0 ? "frozeNoneSkipped" : "frozeSomeSkipped", vars),
    data,
  };
}

function refusedText(refused: readonly RefusedRecord[], t: Translator): string {
  const names = refused.map((r) =>
    t(
      r.reason === "formula"
        ? "refusedFormula"
        : r.reason === "range"
          ? "refusedRange"
          : "refusedAddress",
      { row: r.row, address: r.address, detail: r.detail },
    ),
  );
  const shown = names.slice(0, MAX_LISTED).join(t.lang === "ja" ? "、" : "; ");
  return names.length > MAX_LISTED ? `${shown}, …` : shown;
}

/**
 * The message after Restore formulas: how many came back, and every provenance record it refused
 * (a formula that is not only KAISHA, a range that is not the cell's own) named with its row, so a
 * crafted KaishaProvenance sheet is visible rather than silently obeyed or silently skipped.
 * @example restoreSummary({ frozen: 1, cells, skipped: [], refused: [{ row: 3, address: "S!A1", reason: "formula", detail: "WEBSERVICE" }] }, t)
 */
export function restoreSummary(result: FreezeResult, t: Translator): FreezeSummary {
  const refused = result.refused ?? [];
  const data = { count: String(result.frozen), refused: String(refused.length) };
  if (refused.length === 0) {
    return result.frozen === 0
      ? { intent: "info", text: t("nothingToRestore"), data }
      : { intent: "success", text: t("restored", { n: result.frozen }), data };
  }
  return {
    intent: "warning",
    text: t("restoreRefused", {
      n: result.frozen,
      m: refused.length,
      list: refusedText(refused, t),
    }),
    data,
  };
}
