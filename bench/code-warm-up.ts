// Loads the add-in's lazily loaded code before a measured run: ts-node compiles each module on its first use, which a browser's chunk load does not.

import { DEMO_API_KEY } from "../sandbox/demo-key";
import { createClient, MemoryCacheStore, type CacheStore } from "../src/client";
import { setClientForTesting } from "../src/session";
import { BASE_URL } from "./live-client";
import type { ScaleCell } from "./scale-cells";

/** The API as the warm-up asks it: the sandbox's own `request`, past the measured wire. */
type Request = (url: string, init?: RequestInit) => Response | Promise<Response>;

/**
 * Calls one cell of each kind (FINANCIAL, VALUATION, PRICES) of `cells` through a client of its
 * own over `store` (a memory store unless given), unpaced, then leaves the session without a
 * client. Not timed and not counted (its requests go to `request`, not the measured wire): the
 * add-in's lazily loaded chunks (the send chunk, the answer check, the persistent tier's code)
 * are TypeScript that ts-node compiles on first use, which took most of a cold Model's time to
 * its first request (bench: 4.5 of 5 s on a loaded machine) and is no part of the add-in's work
 * (a browser loads a chunk, already JavaScript). Cells with a value here make at most three
 * requests: the caller keeps them out of the measured minute.
 */
export async function warmUpCode(
  cells: readonly ScaleCell[],
  request: Request,
  now: () => number,
  store: CacheStore = new MemoryCacheStore(),
): Promise<void> {
  const client = createClient({
    baseUrl: BASE_URL,
    apiKey: DEMO_API_KEY,
    fetch: async (input, init) => request(String(input), init),
    ratePerMinute: 0,
    cacheStore: store,
    now,
    lang: "en",
    checkAnswers: true,
  });
  setClientForTesting(client, { lang: "en" }, store);
  try {
    for (const kind of ["FINANCIAL", "VALUATION", "PRICES"])
      await Promise.resolve(cells.find((c) => c.name === kind)?.call()).catch(() => undefined);
  } finally {
    setClientForTesting(undefined);
  }
}
