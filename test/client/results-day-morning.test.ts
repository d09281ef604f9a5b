// The morning after results: every company that reported is checked that morning or its figures are
// marked stale (src/client/freshness.ts with src/client/results-day*.ts), never last year's unmarked.

import { createApp } from "../../sandbox/app";
import { MemoryCacheStore, type CacheStore } from "../../src/client/cache";
import { createClient, type KaishaClient } from "../../src/client/client";
import { isStale } from "../../src/client/stale";
import { recordingSandboxFetch, sandboxClientOptions } from "../functions/session-client";

jest.setTimeout(60_000);

/** Their 2026/03 annual results (決算短信) came out on Monday 11 May 2026, 15:00 JST, in the sandbox. */
const REPORTED = ["7203", "7267", "7269", "7974", "8001", "8058", "6301", "4502"];
/** March companies whose results come later that week. */
const LATER = [
  "1332",
  "1801",
  "2002",
  "3101",
  "3289",
  "4063",
  "4568",
  "5020",
  "5401",
  "5711",
  "5938",
  "5964",
  "6013",
];
const COMPANIES = [...REPORTED, ...LATER];

/** An instant given in JST ("2026-05-11T10:00"). */
const jst = (local: string) => Date.parse(`${local}:00+09:00`);
/** Monday morning, before that afternoon's results: the model is built. */
const BUILT = jst("2026-05-11T10:00");
/** Wednesday morning: Monday's results reached the API on Tuesday afternoon (openapi.json info.description). */
const MORNING = jst("2026-05-13T08:00");

interface World {
  client: KaishaClient;
  /** Requests that reached the sandbox ("path?query"). */
  sent: string[];
}

/** A runtime on `store` at `t`: its own client, the sandbox's data clock at `t`. */
function runtime(t: number, store: CacheStore, dailyBudget?: number): World {
  const sandbox = createApp({ ratePerMinute: 0, now: new Date(t).toISOString() });
  const { fetch, sent } = recordingSandboxFetch(sandbox);
  const client = createClient({
    ...sandboxClientOptions(fetch),
    cacheStore: store,
    // Nothing in these runs waits for time but the budget's next JST midnight: it never comes.
    sleep: (_ms, signal) =>
      new Promise<void>((_resolve, reject) =>
        signal?.addEventListener("abort", () => reject(new Error("called off"))),
      ),
    now: () => t,
    staleWhileRevalidate: true,
    ...(dailyBudget === undefined ? {} : { revalidationDailyBudget: dailyBudget }),
  });
  return { client, sent };
}

/** The store as a reopened workbook's runtime reads it: the same answers, new entry objects. */
async function reopened(store: MemoryCacheStore): Promise<MemoryCacheStore> {
  const copy = new MemoryCacheStore();
  for (const key of await store.keys()) {
    const e = await store.get(key);
    if (e !== undefined)
      await copy.set(key, { body: e.body, storedAt: e.storedAt, bytes: e.bytes });
  }
  return copy;
}

interface Shown {
  /** The latest annual fiscal year the cells show, and whether they show it marked stale. */
  annual: string | undefined;
  annualStale: boolean;
  quarterly: string | undefined;
  quarterlyStale: boolean;
}

/** What a company's annual and quarterly cells show (the latest period, the mark). */
async function shown(client: KaishaClient, code: string): Promise<Shown> {
  // Each asked as a cell asks: with its address (functions/run.ts), so the queue knows its readers.
  const cell = (column: string) => ({
    staleSink: { stale: false, address: `Model!${column}${code}` },
  });
  const a = await client.financials({ security_code: code, period: "annual" }, cell("B"));
  const q = await client.financials({ security_code: code, period: "quarterly" }, cell("C"));
  const latest = (b: { periods: { fiscal_year: string; quarter?: unknown }[] }) => {
    const p = b.periods[b.periods.length - 1];
    return p === undefined
      ? undefined
      : `${p.fiscal_year}${p.quarter === undefined ? "" : ` ${String(p.quarter)}`}`;
  };
  return {
    annual: latest(a),
    annualStale: isStale(a),
    quarterly: latest(q),
    quarterlyStale: isStale(q),
  };
}

/** Monday's evening session: every company asked, the background (the results-day history) done. */
async function buildModel(): Promise<{ store: MemoryCacheStore; built: World }> {
  const store = new MemoryCacheStore();
  const built = runtime(BUILT, store);
  for (const code of COMPANIES) await shown(built.client, code);
  await built.client.revalidation().idle();
  return { store, built };
}

/** What a fresh session (no cache) shows on Wednesday morning. */
async function freshAt(t: number): Promise<Map<string, Shown>> {
  const w = runtime(t, new MemoryCacheStore());
  const out = new Map<string, Shown>();
  for (const code of COMPANIES) out.set(code, await shown(w.client, code));
  return out;
}

test("the model was built before the results: last year's figures, nothing marked", async () => {
  const { built } = await buildModel();
  const monday = await shown(built.client, "7203");
  expect(monday).toMatchObject({ annual: "2025/03", annualStale: false });
  // One disclosures request per company, behind the cells' own requests.
  expect(built.sent.filter((u) => u.includes("/disclosures"))).toHaveLength(COMPANIES.length);
});

test("reopened the morning after: every company that reported is marked at once, then checked and current", async () => {
  const { store } = await buildModel();
  const truth = await freshAt(MORNING);
  // The test's premise: these reported on Monday, the others not yet.
  for (const code of REPORTED) expect(truth.get(code)?.annual).toBe("2026/03");
  for (const code of LATER) expect(truth.get(code)?.annual).toBe("2025/03");

  const w = runtime(MORNING, await reopened(store));
  // Before the background: nothing old shows unmarked.
  for (const code of COMPANIES) {
    const s = await shown(w.client, code);
    const t = truth.get(code) as Shown;
    if (s.annual !== t.annual)
      expect({ code, stale: s.annualStale }).toEqual({ code, stale: true });
    if (s.quarterly !== t.quarterly)
      expect({ code, stale: s.quarterlyStale }).toEqual({ code, stale: true });
  }
  await w.client.revalidation().idle();
  // After it: every cell equals a fresh session's, unmarked where it was checked.
  for (const code of REPORTED) {
    const s = await shown(w.client, code);
    expect({ code, ...s }).toEqual({
      code,
      ...truth.get(code),
      annualStale: false,
      quarterlyStale: false,
    });
  }
  // The history was stored on Monday: not asked again.
  expect(w.sent.filter((u) => u.includes("/disclosures"))).toEqual([]);
});

test("a budget that cannot cover the morning leaves the rest marked and counted, never shown as current", async () => {
  const { store } = await buildModel();
  const truth = await freshAt(MORNING);
  const w = runtime(MORNING, await reopened(store), 3);
  for (const code of COMPANIES) await shown(w.client, code);
  await w.client.revalidation().idle();
  const status = w.client.revalidation().status();
  expect(status).toMatchObject({ paused: "budget", spentToday: 3 });
  expect(w.sent).toHaveLength(3);
  let marked = 0;
  for (const code of REPORTED) {
    const s = await shown(w.client, code);
    const t = truth.get(code) as Shown;
    if (s.annual !== t.annual) {
      expect({ code, stale: s.annualStale }).toEqual({ code, stale: true });
      marked += 1;
    }
  }
  expect(marked).toBeGreaterThan(0);
  // The pane's "N companies not yet checked since results were due" counts at least those.
  expect(status.unchecked).toBeGreaterThanOrEqual(marked);
});
