// A week inside a filing window: the Model's answers are due again every morning while companies
// have not filed yet, so this is the week that tests the daily budget of the background.

import type { AliasedCompany } from "./company-aliases";
import { runCalendar, type CalendarOpen } from "./calendar-run";
import type { ScaleCompany } from "./scale-cells";

const DAY = 86_400_000;

/**
 * The window's calendar (JST = UTC+9). The quarter ended Wednesday 30 September 2026; its results
 * (決算短信) are due within 45 days; each company is checked daily from its expected results day (its
 * results a year earlier, src/client/results-day.ts), or on the window's cadence where its history
 * predicts nothing (src/client/freshness.ts). Thursday 1 October, 17:00 JST: the evening
 * session (the cold run, nobody's results out yet); then seven mornings at 08:00 JST, Friday 2 to
 * Thursday 8 October, each opening the workbook anew. The sandbox's dataset files on its own dates.
 */
const WINDOW = {
  evening: "2026-10-01T08:00:00Z",
  lastClose: "2026-10-01",
  firstMorning: "2026-10-01T23:00:00Z",
  mornings: 7,
};

/** What the week measured, one entry per morning. */
export interface WindowWeekResult {
  dailyRequests: number[];
  /** Requests left for the next day by the daily budget, per morning. */
  deferred: number[];
  changedAnswers: number[];
  /** Background requests allowed per JST day (the add-in's default), undefined = no limit. */
  dailyBudget: number | undefined;
  /** Real time until the last cell had its value, per morning. @unit s */
  wallSeconds: number[];
  /** Simulated minutes of each morning's background. */
  backgroundMinutes: number[];
  eveningWallSeconds: number;
  eveningSimulatedMinutes: number;
  /** The evening's background after its cold run: the companies' results-day histories. */
  eveningBackgroundRequests: number;
  /** The lowest count of cells with a value at once over the mornings, and the evening's. */
  leastValuesAtOnce: number;
  valuesEvening: number;
}

export async function windowWeek(
  aliased: readonly AliasedCompany[],
  companies: readonly ScaleCompany[],
  pricesFrom: string,
  log: (line: string) => void,
): Promise<WindowWeekResult> {
  log(
    "  a week inside a filing window (1-8 October): evening session (cold), then seven mornings...",
  );
  const first = Date.parse(WINDOW.firstMorning);
  const mornings = Array.from({ length: WINDOW.mornings }, (_, i) =>
    new Date(first + i * DAY).toISOString(),
  );
  const run = await runCalendar(
    { evening: WINDOW.evening, lastClose: WINDOW.lastClose, mornings },
    aliased,
    companies,
    pricesFrom,
  );
  const of = <T>(pick: (o: CalendarOpen) => T): T[] => run.opens.map(pick);
  const result: WindowWeekResult = {
    dailyRequests: of((o) => o.requests),
    deferred: of((o) => o.deferred),
    changedAnswers: of((o) => o.changedAnswers),
    dailyBudget: run.opens[0]?.dailyBudget,
    wallSeconds: of((o) => o.wallSeconds),
    backgroundMinutes: of((o) => o.backgroundMinutes),
    eveningWallSeconds: run.eveningWallSeconds,
    eveningSimulatedMinutes: run.eveningSimulatedMinutes,
    eveningBackgroundRequests: run.eveningBackgroundRequests,
    leastValuesAtOnce: Math.min(...of((o) => o.valuesAtOnce)),
    valuesEvening: run.valuesEvening,
  };
  log(
    `  filing window week: evening background ${result.eveningBackgroundRequests} requests (results-day histories), then ${result.dailyRequests.join(", ")} requests a day; deferred ${result.deferred.join(", ")}; changed ${result.changedAnswers.join(", ")}`,
  );
  return result;
}
