// taskpane/state/key-store and pane-settings: remember / forget, and settings that hold no secret.

import { KEY_STORAGE_KEY, KeyManager, memoryStore } from "../../taskpane/state/key-store";
import {
  baseUrlOf,
  loadSettings,
  presetFor,
  saveSettings,
  SETTINGS_STORAGE_KEY,
} from "../../taskpane/state/pane-settings";

const KEY = "kaisakey_" + "k".repeat(43);
const presets = { production: "https://api.irbank.net/v1", sandbox: "http://127.0.0.1:8787/v1" };

test("remember stores the key; without remember it is used for the session only and any copy is removed", async () => {
  const store = memoryStore();
  const keys = new KeyManager(store);
  await keys.set(KEY, true);
  expect(await store.getItem(KEY_STORAGE_KEY)).toBe(KEY);
  expect(keys.isRemembered()).toBe(true);

  const again = new KeyManager(store);
  expect(await again.load()).toBe(KEY);

  await again.set(KEY, false);
  expect(again.current()).toBe(KEY);
  expect(await store.getItem(KEY_STORAGE_KEY)).toBeNull();
});

test("forget clears both the session and this computer", async () => {
  const store = memoryStore();
  const keys = new KeyManager(store);
  await keys.set(KEY, true);
  await keys.forget();
  expect(keys.current()).toBeUndefined();
  expect(await store.getItem(KEY_STORAGE_KEY)).toBeNull();
});

test("settings: presets map to base URLs, custom URLs are trimmed, and the key is never among them", async () => {
  const store = memoryStore();
  const s = {
    preset: "custom" as const,
    customUrl: "https://api.example.com/v1/",
    mode: "relay" as const,
    headerLanguage: "ja" as const,
  };
  expect(baseUrlOf(s, presets)).toBe("https://api.example.com/v1");
  expect(presetFor("http://127.0.0.1:8787/v1", presets)).toBe("sandbox");
  await saveSettings(store, s);
  expect(await store.getItem(SETTINGS_STORAGE_KEY)).not.toMatch(/key_/);
  expect(await loadSettings(store, { ...s, preset: "production" })).toEqual(s);
});
