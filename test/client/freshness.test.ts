// The freshness rule: filing windows from the company's own periods, the weekly slot, the close.

import {
  MAX_AGE_MS,
  MIN_AGE_MS,
  EARLY_WINDOW_CHECK_DAYS,
  windowCheckDay,
  lifetimeOf,
  maxAgeSlot,
  nextClose,
  type AnswerFacts,
} from "../../src/client/freshness";
import { CodeRegistry } from "../../src/client/code-map";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** An instant given as JST wall time. */
const jst = (iso: string): number => Date.parse(`${iso}+09:00`);

/** The client's registry of what answers said (code pairs, year ends), fresh for each test. */
let registry = new CodeRegistry();
beforeEach(() => (registry = new CodeRegistry()));

function facts(partial: Partial<AnswerFacts> & Pick<AnswerFacts, "operationId">): AnswerFacts {
  return {
    params: {},
    body: {},
    storedAt: jst("2026-11-20T18:00:00"),
    ttlMs: 1000,
    known: registry.knowledge("key"),
    ...partial,
  };
}

/** A /financials answer with these rows ("2027/03 Q2" or "2026/03"); no EDINET code, so the
 * company is the security code asked. */
function financials(rows: string[]) {
  return {
    periods: rows.map((r) => {
      const [fiscal_year, quarter] = r.split(" ");
      return quarter === undefined ? { fiscal_year } : { fiscal_year, quarter };
    }),
  };
}

const quarterly = (storedAt: number, rows: string[], code = "7203") =>
  lifetimeOf(
    facts({
      operationId: "getFinancials",
      params: { security_code: code, period: "quarterly", years: 30 },
      body: financials(rows),
      storedAt,
    }),
  );

const annual = (storedAt: number, rows: string[], extra: Record<string, unknown> = {}) =>
  lifetimeOf(
    facts({
      operationId: "getFinancials",
      params: { security_code: "7203", period: "annual", years: 30, ...extra },
      body: financials(rows),
      storedAt,
    }),
  );

describe("weekly slot (the maximum age, spread per company)", () => {
  test("a company's slot is at least a day and at most eight days after the answer arrived", () => {
    const t = jst("2026-11-20T18:00:00");
    for (const code of ["7203", "6758", "E02144", "9984", "130A"]) {
      const slot = maxAgeSlot(code, t);
      expect(slot - t).toBeGreaterThanOrEqual(MIN_AGE_MS);
      expect(slot - t).toBeLessThan(MIN_AGE_MS + MAX_AGE_MS);
    }
  });

  test("the slot is the same instant of the week every week, whenever the answer arrived", () => {
    const first = maxAgeSlot("7203", jst("2026-11-20T18:00:00"));
    const later = maxAgeSlot("7203", first + 3 * HOUR);
    expect(later - first).toBe(MAX_AGE_MS);
    expect(maxAgeSlot("7203", jst("2026-11-20T18:00:00"))).toBe(first);
  });

  test("700 companies fetched together fall due spread over the week, none more than twice the average a day", () => {
    const t = jst("2026-11-20T18:00:00");
    const perDay = new Array<number>(9).fill(0);
    for (let i = 0; i < 700; i += 1) {
      const slot = maxAgeSlot(String(1300 + i * 7), t);
      const day = Math.floor((slot - t) / DAY);
      perDay[day] = (perDay[day] ?? 0) + 1;
    }
    expect(perDay[0]).toBe(0); // never within the first day
    for (const n of perDay) expect(n).toBeLessThanOrEqual(200);
    expect(perDay.filter((n) => n > 0).length).toBeGreaterThanOrEqual(7);
  });
});

describe("filing calendar from the answer's own periods", () => {
  test("quarterly results in hand and the next quarter not ended: fresh until the weekly slot, no change expected", () => {
    const t = jst("2026-11-20T18:00:00"); // March company, Q2 (to September) already filed
    const life = quarterly(t, ["2027/03 Q1", "2027/03 Q2"]);
    expect(life.freshUntil).toBe(maxAgeSlot("7203", t));
    expect(life.changeExpected).toBe(false);
    expect(life.company).toBe("7203");
  });

  test("the quarter ends before the slot: fresh until the company's first check day in the window, then a change is expected", () => {
    const t = jst("2026-12-29T18:00:00");
    const quarterEnd = jst("2027-01-01T00:00:00");
    // A company whose weekly slot falls after its first check day.
    const code = ["6758", "7203", "9984", "8306", "4063"].find(
      (c) => maxAgeSlot(c, t) > quarterEnd + 3 * DAY,
    );
    expect(code).toBeDefined();
    const life = quarterly(t, ["2027/03 Q1", "2027/03 Q2"], code);
    // Nothing is filed on the day a quarter ends: one to three days later, by the company.
    expect(life.freshUntil).toBe(
      windowCheckDay(code as string, quarterEnd, quarterEnd, quarterEnd + 45 * DAY),
    );
    expect(life.freshUntil).toBeGreaterThan(quarterEnd);
    expect(life.freshUntil).toBeLessThanOrEqual(quarterEnd + 3 * DAY);
    expect(life.changeExpected).toBe(true);
  });

  test("a model's companies are not all due the morning after a quarter ends", () => {
    const t = jst("2026-12-29T18:00:00");
    const quarterEnd = jst("2027-01-01T00:00:00");
    const due = new Map<number, number>();
    for (let i = 0; i < 300; i += 1) {
      const life = quarterly(t, ["2027/03 Q1", "2027/03 Q2"], `${1300 + i * 7}`);
      if (!life.changeExpected) continue; // its weekly slot comes first
      due.set(life.freshUntil, (due.get(life.freshUntil) ?? 0) + 1);
    }
    const days = [...due.keys()].sort((a, b) => a - b);
    expect(days).toEqual([quarterEnd + DAY, quarterEnd + 2 * DAY, quarterEnd + 3 * DAY]);
    const most = Math.max(...due.values());
    const all = [...due.values()].reduce((a, b) => a + b, 0);
    expect(most).toBeLessThan(all / 2); // about a third each
  });

  test("a quarter ended and its 45-day window open without it in the answer: asked again on the company's next check day", () => {
    const t = jst("2027-01-10T18:00:00"); // Q3 to December ended, not filed yet: day 10 of 45
    const life = quarterly(t, ["2027/03 Q1", "2027/03 Q2"]);
    const quarterEnd = jst("2027-01-01T00:00:00");
    expect(life.freshUntil).toBe(windowCheckDay("7203", t, quarterEnd, quarterEnd + 45 * DAY));
    expect([11, 12, 13].map((d) => jst(`2027-01-${d}T00:00:00`))).toContain(life.freshUntil);
    expect(life.changeExpected).toBe(true);
  });

  test("in the window's second half an unfiled company is asked again every JST day", () => {
    const t = jst("2027-02-01T18:00:00"); // day 31 of 45
    for (const code of ["7203", "6758", "130A"]) {
      const life = quarterly(t, ["2027/03 Q1", "2027/03 Q2"], code);
      expect(life.freshUntil).toBe(jst("2027-02-02T00:00:00"));
      expect(life.changeExpected).toBe(true);
    }
  });

  test("in a window's first half a company is checked every third JST day, on a day of its own, whenever its answer was stored", () => {
    expect(EARLY_WINDOW_CHECK_DAYS).toBe(3);
    const opened = jst("2027-01-01T00:00:00");
    const closes = opened + 90 * DAY;
    for (const code of ["7203", "6758", "130A", "E02144", "9984"]) {
      // The days a company is due, found from answers stored at every hour of three weeks.
      const due = new Set<number>();
      for (let h = 0; h < 21 * 24; h += 1) {
        const t = opened + h * HOUR + 30 * 60_000;
        const at = windowCheckDay(code, t, opened, closes);
        // A JST midnight, after t, at most three days after it.
        expect(new Date(at + 9 * HOUR).toISOString().slice(11)).toBe("00:00:00.000Z");
        expect(at).toBeGreaterThan(t);
        expect(at - t).toBeLessThanOrEqual(3 * DAY);
        due.add(at);
      }
      const days = [...due].sort((a, b) => a - b);
      for (let i = 1; i < days.length; i += 1)
        expect((days[i] as number) - (days[i - 1] as number)).toBe(3 * DAY);
    }
  });

  test("in a window's first half the companies of a model are split between three check days", () => {
    const t = jst("2027-01-10T18:00:00");
    const opened = jst("2027-01-01T00:00:00");
    const counts = new Map<number, number>();
    for (let i = 0; i < 600; i += 1) {
      const code = `E${String(10000 + i * 37).padStart(5, "0")}`;
      const at = windowCheckDay(code, t, opened, opened + 45 * DAY);
      counts.set(at, (counts.get(at) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual(
      [11, 12, 13].map((d) => jst(`2027-01-${d}T00:00:00`)),
    );
    for (const n of counts.values()) expect(n).toBeGreaterThan(150); // about 200 each
  });

  test("the quarter arrived: its window no longer counts", () => {
    const t = jst("2027-01-10T18:00:00");
    const life = quarterly(t, ["2027/03 Q1", "2027/03 Q2", "2027/03 Q3"]);
    expect(life.freshUntil).toBe(maxAgeSlot("7203", t));
    expect(life.changeExpected).toBe(false);
  });

  test("a window closed 45 days after the quarter without it (a late filer): back to the weekly slot", () => {
    const t = jst("2027-02-16T18:00:00");
    const life = quarterly(t, ["2027/03 Q1", "2027/03 Q2"]);
    expect(life.freshUntil).toBe(maxAgeSlot("7203", t));
    expect(life.changeExpected).toBe(false);
  });

  test("annual answers wait for the year end; its window is three months (the annual report)", () => {
    expect(annual(jst("2027-01-10T18:00:00"), ["2025/03", "2026/03"]).changeExpected).toBe(false);
    // Day 81 of the annual report's three months: the second half, asked again daily.
    const inWindow = annual(jst("2027-06-20T18:00:00"), ["2025/03", "2026/03"]);
    expect(inWindow.freshUntil).toBe(jst("2027-06-21T00:00:00"));
    expect(inWindow.changeExpected).toBe(true);
    const closed = annual(jst("2027-07-02T18:00:00"), ["2025/03", "2026/03"]);
    expect(closed.changeExpected).toBe(false);
  });

  test("a December company is read from its own year ends: its window opens in January, not April", () => {
    const january = annual(jst("2027-01-20T18:00:00"), ["2024/12", "2025/12"]);
    expect(january.changeExpected).toBe(true); // FY 2026/12 ended, window open
    const april = annual(jst("2026-04-10T18:00:00"), ["2025/12"]);
    expect(april.changeExpected).toBe(false); // March companies' window: not this company's
  });

  test("a company that moved its year end from March to December is read from its latest period", () => {
    // Transitional nine-month year 2026/12 after 2026/03: the next year end is 2027/12.
    const t = jst("2027-04-15T18:00:00");
    const life = annual(t, ["2025/03", "2026/03", "2026/12"]);
    expect(life.changeExpected).toBe(false);
    expect(life.freshUntil).toBe(maxAgeSlot("7203", t));
  });

  test("an older window (as_of) can receive no new period: only the weekly slot", () => {
    const t = jst("2027-06-20T18:00:00");
    const life = annual(t, ["2019/03", "2020/03"], { as_of: "2020/03" });
    expect(life.changeExpected).toBe(false);
    expect(life.freshUntil).toBe(maxAgeSlot("7203", t));
  });

  test("segments, valuations and dividends follow the same calendar", () => {
    const t = jst("2027-06-20T18:00:00");
    const seg = lifetimeOf(
      facts({
        operationId: "getSegments",
        params: { edinet_code: "E00001" },
        body: { segments: [{ fiscal_year: "2026/03", quarter: null }] },
        storedAt: t,
      }),
    );
    expect(seg.changeExpected).toBe(true);
    const val = lifetimeOf(
      facts({
        operationId: "getValuations",
        params: { security_code: "7203" },
        body: { history: [{ fiscal_year: "2027/03" }, { fiscal_year: "2026/03" }] },
        storedAt: t,
      }),
    );
    expect(val.changeExpected).toBe(false);
  });

  test("dividends take the year-end month learned from the company's other answers", () => {
    const t = jst("2027-01-20T18:00:00");
    lifetimeOf(
      facts({
        operationId: "getFinancials",
        params: { edinet_code: "E09999", period: "annual" },
        body: { edinet_code: "E09999", periods: [{ fiscal_year: "2025/12" }] },
        storedAt: t,
      }),
    );
    const december = lifetimeOf(
      facts({
        operationId: "getDividends",
        params: { edinet_code: "E09999" },
        body: { records: [{ fiscal_year: 2025 }] },
        storedAt: t,
      }),
    );
    expect(december.changeExpected).toBe(true); // FY 2026/12 ended in its window
    const unknown = lifetimeOf(
      facts({
        operationId: "getDividends",
        params: { edinet_code: "E08888" },
        body: { records: [{ fiscal_year: 2026 }] },
        storedAt: t,
      }),
    );
    expect(unknown.changeExpected).toBe(false); // taken as March: FY 2027/03 not ended
    // Another key's answers taught nothing: its dividends are read as March.
    const otherKey = lifetimeOf(
      facts({
        operationId: "getDividends",
        params: { edinet_code: "E09999" },
        body: { records: [{ fiscal_year: 2025 }] },
        storedAt: t,
        known: registry.knowledge("another key"),
      }),
    );
    expect(otherKey.changeExpected).toBe(false);
  });

  test("an answer without periods (nothing filed) is checked on the weekly slot", () => {
    const t = jst("2027-01-20T18:00:00");
    expect(quarterly(t, []).freshUntil).toBe(maxAgeSlot("7203", t));
  });
});

test("a company asked by security code and by EDINET code is one company (one slot)", () => {
  const t = jst("2026-11-20T18:00:00");
  // The client learns the pair from the dividends answer (code-map.ts codePairsIn).
  registry.learn("key", "1111", "E07777");
  const byEdinet = lifetimeOf(
    facts({
      operationId: "getDividends",
      params: { edinet_code: "E07777" },
      body: { edinet_code: "E07777", security_code: "1111", records: [] },
      storedAt: t,
    }),
  );
  const bySecurity = lifetimeOf(
    facts({
      operationId: "getValuations",
      params: { security_code: "1111" },
      body: {},
      storedAt: t,
    }),
  );
  expect(byEdinet.company).toBe("E07777");
  expect(bySecurity.company).toBe("E07777");
  expect(bySecurity.freshUntil).toBe(maxAgeSlot("E07777", t));
});

describe("prices", () => {
  const prices = (storedAt: number, params: Record<string, unknown>) =>
    lifetimeOf(facts({ operationId: "getPrices", params: { code: "7203", ...params }, storedAt }));

  test("latest prices are fresh until the next close, 15:30 JST on a weekday", () => {
    const morning = prices(jst("2026-11-20T09:00:00"), {}); // a Friday
    expect(morning.freshUntil).toBe(jst("2026-11-20T15:30:00"));
    expect(morning.changeExpected).toBe(true);
    expect(prices(jst("2026-11-20T18:00:00"), {}).freshUntil).toBe(jst("2026-11-23T15:30:00"));
    expect(prices(jst("2026-11-21T10:00:00"), {}).freshUntil).toBe(jst("2026-11-23T15:30:00"));
  });

  test("the exchange's year-end holidays have no close", () => {
    expect(nextClose(jst("2026-12-30T16:00:00"))).toBe(jst("2027-01-04T15:30:00"));
  });

  test("a range reaching today counts as latest; a range of closed days waits for the weekly slot", () => {
    const t = jst("2026-11-20T09:00:00");
    expect(prices(t, { to: "2026-11-20" }).freshUntil).toBe(jst("2026-11-20T15:30:00"));
    const closed = prices(t, { from: "2025-01-01", to: "2025-12-31" });
    expect(closed.freshUntil).toBe(maxAgeSlot("7203", t));
    expect(closed.changeExpected).toBe(false);
  });
});

test("operations off the calendar keep their plain TTL", () => {
  const t = jst("2026-11-20T09:00:00");
  const life = lifetimeOf(facts({ operationId: "getRankings", storedAt: t, ttlMs: 60_000 }));
  expect(life).toEqual({ freshUntil: t + 60_000, changeExpected: false, company: undefined });
});
