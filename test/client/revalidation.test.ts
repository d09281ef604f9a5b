// Stale-while-revalidate: due answers answer at once; the background asks again company by company.

import { createClient } from "../../src/client/client";
import { isStale } from "../../src/client/stale";
import { maxAgeSlot } from "../../src/client/freshness";
import { MemoryCacheStore } from "../../src/client/cache";
import { storedLedger } from "../../src/revalidation-budget";
import { TEST_KEY, recordingFetch, reply, revalidatingClient } from "./helpers";
import { pricesToLatest } from "../../src/domain/network-rules";
import { widestFinancials } from "../../src/domain/financials-window";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Thursday 2026-01-15 10:00 JST. */
const T0 = Date.UTC(2026, 0, 15, 1, 0);
const ATTRIBUTION = { source_label: "x", license_note: "x", processed_by: "x" };

/** Rows of a /financials answer ("2025/03" annual, "2026/03 Q2" quarterly). */
function financials(rows: string[], sales = 1) {
  return {
    fields: [],
    edinet_code: "E02144",
    periods: rows.map((r) => {
      const [fiscal_year, quarter] = r.split(" ");
      return { fiscal_year, ...(quarter ? { quarter } : {}), sales };
    }),
    reason: null,
    attribution: ATTRIBUTION,
  };
}

/** The API as these tests see it: answers by path, changeable between calls. */
function setup(options: { dailyBudget?: number; settleMs?: number } = {}) {
  const answers = {
    quarterly: financials(["2026/03 Q1", "2026/03 Q2", "2026/03 Q3"]),
    annual: financials(["2024/03", "2025/03"]),
    dividends: {
      fields: [],
      edinet_code: "E02144",
      security_code: "7203",
      records: [{ fiscal_year: 2025, source_refs: [] }],
      reason: null,
      attribution: ATTRIBUTION,
    },
    prices: {
      fields: [],
      code: "7203",
      prices: [],
      next_cursor: null,
      reason: null,
      attribution: ATTRIBUTION,
    },
  };
  const rec = recordingFetch((req) => {
    if (req.url.includes("/dividends")) return reply(200, answers.dividends);
    if (req.url.includes("/prices")) return reply(200, answers.prices);
    if (req.url.includes("period=quarterly")) return reply(200, answers.quarterly);
    return reply(200, answers.annual);
  });
  let now = T0;
  const client = revalidatingClient(rec.fetch, () => now, {
    maxRetries: 0,
    revalidationSettleMs: options.settleMs ?? 0,
  });
  if (options.dailyBudget !== undefined) client.revalidation().setDailyBudget(options.dailyBudget);
  const recalculated: string[] = [];
  client.revalidation().onRecalculate((a) => recalculated.push(...a));
  const cell = (address: string) => ({ stale: false, address });
  return {
    answers,
    rec,
    client,
    recalculated,
    cell,
    advance: (ms: number) => (now += ms),
    /** Past the company's weekly slot (by its EDINET code): every filing answer is due. */
    pastSlot: () => (now = maxAgeSlot("E02144", now) + HOUR),
    sent: () => rec.requests.map((r) => r.url.replace(/^.*\/v1/, "")),
  };
}

async function askAll(
  client: ReturnType<typeof setup>["client"],
  sink?: { stale: boolean; address: string },
) {
  const o = sink ? { staleSink: sink } : {};
  await widestFinancials(client, { security_code: "7203", period: "quarterly" }, o);
  await widestFinancials(client, { security_code: "7203", period: "annual" }, o);
  await client.dividends({ edinet_code: "E02144" }, o);
}

test("a due answer answers at once from the cache; the request runs behind it, once", async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const rec = recordingFetch(async (_req, index) => {
    if (index > 0) await gate; // the background request is held until the test lets it go
    return reply(200, financials(["2024/03", "2025/03"]));
  });
  let now = T0;
  const client = revalidatingClient(rec.fetch, () => now);
  const first = await widestFinancials(client, { security_code: "7203" });
  now = maxAgeSlot("E02144", now) + HOUR;
  const served = await widestFinancials(client, { security_code: "7203" });
  expect(served).toEqual(first); // answered before the request was even sent
  await new Promise((r) => setImmediate(r));
  expect(rec.requests).toHaveLength(2); // the background request, held
  expect(client.revalidation().status()).toMatchObject({ inFlight: 1 });
  release();
  await client.revalidation().idle();
  await widestFinancials(client, { security_code: "7203" });
  expect(rec.requests).toHaveLength(2); // fresh again: no third request
});

test("a company that filed nothing costs one request: its other answers are kept without asking", async () => {
  const h = setup();
  await askAll(h.client);
  h.rec.requests.length = 0;
  h.pastSlot();
  await askAll(h.client, h.cell("Sheet1!B2"));
  await h.client.revalidation().idle();
  expect(h.sent()).toEqual(["/financials?period=quarterly&security_code=7203&years=30"]);
  await askAll(h.client);
  expect(h.rec.requests).toHaveLength(1);
  expect(h.recalculated).toEqual([]); // nothing changed, nothing was marked
});

test("cells arriving over the open (annual first, quarterly later) still cost the company one request", async () => {
  // The add-in waits REVALIDATION_SETTLE_MS of no due reads; a short wait keeps the test quick.
  const h = setup({ settleMs: 50 });
  await askAll(h.client);
  h.rec.requests.length = 0;
  h.pastSlot();
  const sink = h.cell("Comps!B2");
  await widestFinancials(
    h.client,
    { security_code: "7203", period: "annual" },
    { staleSink: sink },
  );
  await new Promise((r) => setTimeout(r, 30));
  await h.client.dividends({ edinet_code: "E02144" }, { staleSink: sink });
  await new Promise((r) => setTimeout(r, 30));
  await widestFinancials(
    h.client,
    { security_code: "7203", period: "quarterly" },
    { staleSink: sink },
  );
  await h.client.revalidation().idle();
  expect(h.sent()).toEqual(["/financials?period=quarterly&security_code=7203&years=30"]);
});

test("an answer kept by its check is fresh again: asking it later queues nothing and sends nothing", async () => {
  const h = setup();
  await askAll(h.client);
  h.pastSlot();
  await askAll(h.client);
  await h.client.revalidation().idle();
  h.rec.requests.length = 0;
  h.advance(HOUR);
  await askAll(h.client);
  await h.client.revalidation().idle();
  expect(h.rec.requests).toHaveLength(0);
  expect(h.client.revalidation().status()).toMatchObject({ requests: 0, inFlight: 0 });
});

test("a company whose check found a change has its other due answers asked too; their cells are recalculated", async () => {
  const h = setup();
  await askAll(h.client);
  h.rec.requests.length = 0;
  h.pastSlot();
  h.answers.quarterly = financials(["2026/03 Q1", "2026/03 Q2", "2026/03 Q3"], 2); // a correction
  h.answers.annual = financials(["2024/03", "2025/03"], 2);
  await widestFinancials(
    h.client,
    { security_code: "7203", period: "quarterly" },
    { staleSink: h.cell("Q!A1") },
  );
  await widestFinancials(
    h.client,
    { security_code: "7203", period: "annual" },
    { staleSink: h.cell("A!A1") },
  );
  await h.client.dividends({ edinet_code: "E02144" }, { staleSink: h.cell("D!A1") });
  await h.client.revalidation().idle();
  expect(h.rec.requests).toHaveLength(3);
  expect(h.recalculated.sort()).toEqual(["A!A1", "Q!A1"]); // dividends came back the same
  expect(h.client.revalidation().status().changed).toBe(2);
});

test("an answer whose data can have changed (a window open) is marked stale until revalidated, then its cell is recalculated", async () => {
  const h = setup();
  // Quarterly answer lacking the quarter to December, asked on 15 January: its window is open.
  h.answers.quarterly = financials(["2026/03 Q1", "2026/03 Q2"]);
  await widestFinancials(h.client, { security_code: "7203", period: "quarterly" });
  // Day 15 of the 45: the company is checked every third day (freshness.ts windowCheckDay).
  h.advance(3 * DAY);
  const sink = h.cell("Sheet1!C3");
  const body = await widestFinancials(
    h.client,
    { security_code: "7203", period: "quarterly" },
    {
      staleSink: sink,
    },
  );
  expect(isStale(body)).toBe(true);
  expect(sink.stale).toBe(true);
  await h.client.revalidation().idle();
  expect(h.recalculated).toEqual(["Sheet1!C3"]);
  const again = await widestFinancials(h.client, { security_code: "7203", period: "quarterly" });
  expect(isStale(again)).toBe(false);
});

test("an answer only at its weekly check is served unmarked", async () => {
  const h = setup();
  await askAll(h.client);
  h.pastSlot();
  const sink = h.cell("Sheet1!B2");
  const body = await widestFinancials(
    h.client,
    { security_code: "7203", period: "annual" },
    {
      staleSink: sink,
    },
  );
  expect(isStale(body)).toBe(false);
  expect(sink.stale).toBe(false);
});

test("latest prices are asked again after the close, in the background", async () => {
  const h = setup();
  await h.client.prices({ code: "7203" });
  h.advance(6 * HOUR); // 16:00 JST
  const body = await h.client.prices({ code: "7203" });
  expect(isStale(body)).toBe(true);
  await h.client.revalidation().idle();
  expect(h.rec.requests).toHaveLength(2);
});

test("the daily budget stops background requests; at the next JST midnight sending restarts by itself", async () => {
  // The queue's status is pushed by microtasks (idle() waits on them): only timers are faked.
  jest.useFakeTimers({ doNotFake: ["queueMicrotask", "nextTick", "setImmediate"] });
  try {
    const h = setup({ dailyBudget: 1 });
    await h.client.prices({ code: "7203" });
    await h.client.prices({ code: "6758" });
    h.rec.requests.length = 0;
    h.advance(6 * HOUR); // 16:00 JST: both latest prices are due
    await h.client.prices({ code: "7203" });
    await h.client.prices({ code: "6758" });
    await h.client.revalidation().idle();
    expect(h.rec.requests).toHaveLength(1);
    const status = h.client.revalidation().status();
    expect(status).toMatchObject({ paused: "budget", spentToday: 1, companies: 1, requests: 1 });
    // A minute before JST midnight nothing moves; nobody touches the queue.
    h.advance(8 * HOUR - 60_000);
    await jest.advanceTimersByTimeAsync(8 * HOUR - 60_000);
    expect(h.rec.requests).toHaveLength(1);
    h.advance(60_000); // 00:00 JST: a new day, a new budget
    await jest.advanceTimersByTimeAsync(60_000);
    await h.client.revalidation().idle();
    expect(h.rec.requests).toHaveLength(2);
    // The new day's count: the one request sent since midnight; nothing left waiting.
    expect(h.client.revalidation().status()).toMatchObject({ spentToday: 1, companies: 0 });
  } finally {
    jest.useRealTimers();
  }
});

test("without a budget set, 800 background requests a day; null is no limit", () => {
  const h = setup();
  expect(h.client.revalidation().status().dailyBudget).toBe(800);
  h.client.revalidation().setDailyBudget(null);
  expect(h.client.revalidation().status().dailyBudget).toBeUndefined();
  h.client.revalidation().setDailyBudget(undefined);
  expect(h.client.revalidation().status().dailyBudget).toBe(800);
});

test("requests spent today are kept: a same-day reopen continues the count, the next day starts at 0", async () => {
  const kept = new Map<string, string>();
  const storage = {
    getItem: (k: string) => kept.get(k) ?? null,
    setItem: (k: string, v: string) => void kept.set(k, v),
    removeItem: (k: string) => void kept.delete(k),
  } as unknown as Storage;
  const rec = recordingFetch((req) =>
    reply(200, {
      fields: [],
      code: new URL(req.url).searchParams.get("code"),
      prices: [],
      next_cursor: null,
      reason: null,
      attribution: ATTRIBUTION,
    }),
  );
  let now = T0;
  // Each open of the workbook: a new client (a new runtime) reading this computer's storage.
  const open = () =>
    revalidatingClient(rec.fetch, () => now, {
      cacheStore: store,
      revalidationDailyBudget: 2,
      revalidationLedger: storedLedger(storage),
    });
  const store = new MemoryCacheStore();
  const first = open();
  for (const code of ["7203", "6758", "9984"]) await first.prices({ code });
  now += 6 * HOUR; // 16:00 JST: all three due
  for (const code of ["7203", "6758"]) await first.prices({ code });
  await first.revalidation().idle();
  expect(first.revalidation().status().spentToday).toBe(2);
  rec.requests.length = 0;
  // Reopened an hour later, the same JST day: the budget of 2 is already spent.
  now += HOUR;
  const second = open();
  await second.prices({ code: "9984" });
  await second.revalidation().idle();
  expect(rec.requests).toHaveLength(0);
  expect(second.revalidation().status()).toMatchObject({ paused: "budget", spentToday: 2 });
  second.revalidation().cancel();
  // Reopened the next morning: a new day starts at 0.
  now += DAY;
  const third = open();
  expect(third.revalidation().status()).toMatchObject({ spentToday: 0, paused: undefined });
  await third.prices({ code: "9984" });
  await third.revalidation().idle();
  expect(rec.requests).toHaveLength(1);
  expect(third.revalidation().status().spentToday).toBe(1);
});

test("a re-based price window counts every page it sends against the budget", async () => {
  const row = (date: string, adj: number) => ({ date, close: 1000, adj_close: adj });
  let basis = 1000; // adj_close of every row: a split re-bases the whole window
  const pageBody = (rows: ReturnType<typeof row>[], next: string | null) => ({
    fields: [],
    code: "7203",
    prices: rows,
    next_cursor: next,
    reason: null,
    attribution: ATTRIBUTION,
  });
  const rec = recordingFetch((req) => {
    const q = new URL(req.url).searchParams;
    const cursor = q.get("cursor");
    if (q.get("from") === "2026-01-14" && cursor === null)
      return reply(200, pageBody([row("2026-01-15", basis), row("2026-01-14", basis)], null));
    // The whole window from 2026-01-05: three pages.
    if (cursor === null) return reply(200, pageBody([row("2026-01-14", basis)], "p2"));
    if (cursor === "p2") return reply(200, pageBody([row("2026-01-13", basis)], "p3"));
    return reply(200, pageBody([row("2026-01-05", basis)], null));
  });
  let now = Date.UTC(2026, 0, 14, 8, 0); // 17:00 JST on the 14th, after the close
  const client = revalidatingClient(rec.fetch, () => now);
  await pricesToLatest(client, "7203", "2026-01-05", {});
  expect(rec.requests).toHaveLength(3);
  rec.requests.length = 0;
  now += DAY; // the 15th after the close: due; a split re-based every row
  basis = 500;
  await pricesToLatest(client, "7203", "2026-01-05", {});
  await client.revalidation().idle();
  // One request from the last stored day found another basis, then the window's three pages.
  expect(rec.requests).toHaveLength(4);
  expect(client.revalidation().status().spentToday).toBe(4);
});

test("Refresh all empties the background queue: nothing it held is sent again after the refetch", async () => {
  const h = setup();
  await askAll(h.client);
  await h.client.prices({ code: "7203" });
  await h.client.prices({ code: "6758" });
  h.pastSlot();
  h.advance(6 * HOUR);
  const r = h.client.revalidation();
  r.pause(); // the queue holds the due answers as a morning open's would, while Refresh all runs
  await askAll(h.client, h.cell("Sheet1!B2"));
  await h.client.prices({ code: "7203" });
  await h.client.prices({ code: "6758" });
  // Two companies (7203's prices join its filing answers): its check and two price pages.
  expect(r.status()).toMatchObject({ companies: 2, requests: 3 });
  h.rec.requests.length = 0;
  await h.client.invalidateAll();
  expect(r.status()).toMatchObject({ companies: 0, requests: 0 });
  // The cells ask everything anew (one request per answer), then the queue resumes: nothing left.
  await askAll(h.client);
  await h.client.prices({ code: "7203" });
  await h.client.prices({ code: "6758" });
  r.resume();
  await r.idle();
  expect(h.rec.requests).toHaveLength(5);
  expect(h.sent().filter((u) => u.includes("/prices"))).toHaveLength(2);
  // Not blocked: once due again, the same answers are queued and asked in the background.
  h.advance(DAY);
  await h.client.prices({ code: "7203" });
  await r.idle();
  expect(h.rec.requests).toHaveLength(6);
});

test("pause holds the queue; cancel drops it and nothing is queued again until resumed", async () => {
  const h = setup();
  await h.client.prices({ code: "7203" });
  h.rec.requests.length = 0;
  h.advance(6 * HOUR);
  const r = h.client.revalidation();
  r.pause();
  await h.client.prices({ code: "7203" });
  expect(r.status()).toMatchObject({ paused: "user", companies: 1, requests: 1 });
  expect(h.rec.requests).toHaveLength(0);
  expect(r.cancel()).toBe(1);
  r.resume();
  expect(r.status()).toMatchObject({ paused: undefined, companies: 0, requests: 0 });
  await h.client.prices({ code: "7203" });
  await r.idle();
  expect(h.rec.requests).toHaveLength(1); // resumed: asked again
});

test("the status counts companies and the time left at the pacer's pace", async () => {
  const h = setup();
  await h.client.prices({ code: "7203" });
  await h.client.prices({ code: "6758" });
  await askAll(h.client);
  h.pastSlot();
  const r = h.client.revalidation();
  r.pause();
  await h.client.prices({ code: "7203" });
  await h.client.prices({ code: "6758" });
  await askAll(h.client);
  // Two price pages and one check for the company's three filing answers.
  expect(r.status()).toMatchObject({ companies: 2, requests: 3 });
});

test("Refresh all (cache reload) still asks the API for a fresh answer", async () => {
  const h = setup();
  await askAll(h.client);
  await widestFinancials(
    h.client,
    { security_code: "7203", period: "annual" },
    { cache: "reload" },
  );
  expect(h.rec.requests).toHaveLength(4);
});

test("without staleWhileRevalidate a due answer waits for the API", async () => {
  const rec = recordingFetch(() => reply(200, financials(["2024/03", "2025/03"])));
  let now = T0;
  const client = createClient({
    apiKey: TEST_KEY,
    fetch: rec.fetch,
    ratePerMinute: 0,
    now: () => now,
  });
  await widestFinancials(client, { security_code: "7203" });
  now = maxAgeSlot("E02144", now) + HOUR;
  await widestFinancials(client, { security_code: "7203" });
  expect(rec.requests).toHaveLength(2);
  expect(client.revalidation().status().requests).toBe(0);
});
