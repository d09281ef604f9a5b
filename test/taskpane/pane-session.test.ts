// taskpane/pane-session: start-up from storage and ?baseUrl, key changes reach session listeners.

import { configureSession, getClient, getSettings, setClientForTesting } from "../../src/session";
import { MemoryCacheStore, createClient } from "../../src/client";
import { startPaneSession } from "../../taskpane/pane-session";
import { memoryStore } from "../../taskpane/state/key-store";
import { KEY_BASE_URL_STORAGE_KEY, KEY_STORAGE_KEY, SETTINGS_STORAGE_KEY } from "./storage-names";

const KEY = "kaisakey_" + "s".repeat(43);
const PRODUCTION = "https://api.irbank.net/v1";
const flags = globalThis as { __KAISHA_URL_OVERRIDES__?: boolean };

afterEach(() => {
  setClientForTesting(undefined);
  delete flags.__KAISHA_URL_OVERRIDES__;
  configureSession({ baseUrl: PRODUCTION, connectionMode: "direct" });
});

test("dev/test builds: start-up reads the remembered key and applies ?baseUrl / ?mode without saving them", async () => {
  flags.__KAISHA_URL_OVERRIDES__ = true;
  const store = memoryStore();
  await store.setItem(KEY_STORAGE_KEY, KEY);
  const session = await startPaneSession({
    store,
    query: new URLSearchParams({ baseUrl: "http://127.0.0.1:9999/v1", mode: "relay" }),
  });
  expect(session.keys.current()).toBe(KEY);
  expect(session.settings).toMatchObject({ preset: "custom", mode: "relay" });
  expect(getSettings()).toMatchObject({
    baseUrl: "http://127.0.0.1:9999/v1",
    connectionMode: "relay",
  });
  expect(await store.getItem(SETTINGS_STORAGE_KEY)).toBeNull();
});

test("saving or forgetting a key notifies session listeners (the pane recalculates on that)", async () => {
  const store = memoryStore();
  const session = await startPaneSession({ store });
  let changes = 0;
  const off = session.onChange(() => changes++);
  await session.setKey(KEY, false);
  expect(changes).toBe(1);
  expect(await store.getItem(KEY_STORAGE_KEY)).toBeNull();
  await session.setKey(KEY, true);
  expect(await store.getItem(KEY_STORAGE_KEY)).toBe(KEY);
  await session.forgetKey();
  expect(changes).toBe(3);
  expect(session.keys.current()).toBeUndefined();
  off();
});

test("changing the server is applied to the session and saved; the saved settings hold no key", async () => {
  const store = memoryStore();
  const session = await startPaneSession({ store });
  await session.setKey(KEY, true);
  await session.applySettings({
    preset: "sandbox",
    customUrl: "",
    mode: "direct",
    headerLanguage: "ja",
  });
  expect(getSettings()).toMatchObject({
    baseUrl: "http://127.0.0.1:8787/v1",
    headerLanguage: "ja",
  });
  const saved = (await store.getItem(SETTINGS_STORAGE_KEY)) ?? "";
  expect(JSON.parse(saved)).toEqual({
    preset: "sandbox",
    customUrl: "",
    mode: "direct",
    headerLanguage: "ja",
  });
  expect(saved).not.toContain(KEY);
});

test("unreadable storage does not stop the pane from starting", async () => {
  const broken = {
    getItem: () => Promise.reject(new Error("denied")),
    setItem: () => Promise.reject(new Error("denied")),
    removeItem: () => Promise.reject(new Error("denied")),
  };
  const session = await startPaneSession({ store: broken });
  expect(session.keys.current()).toBeUndefined();
});

/** Every request the shared (real) session client sends, with its Authorization header. */
function recordRequests(): { url: string; auth: string | undefined }[] {
  const seen: { url: string; auth: string | undefined }[] = [];
  jest.spyOn(globalThis, "fetch").mockImplementation((url, init) => {
    const headers = (init?.headers ?? {}) as Record<string, string>;
    seen.push({ url: String(url), auth: headers["Authorization"] });
    return Promise.resolve(new Response('{"remaining": 5}', { status: 200 }));
  });
  return seen;
}

afterEach(() => jest.restoreAllMocks());

describe("the remembered key is bound to the server it was entered for", () => {
  test("production builds ignore ?baseUrl: the saved server is used", async () => {
    const store = memoryStore();
    await store.setItem(KEY_STORAGE_KEY, KEY);
    await store.setItem(KEY_BASE_URL_STORAGE_KEY, PRODUCTION);
    const session = await startPaneSession({
      store,
      query: new URLSearchParams({ baseUrl: "http://attacker.example/v1" }),
    });
    expect(getSettings().baseUrl).toBe(PRODUCTION);
    expect(session.settings.preset).toBe("production");
  });

  test("dev builds: a ?baseUrl override does not receive the key bound to another server", async () => {
    flags.__KAISHA_URL_OVERRIDES__ = true;
    const store = memoryStore();
    await store.setItem(KEY_STORAGE_KEY, KEY);
    await store.setItem(KEY_BASE_URL_STORAGE_KEY, PRODUCTION);
    const session = await startPaneSession({
      store,
      query: new URLSearchParams({ baseUrl: "https://attacker.example/v1" }),
    });
    expect(getSettings().baseUrl).toBe("https://attacker.example/v1");
    const seen = recordRequests();
    await expect(session.client().usage()).rejects.toMatchObject({ code: "missing_key" });
    expect(seen).toEqual([]);
  });

  test("dev builds: plain http to another host is not accepted as an override", async () => {
    flags.__KAISHA_URL_OVERRIDES__ = true;
    await startPaneSession({
      store: memoryStore(),
      query: new URLSearchParams({ baseUrl: "http://attacker.example/v1" }),
    });
    expect(getSettings().baseUrl).toBe(PRODUCTION);
  });

  test("a key remembered before binding belongs to the saved server, and only to it", async () => {
    flags.__KAISHA_URL_OVERRIDES__ = true;
    const store = memoryStore();
    await store.setItem(KEY_STORAGE_KEY, KEY);
    const session = await startPaneSession({
      store,
      query: new URLSearchParams({ baseUrl: "https://attacker.example/v1" }),
    });
    expect(session.keys.boundTo()).toBe(PRODUCTION);
    expect(session.keys.keyFor("https://attacker.example/v1")).toBeUndefined();
    expect(session.keys.keyFor(PRODUCTION)).toBe(KEY);
  });

  test("choosing another server in the pane moves the key there; a header-language change does not", async () => {
    const store = memoryStore();
    const session = await startPaneSession({ store });
    await session.setKey(KEY, true);
    expect(await store.getItem(KEY_BASE_URL_STORAGE_KEY)).toBe(PRODUCTION);
    await session.applySettings({ ...session.settings, headerLanguage: "ja" });
    expect(session.keys.boundTo()).toBe(PRODUCTION);
    await session.applySettings({ ...session.settings, preset: "sandbox" });
    expect(session.keys.boundTo()).toBe("http://127.0.0.1:8787/v1");
    expect(session.keys.keyFor(PRODUCTION)).toBeUndefined();
    expect(await store.getItem(KEY_BASE_URL_STORAGE_KEY)).toBe("http://127.0.0.1:8787/v1");
  });

  test("the session's key provider: the bound server gets the key, another gets nothing", async () => {
    const store = memoryStore();
    const session = await startPaneSession({ store });
    await session.setKey(KEY, false);
    const seen = recordRequests();
    await session.client().usage();
    expect(seen).toEqual([{ url: `${PRODUCTION}/usage`, auth: `Bearer ${KEY}` }]);
    configureSession({ baseUrl: "https://elsewhere.example/v1" });
    await expect(getClient().usage()).rejects.toMatchObject({ code: "missing_key" });
    expect(seen).toHaveLength(1);
  });
});

test("a Japanese pane writes Japanese headers (日本語の項目名) by default; an English one the API's keys; a saved choice wins", async () => {
  const ja = await startPaneSession({ store: memoryStore(), lang: "ja" });
  expect(ja.settings.headerLanguage).toBe("ja");
  expect(getSettings().headerLanguage).toBe("ja");
  const en = await startPaneSession({ store: memoryStore(), lang: "en" });
  expect(en.settings.headerLanguage).toBe("keys");
  expect(getSettings().headerLanguage).toBe("keys");
  const store = memoryStore();
  await store.setItem(
    SETTINGS_STORAGE_KEY,
    JSON.stringify({ preset: "production", customUrl: "", mode: "direct", headerLanguage: "keys" }),
  );
  const chosen = await startPaneSession({ store, lang: "ja" });
  expect(chosen.settings.headerLanguage).toBe("keys");
});

test("Forget key deletes that key's cached answers from the shared client's store", async () => {
  const session = await startPaneSession({ store: memoryStore() });
  await session.setKey(KEY, false);
  const cache = new MemoryCacheStore();
  let sent = 0;
  const client = createClient({
    apiKey: () => session.keys.current(),
    cacheStore: cache,
    ratePerMinute: 0,
    fetch: async () => {
      sent += 1;
      return new Response(JSON.stringify({ remaining: 1, securities: [], next_cursor: null }), {
        status: 200,
      });
    },
  });
  setClientForTesting(client, {}, cache);
  await client.securities({ q: "トヨタ" });
  expect(await cache.keys()).toHaveLength(1);
  await session.forgetKey();
  expect(await cache.keys()).toEqual([]);
  await expect(client.securities({ q: "トヨタ" })).rejects.toMatchObject({ code: "missing_key" });
  expect(sent).toBe(1);
});
