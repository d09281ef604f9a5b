// taskpane/state/key-store and pane-settings: remember / forget, and settings that hold no secret.

import { checkKeyShape } from "../../taskpane/state/key-shape";
import { KeyManager, memoryStore } from "../../taskpane/state/key-store";
import {
  baseUrlOf,
  isValidBaseUrl,
  loadSettings,
  presetFor,
  saveSettings,
} from "../../taskpane/state/pane-settings";
import { KEY_BASE_URL_STORAGE_KEY, KEY_STORAGE_KEY, SETTINGS_STORAGE_KEY } from "./storage-names";

const KEY = "kaisakey_" + "k".repeat(43);
const presets = { production: "https://api.irbank.net/v1", sandbox: "http://127.0.0.1:8787/v1" };

test("remember stores the key; without remember it is used for the session only and any copy is removed", async () => {
  const store = memoryStore();
  const keys = new KeyManager(store);
  await keys.set(KEY, true, presets.production);
  expect(await store.getItem(KEY_STORAGE_KEY)).toBe(KEY);
  expect(keys.isRemembered()).toBe(true);

  const again = new KeyManager(store);
  expect(await again.load()).toBe(KEY);

  await again.set(KEY, false, presets.production);
  expect(again.current()).toBe(KEY);
  expect(await store.getItem(KEY_STORAGE_KEY)).toBeNull();
});

test("forget clears both the session and this computer", async () => {
  const store = memoryStore();
  const keys = new KeyManager(store);
  await keys.set(KEY, true, presets.production);
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

test("a key is bound to the base URL it was saved for and given out for that URL only", async () => {
  const store = memoryStore();
  const keys = new KeyManager(store);
  await keys.set(KEY, true, presets.production);
  expect(keys.keyFor(presets.production)).toBe(KEY);
  expect(keys.keyFor(`${presets.production}/`)).toBe(KEY);
  expect(keys.keyFor("https://attacker.example/v1")).toBeUndefined();
  expect(await store.getItem(KEY_BASE_URL_STORAGE_KEY)).toBe(presets.production);

  const again = new KeyManager(store);
  await again.load("https://ignored.example/v1");
  expect(again.boundTo()).toBe(presets.production);
  await again.bind(presets.sandbox);
  expect(again.keyFor(presets.production)).toBeUndefined();
  expect(await store.getItem(KEY_BASE_URL_STORAGE_KEY)).toBe(presets.sandbox);
  await again.forget();
  expect(await store.getItem(KEY_BASE_URL_STORAGE_KEY)).toBeNull();
});

test("custom base URLs: https anywhere, plain http only to this computer, no credentials or query", () => {
  expect(isValidBaseUrl("https://api.example.com/v1")).toBe(true);
  expect(isValidBaseUrl("http://127.0.0.1:8787/v1")).toBe(true);
  expect(isValidBaseUrl("http://localhost:3000/relay/v1")).toBe(true);
  expect(isValidBaseUrl("http://[::1]:8787/v1")).toBe(true);
  expect(isValidBaseUrl("http://attacker.example/v1")).toBe(false);
  expect(isValidBaseUrl("http://127.0.0.1.attacker.example/v1")).toBe(false);
  expect(isValidBaseUrl("https://user:pw@api.example.com/v1")).toBe(false);
  expect(isValidBaseUrl("https://api.example.com/v1?x=1")).toBe(false);
  expect(isValidBaseUrl("javascript:alert(1)")).toBe(false);
});

test("key shape: invisible or full-width characters are named as such, not as a length problem", () => {
  expect(checkKeyShape(`${KEY.slice(0, 20)}\u200b${KEY.slice(20)}`)).toBe("not_header_safe");
  expect(checkKeyShape(`ｋａｉｓａ${KEY.slice(5)}`)).toBe("not_header_safe");
  expect(checkKeyShape(KEY)).toBe("ok");
  expect(checkKeyShape(KEY.slice(0, 40))).toBe("wrong_length");
});

test("saved settings with a plain-http custom URL to another host fall back to the defaults", async () => {
  const store = memoryStore();
  const defaults = {
    preset: "production" as const,
    customUrl: "",
    mode: "direct" as const,
    headerLanguage: "keys" as const,
  };
  await saveSettings(store, {
    ...defaults,
    preset: "custom",
    customUrl: "http://api.example.com/v1",
  });
  expect(await loadSettings(store, defaults)).toEqual(defaults);
  await saveSettings(store, { ...defaults, preset: "custom", customUrl: "http://127.0.0.1:9/v1" });
  expect((await loadSettings(store, defaults)).preset).toBe("custom");
});
