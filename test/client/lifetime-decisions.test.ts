// How often answers' lifetimes are decided (src/client/freshness.ts entryLifetime): once per entry,
// again only when what was learned of its own company (its expected results day) changed.

import { CodeRegistry } from "../../src/client/code-map";
import { entryLifetime, lifetimesMoved, type CompanyKnowledge } from "../../src/client/freshness";
import type { ResponseOf } from "../../src/client/types";
import { InFlightRequests } from "../../src/client/inflight";
import { ResultsDays } from "../../src/client/results-day-history";
import { MARCH_2026, jst } from "./results-day-fixtures";

/** Built on Monday 11 May at 10:00 JST, in the window of the year ended March 2026. */
const EVENING = jst("2026-05-11T10:00:00");

/** A company's annual answer (latest 2025/03, the year ended March 2026 not in it yet). */
function answerOf(code: string) {
  return {
    entry: {
      body: { periods: [{ fiscal_year: "2024/03" }, { fiscal_year: "2025/03" }] },
      storedAt: EVENING,
    },
    params: { security_code: code, period: "annual", years: 30 },
  };
}

/** Two companies' answers read through one registry of results days; `decided` counts decisions. */
function twoCompanies() {
  const queued = new Map<string, () => Promise<void>>();
  // The client's one map of work under way, as client.ts hands it over.
  const work = new InFlightRequests();
  const days = new ResultsDays({
    securityOf: () => undefined,
    stored: async () => undefined,
    // Kept, not run: the test runs a company's history fetch when it wants it learned.
    queue: (company, _key, fetch) => void queued.set(company, () => fetch(() => undefined)),
    // The results-day history of each company: results on 25 May a year earlier (the same for both).
    // Only `disclosures` is read of it (results-day.ts dailyChecksFrom).
    fetch: async () =>
      ({
        disclosures: [
          {
            source: "tdnet",
            title: "2025年3月期 決算短信〔日本基準〕(連結)",
            document_type: null,
            filing_date: "2025-05-25",
            disclosed_at: null,
          },
        ],
      }) as unknown as ResponseOf<"listSecurityDisclosures">,
    learned: (company) => lifetimesMoved(company),
    share: (key, start) => work.begin(key, start).answer,
  });
  const known: CompanyKnowledge = new CodeRegistry().knowledge("key");
  known.dailyChecksFrom = (company, period) => days.dailyChecksFrom("key", company, period);
  const decided = new Map<string, number>();
  const answers = new Map(["7203", "6758"].map((code) => [code, answerOf(code)]));
  const read = (code: string) => {
    const { entry, params } = answers.get(code)!;
    return entryLifetime(entry, "getFinancials", params, 1_000, () => {
      decided.set(code, (decided.get(code) ?? 0) + 1);
      return known;
    });
  };
  return { days, queued, decided, read };
}

test("a results day learned for one company decides its answers again, not another company's", async () => {
  const { days, queued, decided, read } = twoCompanies();
  expect(read("7203")).toMatchObject({ awaits: MARCH_2026, provisional: true });
  expect(read("6758")).toMatchObject({ awaits: MARCH_2026, provisional: true });
  // A recalculation reads each answer once per cell: decided once.
  for (let i = 0; i < 1_000; i += 1) read("7203");
  expect(Object.fromEntries(decided)).toEqual({ "7203": 1, "6758": 1 });
  // 7203's look-up: its day meanwhile (daily from the period's end) is learned, its history queued.
  await days.lookUp("key", "7203", MARCH_2026, "7203");
  expect(read("7203").provisional).toBeUndefined();
  read("6758");
  read("7203");
  expect(Object.fromEntries(decided)).toEqual({ "7203": 2, "6758": 1 });
  // 6758's look-up moves only 6758's.
  await days.lookUp("key", "6758", MARCH_2026, "6758");
  read("7203");
  read("6758");
  expect(Object.fromEntries(decided)).toEqual({ "7203": 2, "6758": 2 });
  // 7203's history arrives with an expected day: 7203's lifetime moves, 6758's stays decided.
  const before = read("7203").freshUntil;
  await queued.get("7203")!();
  const after = read("7203");
  read("6758");
  expect(Object.fromEntries(decided)).toEqual({ "7203": 3, "6758": 2 });
  expect(after.freshUntil).not.toBe(before);
  // Every company's days changed (the results-day code failed to load): all decided again.
  lifetimesMoved();
  read("7203");
  read("6758");
  expect(Object.fromEntries(decided)).toEqual({ "7203": 4, "6758": 3 });
});

test("a look-up settling on the day already known decides nothing again", async () => {
  const { days, queued, decided, read } = twoCompanies();
  read("7203");
  await days.lookUp("key", "7203", MARCH_2026, "7203");
  read("7203");
  await queued.get("7203")!();
  read("7203");
  const once = decided.get("7203");
  // The same history fetched again (a second session's look-up settling the same day).
  await queued.get("7203")!();
  read("7203");
  expect(decided.get("7203")).toBe(once);
});

test("a year end learned from a company's financials decides its dividends again", () => {
  const known = new CodeRegistry().knowledge("key");
  const t = jst("2027-01-20T18:00:00");
  let decided = 0;
  const dividends = { body: { records: [{ fiscal_year: 2025 }] }, storedAt: t };
  const read = () =>
    entryLifetime(dividends, "getDividends", { edinet_code: "E09999" }, 1_000, () => {
      decided += 1;
      return known;
    });
  // No year end known: taken as March, so FY 2026/03's results are not expected yet.
  expect(read().changeExpected).toBe(false);
  const financials = {
    body: { edinet_code: "E09999", periods: [{ fiscal_year: "2025/12" }] },
    storedAt: t,
  };
  entryLifetime(financials, "getFinancials", { edinet_code: "E09999" }, 1_000, () => known);
  // December: FY 2026/12 ended and its window is open.
  expect(read().changeExpected).toBe(true);
  read();
  expect(decided).toBe(2);
});
