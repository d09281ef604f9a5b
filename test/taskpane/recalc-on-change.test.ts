// taskpane/recalc-on-change: saving a key recalculates KAISHA formulas once per burst of changes.

import { getSettings, setClientForTesting } from "../../src/session";
import { startPaneSession } from "../../taskpane/pane-session";
import { recalcOnSessionChange, RECALC_DEBOUNCE_MS } from "../../taskpane/recalc-on-change";
import { memoryStore } from "../../taskpane/state/key-store";

const KEY = "kaisakey_" + "r".repeat(43);

beforeEach(() => jest.useFakeTimers());
afterEach(() => {
  jest.useRealTimers();
  setClientForTesting(undefined);
});

test("saving a key, then changing the server, recalculates once after the burst", async () => {
  const session = await startPaneSession({ store: memoryStore() });
  const recalculate = jest.fn(async () => undefined);
  const off = recalcOnSessionChange(session.onChange, recalculate);
  await session.setKey(KEY, false);
  await session.applySettings({ ...session.settings, preset: "sandbox" });
  expect(getSettings().baseUrl).toBe("http://127.0.0.1:8787/v1");
  expect(recalculate).not.toHaveBeenCalled();
  jest.advanceTimersByTime(RECALC_DEBOUNCE_MS);
  expect(recalculate).toHaveBeenCalledTimes(1);

  await session.forgetKey();
  jest.advanceTimersByTime(RECALC_DEBOUNCE_MS);
  expect(recalculate).toHaveBeenCalledTimes(2);

  off();
  await session.setKey(KEY, false);
  jest.advanceTimersByTime(RECALC_DEBOUNCE_MS);
  expect(recalculate).toHaveBeenCalledTimes(2);
});

test("a failing recalculation is contained", async () => {
  const session = await startPaneSession({ store: memoryStore() });
  const recalculate = jest.fn(() => Promise.reject(new Error("Excel busy")));
  const off = recalcOnSessionChange(session.onChange, recalculate);
  await session.setKey(KEY, false);
  jest.advanceTimersByTime(RECALC_DEBOUNCE_MS);
  await Promise.resolve();
  expect(recalculate).toHaveBeenCalledTimes(1);
  off();
});
