// A runtime page's first cells, called before the page's other bundle (the pane's session, the
// preview) has registered the key: they wait for it and answer from what is stored, sending nothing.
import { createApp } from "../../sandbox/app";
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import type * as ClientModule from "../../src/client";
import type * as SessionModule from "../../src/session";
import type * as FunctionsModule from "../../functions/index";
import type { InvocationLike } from "../../functions/run";
import { sandboxFetch } from "../client/helpers";
import { shown } from "./harness";

/** One runtime page's modules, loaded anew (the session's state is the page's). */
interface Page {
  session: typeof SessionModule;
  client: typeof ClientModule;
  fns: typeof FunctionsModule;
}

/** A new runtime page: its functions' bundle evaluated with a `document`, as in Excel's runtime. */
function openPage(): Page {
  const page = globalThis as { document?: unknown };
  page.document = {};
  let loaded: Page | undefined;
  try {
    jest.isolateModules(() => {
      loaded = {
        session: jest.requireActual("../../src/session"),
        client: jest.requireActual("../../src/client"),
        fns: jest.requireActual("../../functions/index"),
      };
    });
  } finally {
    delete page.document;
  }
  if (loaded === undefined) throw new Error("the page's modules did not load");
  return loaded;
}

/** Whether `result` (a value, or a thenable Excel's runtime waits on) has settled. */
function watched(result: unknown): () => boolean {
  let settled = false;
  void Promise.resolve(result).then(
    () => (settled = true),
    () => (settled = true),
  );
  return () => settled;
}

/** FINANCIAL of Sony's sales two years back, as Excel calls it (the invocation with the cell). */
function sales(page: Page, inv: InvocationLike = { address: "Sheet1!B2" }): unknown {
  return page.fns.FINANCIAL(
    "6758",
    "sales",
    -2,
    null as never,
    null as never,
    null as never,
    inv as never,
  );
}

/**
 * The answer stored as a session with the key left it (the page's store: the persistent tier on
 * a reopen), by a client of the same server and key (the same partition); its requests counted.
 */
async function storedBefore(page: Page): Promise<{ value: unknown; requests: () => number }> {
  const sandbox = createApp({ ratePerMinute: 0 });
  const store = page.session.getCacheStore();
  const before = page.client.createClient({
    baseUrl: page.session.effectiveBaseUrl(),
    apiKey: DEMO_API_KEY,
    fetch: sandboxFetch(sandbox),
    ratePerMinute: 0,
    maxRetries: 0,
    ...(store === undefined ? {} : { cacheStore: store }),
  });
  page.session.setClientForTesting(before, { lang: "en" }, store);
  const value = await shown(sales(page));
  // The page's own session client from now on (its key from the page's provider), same store.
  page.session.setClientForTesting(undefined, { lang: "en" }, store);
  return { value, requests: () => sandbox.requestLog.length };
}

const sent: string[] = [];
const realFetch = globalThis.fetch;
beforeEach(() => {
  sent.length = 0;
  // The page's session client sends through the global fetch: nothing may reach it here.
  globalThis.fetch = ((url: string) => {
    sent.push(String(url));
    return Promise.reject(new TypeError("fetch failed"));
  }) as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
  jest.useRealTimers();
});

describe("cells called before the page has registered the key", () => {
  test("wait for it and answer from what is stored: the same value, no request", async () => {
    jest.useFakeTimers();
    const page = openPage();
    const stored = await storedBefore(page);
    expect(stored.value).toEqual({ value: expect.any(Number) });
    expect(stored.requests()).toBe(1);

    const reopened = sales(page);
    const settled = watched(reopened);
    await jest.advanceTimersByTimeAsync(20);
    // Still waiting: no key yet, and no "API key not set".
    expect(settled()).toBe(false);
    // The pane's session has read the remembered key (taskpane/pane-session.ts).
    page.session.setKeyProvider(() => DEMO_API_KEY);
    expect(await shown(reopened)).toEqual(stored.value);
    expect(stored.requests()).toBe(1);
    expect(sent).toEqual([]);
  });

  test("a page that never registers one: the key is not set, within the bound, nothing sent", async () => {
    jest.useFakeTimers();
    const page = openPage();
    const result = sales(page);
    const settled = watched(result);
    const cell = shown(result);
    await jest.advanceTimersByTimeAsync(9_999);
    expect(settled()).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(await cell).toEqual({
      error: "#N/A",
      message: expect.stringContaining("API key not set"),
    });
    expect(sent).toEqual([]);
  });

  test("a provider with no key (none remembered): the key is not set, as soon as it is registered", async () => {
    jest.useFakeTimers();
    const page = openPage();
    const result = sales(page);
    const settled = watched(result);
    const cell = shown(result);
    await jest.advanceTimersByTimeAsync(20);
    expect(settled()).toBe(false);
    page.session.setKeyProvider(() => undefined);
    expect(await cell).toEqual({
      error: "#N/A",
      message: expect.stringContaining("API key not set"),
    });
    expect(sent).toEqual([]);
  });
});
