// What the results-day freshness tests share: JST times, the year ending March 2026 and 7203's annual answer's lifetime.

import { lifetimeOf, type CompanyKnowledge } from "../../src/client/freshness";

export const jst = (iso: string): number => Date.parse(`${iso}+09:00`);
/** FY ending March 2026 as a month index. */
export const MARCH_2026 = 2026 * 12 + 2;

/** 7203's annual answer (latest 2025/03, the year ended March 2026 not in it) stored at `storedAt`. */
export const annual = (storedAt: number, known: CompanyKnowledge) =>
  lifetimeOf({
    operationId: "getFinancials",
    params: { security_code: "7203", period: "annual", years: 30 },
    body: { periods: [{ fiscal_year: "2024/03" }, { fiscal_year: "2025/03" }] },
    storedAt,
    ttlMs: 1_000,
    known,
  });
