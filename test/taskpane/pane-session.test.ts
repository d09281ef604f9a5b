// taskpane/pane-session: start-up from storage and ?baseUrl, key changes reach session listeners.

import { getSettings, setClientForTesting } from "../../src/session";
import { startPaneSession } from "../../taskpane/pane-session";
import { KEY_STORAGE_KEY, memoryStore } from "../../taskpane/state/key-store";
import { SETTINGS_STORAGE_KEY } from "../../taskpane/state/pane-settings";

const KEY = "kaisakey_" + "s".repeat(43);

afterEach(() => setClientForTesting(undefined));

test("start-up reads the remembered key and applies ?baseUrl / ?mode without saving them", async () => {
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
