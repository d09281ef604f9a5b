// The bench's API client at the live limits on a virtual clock, shared by every run that makes one
// (scale-run, calendar-run, reopen-child, extra-workloads, realclock-run, reopen-only).

import { DEMO_API_KEY } from "../sandbox/demo-key";
import { tiered } from "../functions/addin-cache";
import {
  createClient,
  REVALIDATION_SETTLE_MS,
  type KaishaClient,
  PersistentCacheStore,
  type TieredCacheStore,
} from "../src/client";
import { inProcessFetch, type RequestableApp } from "./in-process-fetch";
import type { StorageStandIn } from "./storage-standin";
import type { VirtualClock } from "./virtual-clock";

export const BASE_URL = "http://sandbox.bench/v1";
/** The live limits (60 a minute, as README's sandbox section says; the sandbox's daily cap 5,000). */
export const LIVE = { ratePerMinute: 60, dailyLimit: 5_000, latencyMs: 20, storageLatencyMs: 3 };

/** Latency on the virtual clock, and the real time of the first request of each recalculation. */
export function timedFetch(app: RequestableApp, clock: VirtualClock, latencyMs: number) {
  const wire = inProcessFetch(
    {
      request: async (input, init) => {
        await clock.sleep(latencyMs);
        return app.request(input, init);
      },
    },
    { keepUrls: false },
  );
  const distinct = new Set<string>();
  /**
   * The background's results-day histories (src/client/results-day.ts historyQuery: a company's
   * disclosures over a closed range), apart: no cell asks them, so a phase's cell requests and its
   * floor leave them out and the bench reports them on their own.
   */
  const history = { requests: 0, distinct: new Set<string>() };
  const fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    distinct.add(url);
    if (/\/disclosures\?from=[^&]+&limit=100&to=/.test(url)) {
      history.requests += 1;
      history.distinct.add(url);
    }
    return wire.fetch(input, init);
  }) as typeof globalThis.fetch;
  return {
    fetch,
    counters: wire.counters,
    distinct,
    history,
    firstRequestSince(start: number): number {
      const first = wire.counters.firstRequestAt;
      return first === undefined ? Number.NaN : first - start;
    },
    reset(): void {
      wire.counters.firstRequestAt = undefined;
    },
  };
}

/** A runtime's client on the live limits and the virtual clock, over `store`. */
export function makeClient(
  fetch: typeof globalThis.fetch,
  clock: VirtualClock,
  store: TieredCacheStore,
): KaishaClient {
  return createClient({
    baseUrl: BASE_URL,
    apiKey: DEMO_API_KEY,
    fetch,
    ratePerMinute: LIVE.ratePerMinute,
    cacheStore: store,
    now: clock.now,
    sleep: clock.sleep,
    lang: "en",
    // As the add-in's session client (src/session.ts): the answer check and stale-while-revalidate.
    checkAnswers: true,
    staleWhileRevalidate: true,
    revalidationSettleMs: REVALIDATION_SETTLE_MS,
  });
}

/** The add-in's two-tier store over the storage stand-in, its index batches on the virtual clock. */
export function storeOver(disk: StorageStandIn, clock: VirtualClock): TieredCacheStore {
  return tiered(
    new PersistentCacheStore(disk.open(), {
      now: clock.now,
      // Index batches go out a quarter second (simulated) after the first change.
      schedule: (write) => void clock.sleep(250).then(write),
    }),
  );
}
