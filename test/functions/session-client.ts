// A test's session client over the in-process sandbox: its own fetch (to change answers on the
// way), its own clock, no pacing or retries; the add-in's functions read it as they read Excel's.

import type { Sandbox } from "../../sandbox/app";
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import { setHostCapabilities } from "../../functions/host";
import {
  MemoryCacheStore,
  createClient,
  type KaishaClient,
  type FetchLike,
} from "../../src/client";
import { setClientForTesting } from "../../src/session";

/** The sandbox's answer to `url` as the client asked it (path and query; method, headers, signal). */
export function sandboxAnswer(
  sandbox: Sandbox,
  url: URL,
  init: Parameters<FetchLike>[1],
): Promise<Response> {
  return Promise.resolve(
    sandbox.app.request(`${url.pathname}${url.search}`, {
      method: init.method,
      headers: init.headers,
      signal: init.signal,
    }),
  );
}

/** A fetch over `sandbox` that lists each request it sends ("path?query") in `sent`. */
export function recordingSandboxFetch(sandbox: Sandbox): { fetch: FetchLike; sent: string[] } {
  const sent: string[] = [];
  const fetch: FetchLike = (url, init) => {
    const u = new URL(url);
    sent.push(`${u.pathname}${u.search}`);
    return sandboxAnswer(sandbox, u, init);
  };
  return { fetch, sent };
}

/** What every test client over the sandbox is created with: the demo key, no pacing, no retries. */
export function sandboxClientOptions(fetch: FetchLike) {
  return {
    baseUrl: "http://sandbox.test/v1",
    apiKey: DEMO_API_KEY,
    fetch,
    ratePerMinute: 0,
    maxRetries: 0,
  };
}

/**
 * A client over `fetch` on the clock `now`, set as the session's (English messages, key headers,
 * no data types), with a memory store of its own. `staleWhileRevalidate` as the add-in sets it.
 */
export function sessionClientOver(
  fetch: FetchLike,
  now: () => number,
  staleWhileRevalidate = false,
): KaishaClient {
  const store = new MemoryCacheStore();
  const client = createClient({
    ...sandboxClientOptions(fetch),
    cacheStore: store,
    sleep: async () => undefined,
    now,
    staleWhileRevalidate,
  });
  setClientForTesting(client, { lang: "en", headerLanguage: "keys" }, store);
  setHostCapabilities({ dataTypes: false });
  return client;
}
