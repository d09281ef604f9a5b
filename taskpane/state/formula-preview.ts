// The builder's result preview: runs the KAISHA function itself (one shared runtime), as a value
// preview from the cache (no request) or, on the user's explicit ask, with the request it needs.

import * as kaisha from "../../functions/index";
import { financialPeriodRead } from "../../functions/financial-period-read";
import type { Lang } from "../i18n/language";
import { financialResolved as resolvedText } from "./resolved-text";
import { AuthenticationError, NotCachedError } from "../../src/client";
import { formatNumber } from "../../standin/cell-display";

/** What a preview shows: a value or table, a cell error with its message, or "not cached yet". */
export type PreviewOutcome =
  | { kind: "value"; rows: unknown[][] }
  | { kind: "error"; code: string; message: string }
  | { kind: "not_cached" }
  /** no API key: the pane names its own Connection tab instead of the cell's "open the pane". */
  | { kind: "no_key" }
  | { kind: "needs_cells" };

type Implementation = (...args: unknown[]) => unknown;

/** Messages a cache-only call ends with when nothing is cached, in both languages. */
const NOT_CACHED = new Set([new NotCachedError({}).message, new NotCachedError({}).messageJa]);
const NO_KEY = new Set([
  new AuthenticationError("missing_key").message,
  new AuthenticationError("missing_key").messageJa,
]);

function implementation(name: string): Implementation | undefined {
  const fn = (kaisha as Record<string, unknown>)[name];
  return typeof fn === "function" ? (fn as Implementation) : undefined;
}

/**
 * Calls `name` with the arguments as Excel passes them (omitted -> null, numbers as numbers).
 * `cacheOnly` marks the call as Excel's value preview, so the function reads fresh cache entries
 * only and sends nothing (functions/run.ts); arguments that refer to cells cannot be previewed here.
 */
export async function previewFormula(
  name: string,
  args: readonly unknown[],
  cacheOnly: boolean,
): Promise<PreviewOutcome> {
  if (args.some((a) => typeof a === "object" && a !== null)) return { kind: "needs_cells" };
  const fn = implementation(name);
  if (!fn) return { kind: "error", code: "#NAME?", message: name };
  const invocation = { isInValuePreview: cacheOnly, onCanceled: () => undefined };
  try {
    // Every parameter gets a slot (Excel passes null for omitted ones), then the invocation.
    const slots = Math.max(args.length, fn.length - 1);
    const padded = Array.from({ length: slots }, (_, i) => args[i] ?? null);
    const value = await fn(...padded, invocation);
    return { kind: "value", rows: Array.isArray(value) ? (value as unknown[][]) : [[value]] };
  } catch (err) {
    const e = err as { code?: unknown; message?: unknown };
    const message = typeof e.message === "string" ? e.message : "";
    if (cacheOnly && NOT_CACHED.has(message)) return { kind: "not_cached" };
    if (NO_KEY.has(message)) return { kind: "no_key" };
    return { kind: "error", code: typeof e.code === "string" ? e.code : "#VALUE!", message };
  }
}

/**
 * A preview cell as text: formatted numbers as Excel shows them with their number format (a
 * percentage held as 0.0368 reads 3.68%, a date serial as 2024-03-31: the preview page's
 * formatter), entities by their text, empty cells as "", plain numbers with thousands separators.
 */
export function previewCellText(value: unknown, lang: "ja" | "en"): string {
  if (value === null || value === undefined || value === "") return "";
  if (typeof value === "number")
    return value.toLocaleString(lang === "ja" ? "ja-JP" : "en-US", { maximumFractionDigits: 4 });
  if (typeof value === "object") {
    const v = value as { basicValue?: unknown; text?: unknown; numberFormat?: unknown };
    if (typeof v.basicValue === "number" && typeof v.numberFormat === "string")
      return formatNumber(v.basicValue, v.numberFormat);
    if (v.basicValue !== undefined) return previewCellText(v.basicValue, lang);
    if (typeof v.text === "string") return v.text;
  }
  return String(value);
}

function numberOf(cell: unknown): number | undefined {
  if (typeof cell === "number") return cell;
  const basic = (cell as { basicValue?: unknown } | null)?.basicValue;
  return typeof basic === "number" ? basic : undefined;
}

/**
 * What a FINANCIAL formula resolves to ("2025年3月期 売上高 41.7兆円"), from answers in the cache
 * only: the period its arguments pick and the value in yen (whatever unit the cell asks for).
 * Undefined for other functions, refused arguments, or answers not fetched yet.
 */
export async function resolvedFinancial(
  name: string,
  args: readonly unknown[],
  lang: Lang,
): Promise<string | undefined> {
  if (name !== "FINANCIAL") return undefined;
  const a = (i: number): unknown => args[i] ?? null;
  const period = financialPeriodRead(a(0), a(1), a(2), a(3), a(4));
  if (period === undefined) return undefined;
  // The value in yen: the same call without the unit argument, from the same cached answer.
  const inYen = await previewFormula(name, [a(0), a(1), a(2), a(3), a(4), null], true);
  const value = inYen.kind === "value" ? numberOf(inYen.rows[0]?.[0]) : undefined;
  if (value === undefined) return undefined;
  return resolvedText(period, period.item, value, lang);
}
