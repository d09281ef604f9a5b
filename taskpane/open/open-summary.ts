// What the pane says about the workbook's open: what it did, what is still due and what that will cost (message keys and their values).

import type { RevalidationStatus } from "../../src/client";
import type { MessageKey } from "../i18n/messages";
import type { OpenReport, OpenResult } from "./morning-open";

/** One line of the pane: a message key and its values, and the figure it states for tests. */
export interface OpenLine {
  key: MessageKey;
  vars: Record<string, number>;
}

/** Whole minutes at the pacer's pace, at least 1 (never "0 min" for work that waits). */
function minutes(ms: number): number {
  return Math.max(1, Math.ceil(ms / 60_000));
}

/** What Update (or the held open) will cost: companies, requests at most, time at 60 a minute. */
export function updateCostLine(due: RevalidationStatus): OpenLine {
  return {
    key: "openUpdateCost",
    vars: { c: due.companies, n: due.requests, m: minutes(due.estimatedMs) },
  };
}

/**
 * What of Update's cost today cannot cover, as the Refresh all dialog warns when its cost exceeds
 * the day's remaining requests: the least of the API's requests left today (/usage `remaining`,
 * openapi.json getUsage) and the background's daily budget left (revalidator.ts
 * DEFAULT_DAILY_BUDGET: Update runs through that queue). Undefined when nothing is short or
 * neither is known; otherwise the warning line: those requests wait for the next JST day, their
 * cells marked stale until then.
 *
 * @example updateShortLine({ ...due, requests: 90, dailyBudget: 800, spentToday: 750 }, 500)?.vars.n // 40
 */
export function updateShortLine(
  due: RevalidationStatus,
  remaining: number | undefined,
): OpenLine | undefined {
  const budgetLeft =
    due.dailyBudget === undefined ? undefined : Math.max(0, due.dailyBudget - due.spentToday);
  const known = [remaining, budgetLeft].filter((n): n is number => n !== undefined);
  if (known.length === 0) return undefined;
  const left = Math.min(...known);
  const short = due.requests - left;
  return short > 0 ? { key: "updateConfirmShort", vars: { n: short, left } } : undefined;
}

/** What is still due, and why it waits when it does (the daily budget of background requests). */
function dueLine(due: RevalidationStatus): OpenLine | undefined {
  if (due.companies === 0 && due.inFlight === 0) return undefined;
  const c = Math.max(due.companies, due.inFlight > 0 ? 1 : 0);
  if (due.paused === "budget")
    return { key: "openDueBudget", vars: { c, n: due.requests, b: due.dailyBudget ?? 0 } };
  return { key: "openStillDue", vars: { c, n: due.requests, m: minutes(due.estimatedMs) } };
}

/**
 * The pane's lines about the open: held for Update (its cost), what the background did ("Updated
 * 37 companies: 412 cells recalculated, 45 requests"), what is still due. Empty while nothing
 * happened (a workbook without KAISHA cells, or nothing was due).
 *
 * @example openLines(result, report)[0]?.key // "openUpdated"
 */
export function openLines(result: OpenResult | undefined, report: OpenReport): OpenLine[] {
  const lines: OpenLine[] = [];
  if (result?.update !== undefined && report.due.paused === "user") {
    lines.push({ key: "openNotUpdated", vars: { c: report.due.companies } });
    lines.push(updateCostLine(report.due));
    return lines;
  }
  // An open that found no KAISHA cell did nothing: requests since are the analyst's new cells'.
  if (result?.cells === 0) return lines;
  if (report.companies > 0 || report.cells > 0)
    lines.push({
      key: "openUpdated",
      vars: { c: report.companies, n: report.cells, r: report.requests },
    });
  else if (report.requests > 0)
    lines.push({ key: "openCheckedUnchanged", vars: { r: report.requests } });
  const due = dueLine(report.due);
  if (due !== undefined) lines.push(due);
  return lines;
}
