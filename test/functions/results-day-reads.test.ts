// A reopened model's cells reading an answer whose company's expected results day is still being
// looked up (src/client/client.ts dayLookUp): one look-up per answer, joined by every read.

import { createApp } from "../../sandbox/app";
import { financial } from "../../functions/financial-cell";
import { setHostCapabilities } from "../../functions/host";
import {
  MemoryCacheStore,
  createClient,
  type CacheEntry,
  type CacheStore,
  type KaishaClient,
} from "../../src/client";
import { setClientForTesting } from "../../src/session";
import { recordingSandboxFetch, sandboxClientOptions } from "./session-client";

/** Monday 11 May 2026, 10:00 JST: in the filing window of the year ended March 2026. */
const BUILT = Date.parse("2026-05-11T10:00:00+09:00");
/** The workbook reopened an hour later, in a new runtime. */
const REOPENED = BUILT + 60 * 60 * 1000;

const ITEMS = ["sales", "operating_profit", "net_income", "total_assets", "eps"];
const YEARS = [0, -1, -2, -3];

/** 7203's annual cells (the sheet's items over its years), as Excel calls them. */
function cells(): Array<unknown> {
  return ITEMS.flatMap((item) =>
    YEARS.map((year) => financial("7203", item, year, "annual", null, null)),
  );
}

/** A client on `store` at `t` over the sandbox, set as the session's; `sent` lists its requests. */
function session(t: number, store: CacheStore): { client: KaishaClient; sent: string[] } {
  const sandbox = createApp({ ratePerMinute: 0, now: new Date(BUILT).toISOString() });
  const { fetch, sent } = recordingSandboxFetch(sandbox);
  const client = createClient({
    ...sandboxClientOptions(fetch),
    cacheStore: store,
    sleep: async () => undefined,
    now: () => t,
    staleWhileRevalidate: true,
  });
  setClientForTesting(client, { lang: "en", headerLanguage: "keys" }, store);
  setHostCapabilities({ dataTypes: false });
  return { client, sent };
}

/**
 * A store whose reads of the company's stored disclosures history (the results-day look-up's
 * first step) wait until `release`: the look-up held open.
 */
class HeldHistoryStore extends MemoryCacheStore {
  historyReads = 0;
  private opened: () => void = () => undefined;
  private readonly gate = new Promise<void>((resolve) => (this.opened = resolve));

  override async get(key: string): Promise<CacheEntry | undefined> {
    if (!key.includes("/disclosures")) return super.get(key);
    this.historyReads += 1;
    await this.gate;
    return super.get(key);
  }

  release(): void {
    this.opened();
  }
}

afterEach(() => setClientForTesting(undefined));

test("cells reading an answer while its results day is looked up start one look-up and get the built values", async () => {
  // Built on Monday morning: the answer and the values the sheet showed.
  const built = new MemoryCacheStore();
  session(BUILT, built);
  const truth = await Promise.all(cells());
  expect(truth.every((v) => typeof v === "number")).toBe(true);

  // Reopened: the same stored answers in new entries, no results day known in the new runtime.
  const store = new HeldHistoryStore();
  for (const key of await built.keys()) {
    const e = (await built.get(key)) as CacheEntry;
    if (!key.includes("/disclosures"))
      await store.set(key, { body: e.body, storedAt: e.storedAt, bytes: e.bytes });
  }
  const { client, sent } = session(REOPENED, store);
  const expect_ = jest.spyOn(client.revalidation(), "expect");

  // The cells arrive in three rounds while the look-up is held: every read finds it under way.
  const pending = [...cells(), ...cells(), ...cells()];
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(store.historyReads).toBe(1);
  // One look-up handed to the background's idle for the one answer, not one per cell read.
  expect(expect_).toHaveBeenCalledTimes(1);

  store.release();
  const values = await Promise.all(pending);
  expect(values).toEqual([...truth, ...truth, ...truth]);
  // The answer came from the store: the only request is the history the look-up queued.
  expect(sent.filter((u) => u.includes("/financials"))).toEqual([]);
  expect(expect_).toHaveBeenCalledTimes(1);
  // Decided once it settled: the cells now read it from memory at once.
  const again = cells();
  expect(again.every((v) => typeof v === "number")).toBe(true);
  expect(again).toEqual(truth);
});
