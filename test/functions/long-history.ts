// A session whose /financials answers reach back 70 years (the sandbox's history repeated further
// back, answered per openapi.json getFinancials: the latest `years` fiscal years up to `as_of`), so
// FINANCIAL steps back through older windows as it does for a company listed since the 1950s.
import { createApp } from "../../sandbox/app";
import type { FetchLike } from "../../src/client";
import { sandboxAnswer, sessionClientOver } from "./session-client";

interface Row {
  fiscal_year: string;
  [key: string]: unknown;
}

/** The rows moved back `years` years (fiscal_year YYYY/MM). */
function shifted(rows: readonly Row[], years: number): Row[] {
  return rows.map((r) => ({
    ...r,
    fiscal_year: `${Number(r.fiscal_year.slice(0, 4)) - years}${r.fiscal_year.slice(4)}`,
  }));
}

/** openapi.json getFinancials: periods up to `as_of`, the latest `years` fiscal years of them. */
function window(rows: readonly Row[], years: number, asOf: string | null): Row[] {
  const upTo = asOf === null ? rows : rows.filter((r) => r.fiscal_year <= asOf);
  const kept = new Set([...new Set(upTo.map((r) => r.fiscal_year))].sort().slice(-years));
  return upTo.filter((r) => kept.has(r.fiscal_year));
}

/** Points the shared session at a sandbox with long histories; `sent()` counts /financials requests. */
/** Years each copy of the sandbox's history is moved back (the same for every series). */
export const SHIFT_YEARS = 25;

export function useLongHistory(now: number, latencyMs = 0): { sent(): number } {
  const sandbox = createApp({ ratePerMinute: 0, latencyMs });
  let sent = 0;
  const fetch: FetchLike = async (url, init) => {
    const u = new URL(url);
    const financials = u.pathname.endsWith("/financials");
    if (financials) sent += 1;
    const asOf = u.searchParams.get("as_of");
    const years = Number(u.searchParams.get("years") ?? 5);
    u.searchParams.delete("as_of");
    u.searchParams.set("years", "30");
    const res = await sandboxAnswer(sandbox, u, init);
    if (!financials || res.status !== 200) return res;
    const body = (await res.json()) as { periods: Row[] };
    const all = [
      ...body.periods,
      ...shifted(body.periods, SHIFT_YEARS),
      ...shifted(body.periods, 2 * SHIFT_YEARS),
    ];
    const periods = window(all, years, asOf);
    return new Response(JSON.stringify({ ...body, periods }), {
      status: 200,
      headers: res.headers,
    });
  };
  sessionClientOver(fetch, () => now);
  return { sent: () => sent };
}
