// The shared session: defaults, settings changes and listeners, relay mode, key provider, start-up.
import {
  configureSession,
  DEFAULT_BASE_URL,
  effectiveBaseUrl,
  getCacheStore,
  getClient,
  getSettings,
  onSessionChange,
  setClientForTesting,
  setKeyProvider,
} from "../../src/session";
import {
  PRODUCTION_BASE_URL,
  LazyPersistentStore,
  MemoryCacheStore,
  TieredCacheStore,
} from "../../src/client";
import { applyHost } from "../../functions/startup";
import { getHostCapabilities, setHostCapabilities } from "../../functions/host";
import { IDBFactory } from "fake-indexeddb";
import { cacheStorageState } from "../../functions/addin-cache";
import { RELAY_PREFIX } from "../../scripts/dev-server";

afterEach(() => {
  setClientForTesting(undefined);
  setHostCapabilities({ dataTypes: false });
  delete (globalThis as { Office?: unknown }).Office;
  delete (globalThis as { location?: unknown }).location;
  delete (globalThis as { indexedDB?: unknown }).indexedDB;
});

describe("session", () => {
  test("without a build-time constant the production API is the default", () => {
    expect(DEFAULT_BASE_URL).toBe(PRODUCTION_BASE_URL);
    expect(getSettings()).toMatchObject({
      baseUrl: PRODUCTION_BASE_URL,
      connectionMode: "direct",
      headerLanguage: "keys",
    });
  });

  test("one client instance is shared until a setting needs a new one", () => {
    const a = getClient();
    expect(getClient()).toBe(a);
    configureSession({ headerLanguage: "ja" });
    expect(getClient()).toBe(a);
    configureSession({ baseUrl: "http://127.0.0.1:8787/v1" });
    expect(getClient().baseUrl).toBe("http://127.0.0.1:8787/v1");
  });

  test("listeners hear real changes only, and can unsubscribe", () => {
    const seen: string[] = [];
    const off = onSessionChange((s) => seen.push(s.headerLanguage));
    configureSession({ headerLanguage: "ja" });
    configureSession({ headerLanguage: "ja" });
    off();
    configureSession({ headerLanguage: "keys" });
    expect(seen).toEqual(["ja"]);
  });

  test("relay mode sends requests to the add-in host's own origin, where the host relays them", () => {
    (globalThis as { location?: unknown }).location = { origin: "https://localhost:3000" };
    configureSession({ connectionMode: "relay" });
    expect(effectiveBaseUrl()).toBe("https://localhost:3000/relay/v1");
    expect(getClient().baseUrl).toBe("https://localhost:3000/relay/v1");
    // The add-in host (scripts/dev-server.ts) relays that very path.
    expect(effectiveBaseUrl()).toBe(`https://localhost:3000${RELAY_PREFIX}`);
  });

  test("the key provider is read at request time and a change notifies listeners", async () => {
    const seen: string[] = [];
    configureSession({ baseUrl: "http://sandbox.test/v1" });
    let notified = 0;
    const off = onSessionChange(() => (notified += 1));
    setKeyProvider(() => "kaisakey_" + "k".repeat(43));
    off();
    expect(notified).toBe(1);
    // The client is built by the session with a provider function; check it uses the current key.
    const client = getClient().withOptions({
      fetch: async (_url, init) => {
        seen.push(init.headers.Authorization ?? "");
        return { status: 200, headers: { get: () => null }, text: async () => '{"remaining":5}' };
      },
      ratePerMinute: 0,
    });
    await client.usage();
    expect(seen).toEqual([`Bearer kaisakey_${"k".repeat(43)}`]);
    setKeyProvider(() => undefined);
  });

  test("the session owns a cache store for previews", () => {
    expect(getCacheStore()).toBeDefined();
  });
});

describe("start-up", () => {
  test("reads Office's display language and the data-types requirement set, and installs the persistent cache", async () => {
    (globalThis as { Office?: unknown }).Office = {
      context: {
        displayLanguage: "ja-JP",
        requirements: {
          isSetSupported: (name: string, version: string) =>
            name === "CustomFunctionsRuntime" && version === "1.4",
        },
      },
    };
    // The shared runtime is a browser context with IndexedDB (functions/addin-cache.ts).
    (globalThis as { indexedDB?: unknown }).indexedDB = new IDBFactory();
    applyHost();
    expect(getSettings().lang).toBe("ja");
    expect(getHostCapabilities()).toEqual({ dataTypes: true });
    // A memory tier in front of the persistent store (warm recalculation sends nothing).
    const store = getCacheStore();
    expect(store).toBeInstanceOf(TieredCacheStore);
    expect((store as TieredCacheStore).memory).toBeInstanceOf(MemoryCacheStore);
    // The persistent tier's code is a lazy chunk (off the runtime page): it loads and opens on disk.
    const persistent = (store as TieredCacheStore).persistent;
    expect(persistent).toBeInstanceOf(LazyPersistentStore);
    await persistent.set("k", { body: { a: 1 }, storedAt: 1, bytes: 7 });
    await (persistent as LazyPersistentStore).flush();
    expect(await persistent.keys()).toEqual(["k"]);
    expect(cacheStorageState()).toEqual({ kind: "disk" });
  });

  test("a host without CustomFunctionsRuntime 1.4 gets plain values", () => {
    (globalThis as { Office?: unknown }).Office = {
      context: { displayLanguage: "en-US", requirements: { isSetSupported: () => false } },
    };
    applyHost();
    expect(getHostCapabilities()).toEqual({ dataTypes: false });
    expect(getSettings().lang).toBe("en");
  });
});
