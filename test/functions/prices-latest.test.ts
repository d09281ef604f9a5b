// "Up to latest" PRICES after a close asks only the days since the stored last day (one request per
// company), a split re-asks the whole window, and a weekend or the exchange's year-end asks nothing.
import * as TYPED from "../../functions/index";
import { createApp } from "../../sandbox/app";
import type { KaishaClient, FetchLike } from "../../src/client";
import { setClientForTesting } from "../../src/session";
import { sandboxAnswer, sessionClientOver } from "./session-client";
import { isoToSerial } from "../../src/excel/dates";
import { cellError, invocation, resetSession } from "./harness";

const KAISHA = TYPED as unknown as Record<
  keyof typeof TYPED,
  (...args: unknown[]) => Promise<unknown>
>;

jest.setTimeout(60_000);
afterAll(resetSession);

const CODES = ["7203", "6758"];
/** Five years back: about 1,230 trading days, three pages of 500 (openapi.json getPrices limit). */
const FROM = "2021-11-16";

/** An instant given in JST ("2026-11-17T18:00"). */
function jst(local: string): number {
  return Date.parse(`${local}:00+09:00`);
}

interface World {
  /** Requests that reached the sandbox ("path?query"). */
  sent: string[];
  /** Moves both clocks (the client's and the sandbox's data clock) to `t`. */
  at(t: number): void;
  /** From now on adj_close of every day before `exDate` is halved (a 2-for-1 split). */
  split(exDate: string): void;
  /** Until called again, the row of `day` is sent 10 yen lower (as if received before it was final). */
  provisional(day: string | undefined): void;
  /** The spills of CODES as cells show them (headers 1, every field). */
  spills(): Promise<unknown[][][]>;
  client: KaishaClient;
}

/** A sandbox and a session client on one clock; `swr`: the add-in's stale-while-revalidate mode. */
function world(start: number, swr: boolean): World {
  let now = start;
  const sandbox = createApp({ ratePerMinute: 0, now: new Date(start).toISOString() });
  const sent: string[] = [];
  let exDate: string | undefined;
  let early: string | undefined;
  const fetch: FetchLike = async (url, init) => {
    const u = new URL(url);
    sent.push(`${u.pathname}${u.search}`);
    const res = await sandboxAnswer(sandbox, u, init);
    if ((exDate === undefined && early === undefined) || !u.pathname.endsWith("/prices"))
      return res;
    const body = (await res.json()) as {
      prices: { date: string; close: number | null; adj_close: number | null }[];
    };
    for (const row of body.prices) {
      if (row.close === null || row.adj_close === null) continue;
      if (row.date === early) {
        row.adj_close = Math.round((row.adj_close * (row.close - 10) * 100) / row.close) / 100;
        row.close -= 10;
      }
      // openapi.json SecurityDailyPrice: adj_close is re-based on the latest share basis.
      if (exDate !== undefined && row.date < exDate)
        row.adj_close = Math.round(row.adj_close * 50) / 100;
    }
    return new Response(JSON.stringify(body), { status: res.status, headers: res.headers });
  };
  const client = sessionClientOver(fetch, () => now, swr);
  return {
    sent,
    client,
    at(t) {
      now = t;
      sandbox.setNow(new Date(t).toISOString());
    },
    split(day) {
      exDate = day;
    },
    provisional(day) {
      early = day;
    },
    spills: () =>
      Promise.all(
        CODES.map(
          (code) =>
            KAISHA.PRICES(code, FROM, null, null, "desc", 1, invocation()) as Promise<unknown[][]>,
        ),
      ),
  };
}

/** What a cold client with a new cache shows at `t` (after a split from `exDate` when given). */
async function cold(t: number, exDate?: string): Promise<unknown[][][]> {
  const fresh = world(t, false);
  if (exDate !== undefined) fresh.split(exDate);
  const grids = await fresh.spills();
  expect(fresh.sent).toHaveLength(6);
  return grids;
}

const TUESDAY_EVENING = jst("2026-11-17T18:00");
const THURSDAY_MORNING = jst("2026-11-19T08:00");

describe("PRICES up to latest, the morning after a close", () => {
  test.each([false, true])(
    "one request per company (from the stored last day), the spill equal to a cold request's cell by cell (stale-while-revalidate %s)",
    async (swr) => {
      const w = world(TUESDAY_EVENING, swr);
      const evening = await w.spills();
      // Cold: three pages of 500 per company.
      expect(w.sent).toHaveLength(6);
      expect(evening[0]?.[1]?.[0]).toBe(isoToSerial("2026-11-17"));
      w.sent.length = 0;

      w.at(THURSDAY_MORNING);
      let morning = await w.spills();
      if (swr) {
        // The stored spill answers at once; the background asks the new days.
        await w.client.revalidation().idle();
        morning = await w.spills();
      }
      expect(w.sent).toEqual(
        CODES.map((c) => `/v1/securities/${c}/prices?from=2026-11-17&limit=500`),
      );
      const expected = await cold(THURSDAY_MORNING);
      expect(morning).toEqual(expected);
      // The new days are on top, Tuesday's below them, and every older day as stored.
      expect(morning[0]?.[1]?.[0]).toBeGreaterThan(isoToSerial("2026-11-17") as number);
      expect(morning[0]?.slice(-(evening[0]?.length ?? 0) + 1)).toEqual(evening[0]?.slice(1));

      // Asked again the same morning: nothing.
      await w.spills();
      expect(w.sent).toHaveLength(2);
    },
  );

  test.each([false, true])(
    "a split overnight re-bases adj_close: the whole window is asked again and equals a cold request (stale-while-revalidate %s)",
    async (swr) => {
      const w = world(TUESDAY_EVENING, swr);
      const evening = await w.spills();
      w.sent.length = 0;

      w.at(THURSDAY_MORNING);
      // Ex-rights on Wednesday: every day before it halves its adj_close.
      w.split("2026-11-18");
      let morning = await w.spills();
      if (swr) {
        await w.client.revalidation().idle();
        morning = await w.spills();
      }
      // Per company: the update (from the stored last day), then the whole window's three pages.
      const updates = w.sent.filter((r) => r.includes("from=2026-11-17"));
      expect(updates).toHaveLength(2);
      expect(w.sent.filter((r) => r.includes(`from=${FROM}`))).toHaveLength(6);
      expect(w.sent).toHaveLength(8);
      expect(morning).toEqual(await cold(THURSDAY_MORNING, "2026-11-18"));
      // A day long before the split shows the re-based figure, not the one stored.
      const adjColumn = (evening[0]?.[0] as unknown[]).indexOf("adj_close");
      const oldest = (g: unknown[][] | undefined) => g?.[g.length - 1]?.[adjColumn];
      expect(oldest(morning[0])).toBeCloseTo((oldest(evening[0]) as number) / 2, 1);
    },
  );

  test("a weekend asks nothing: Friday evening's spill is fresh until Monday's close", async () => {
    const w = world(jst("2026-11-13T18:00"), true);
    const friday = await w.spills();
    w.sent.length = 0;
    for (const t of [jst("2026-11-14T10:00"), jst("2026-11-15T20:00"), jst("2026-11-16T08:00")]) {
      w.at(t);
      expect(await w.spills()).toEqual(friday);
    }
    await w.client.revalidation().idle();
    expect(w.sent).toEqual([]);
    // After Monday's close: one request per company.
    w.at(jst("2026-11-16T16:00"));
    await w.spills();
    await w.client.revalidation().idle();
    expect(w.sent).toHaveLength(2);
  });

  test("the exchange's year-end holidays ask nothing (31 December to 3 January)", async () => {
    const w = world(jst("2025-12-30T18:00"), false);
    const last = await w.spills();
    w.sent.length = 0;
    for (const t of [jst("2025-12-31T16:00"), jst("2026-01-02T12:00"), jst("2026-01-03T20:00")]) {
      w.at(t);
      expect(await w.spills()).toEqual(last);
    }
    expect(w.sent).toEqual([]);
  });

  test("the API down in the morning: the stored spill answers, marked stale in its title row", async () => {
    const w = world(TUESDAY_EVENING, false);
    const evening = await w.spills();
    w.at(THURSDAY_MORNING);
    // The first world's client again, with a fetch that fails.
    const client = w.client.withOptions({
      fetch: async () => {
        throw new TypeError("fetch failed");
      },
    });
    setClientForTesting(client, { lang: "en", headerLanguage: "keys" });
    const grid = (await KAISHA.PRICES(
      "7203",
      FROM,
      null,
      null,
      "desc",
      2,
      invocation(),
    )) as unknown[][];
    expect(String(grid[0]?.[1])).toContain("stale");
    expect(grid.slice(1)).toEqual(evening[0]);
  });

  test("a formula still being typed sends nothing for a due spill; Refresh all asks the whole window", async () => {
    const w = world(TUESDAY_EVENING, true);
    await w.spills();
    w.sent.length = 0;
    w.at(THURSDAY_MORNING);
    const typing = await cellError(
      KAISHA.PRICES("7203", FROM, null, null, "desc", 1, invocation({ isInValuePreview: true })),
    );
    expect(typing.code).toBe("#N/A");
    expect(w.sent).toEqual([]);
    await w.client.invalidateAll();
    expect(await w.spills()).toEqual(await cold(THURSDAY_MORNING));
    expect(w.sent).toHaveLength(6);
  });

  test("a last day received before it was final is replaced, on the same basis, with one request", async () => {
    const w = world(TUESDAY_EVENING, false);
    w.provisional("2026-11-17");
    const evening = await w.spills();
    w.provisional(undefined);
    w.sent.length = 0;
    w.at(THURSDAY_MORNING);
    const morning = await w.spills();
    expect(w.sent).toHaveLength(2);
    expect(morning).toEqual(await cold(THURSDAY_MORNING));
    expect(morning[0]).not.toEqual(evening[0]);
  });

  test("a `to` of today (=TODAY()) is up to latest too: the next morning's new today costs one request", async () => {
    const w = world(TUESDAY_EVENING, false);
    await KAISHA.PRICES("7203", FROM, "2026-11-17", null, "desc", 1, invocation());
    expect(w.sent).toHaveLength(3);
    w.at(THURSDAY_MORNING);
    const morning = await KAISHA.PRICES("7203", FROM, "2026-11-19", null, "desc", 1, invocation());
    expect(w.sent).toHaveLength(4);
    const fresh = world(THURSDAY_MORNING, false);
    expect(morning).toEqual(
      await KAISHA.PRICES("7203", FROM, "2026-11-19", null, "desc", 1, invocation()),
    );
    expect(fresh.sent).toHaveLength(3);
  });

  test("cells of the same spill asked at once share one walk, and the morning's one update", async () => {
    const w = world(TUESDAY_EVENING, false);
    const ask = () =>
      Promise.all(
        [1, 2, 3, 4].map(() => KAISHA.PRICES("7203", FROM, null, null, "desc", 1, invocation())),
      );
    const evening = await ask();
    expect(w.sent).toHaveLength(3);
    expect(new Set(evening.map((g) => JSON.stringify(g))).size).toBe(1);
    w.at(THURSDAY_MORNING);
    await ask();
    expect(w.sent).toHaveLength(4);
  });

  test("the morning open shows the stored spill marked stale, then recalculates just its cell with the new days", async () => {
    const w = world(TUESDAY_EVENING, true);
    const ask = () =>
      KAISHA.PRICES(
        "7203",
        FROM,
        null,
        null,
        "desc",
        2,
        invocation({ address: "Sheet1!A1" }),
      ) as Promise<unknown[][]>;
    const evening = await ask();
    const recalculated: string[] = [];
    w.client.revalidation().onRecalculate((a) => recalculated.push(...a));
    w.at(THURSDAY_MORNING);
    const atOnce = await ask();
    expect(String(atOnce[0]?.[1])).toMatch(/stale|updating/i);
    expect(atOnce.slice(1)).toEqual(evening.slice(1));
    await w.client.revalidation().idle();
    expect(recalculated).toEqual(["Sheet1!A1"]);
    const after = await ask();
    expect(String(after[0]?.[1])).not.toMatch(/stale|updating/i);
    expect(after.length).toBeGreaterThan(evening.length);
    expect(w.sent).toHaveLength(4);
  });
});
