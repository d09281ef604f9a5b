// The /usage answer for the pane's meter and the Refresh confirmation (openapi.json getUsage:
// /usage is free).

import type { UsageResponse } from "../../src/contract";
import { type SendState, localTime } from "../../src/client";
import type { MessageKey } from "../i18n/messages";

export interface Usage {
  remaining: number;
  /** the day's allowance, when the service says it (the sandbox does; the live API may not). */
  dailyLimit?: number;
  resetAt?: string;
}

/**
 * The usage body (openapi.json UsageResponse), or undefined when it has no finite `remaining`;
 * daily_limit and reset_at are optional (the live service may not send them).
 */
export function parseUsage(body: Partial<UsageResponse>): Usage | undefined {
  const { remaining, daily_limit: limit, reset_at: reset } = body;
  if (typeof remaining !== "number" || !Number.isFinite(remaining)) return undefined;
  return {
    remaining,
    ...(typeof limit === "number" && limit > 0 ? { dailyLimit: limit } : {}),
    ...(typeof reset === "string" ? { resetAt: reset } : {}),
  };
}

/** The meter's fill: the share of the day's allowance still left (0..1), when the allowance is known. */
export function remainingShare(u: Usage): number | undefined {
  if (u.dailyLimit === undefined) return undefined;
  return Math.max(0, Math.min(1, u.remaining / u.dailyLimit));
}

export interface RefreshEstimate {
  /** distinct requests of the workbook's KAISHA formulas (refresh-cost.ts). */
  formulaRequests: number;
  /** stored imports; each reads at least one page. */
  imports: number;
}

/** What a refresh will at least cost and whether today's remaining quota covers it. */
export function refreshVerdict(
  estimate: RefreshEstimate,
  withFormulas: boolean,
  usage: Usage | undefined,
): { requests: number; remaining: number | undefined; enough: boolean | undefined } {
  const requests = (withFormulas ? estimate.formulaRequests : 0) + estimate.imports;
  const remaining = usage?.remaining;
  return {
    requests,
    remaining,
    enough: remaining === undefined ? undefined : requests <= remaining,
  };
}

/**
 * What the pane says while the key sends nothing (src/client/send-state.ts): the daily limit with
 * when sending resumes, in the user's local time, or the refused key asking for a new one.
 */
export function sendHoldLine(
  state: SendState,
  lang: "en" | "ja",
): { key: MessageKey; vars: Record<string, string> } {
  if (state.reason === "key_refused") return { key: "holdKeyRefused", vars: {} };
  return { key: "holdDailyLimit", vars: { time: localTime(state.resumesAt, lang) } };
}
