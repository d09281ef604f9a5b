// What the pane says about the open (both languages), and the startup behaviour asked once and kept in the document, never the key.

import { EMPTY_REVALIDATION } from "../../taskpane/state/revalidation-model";
import { translator } from "../../taskpane/i18n/messages";
import type { OpenReport, OpenResult } from "../../taskpane/open/morning-open";
import { openLines, updateCostLine } from "../../taskpane/open/open-summary";
import {
  OPEN_UPDATE_SETTING,
  chooseOpenUpdate,
  officeStartup,
  shouldAskOpenUpdate,
} from "../../taskpane/open/startup-behavior";

const en = translator("en");
const ja = translator("ja");

function result(over: Partial<OpenResult> = {}): OpenResult {
  return {
    cells: 412,
    calledBy: "recalculated",
    recalculated: 412,
    kept: 0,
    keptGroups: new Set(),
    due: EMPTY_REVALIDATION,
    ...over,
  };
}

function report(over: Partial<OpenReport> = {}): OpenReport {
  return { companies: 0, cells: 0, requests: 0, due: EMPTY_REVALIDATION, ...over };
}

const say = (t: typeof en, lines: ReturnType<typeof openLines>) =>
  lines.map((l) => t(l.key, l.vars)).join(" ");

test("after the morning: companies updated, cells recalculated, requests, in English and Japanese", () => {
  const lines = openLines(result(), report({ companies: 37, cells: 412, requests: 45 }));
  expect(say(en, lines)).toBe("Updated 37 companies: 412 cells recalculated, 45 requests.");
  expect(say(ja, lines)).toBe("37社を更新しました：412セルを再計算、45件のリクエスト。");
});

test("a morning whose checks found nothing changed says so, and an open that found no cell says nothing", () => {
  const checked = openLines(result(), report({ requests: 24 }));
  expect(say(en, checked)).toBe("Checked at open: nothing had changed (24 requests).");
  expect(say(ja, checked)).toBe(
    "開いたときに確認しました：変更はありませんでした（24件のリクエスト）。",
  );
  // The workbook had no KAISHA cell at open: the requests since are its new cells', not the open's.
  expect(openLines(result({ cells: 0 }), report({ requests: 11 }))).toEqual([]);
});

test("what is still due and its cost; the budget's wait said as such", () => {
  const due = { ...EMPTY_REVALIDATION, companies: 3, requests: 5, estimatedMs: 5_000 };
  expect(say(en, openLines(result(), report({ due })))).toBe(
    "Still due: 3 companies, at most 5 requests, about 1 min.",
  );
  const spent = { ...due, paused: "budget" as const, dailyBudget: 800 };
  expect(say(ja, openLines(result(), report({ due: spent })))).toBe(
    "未更新：3社、最大5件のリクエストは明日のバックグラウンド更新の上限（1日800件）で送信します。",
  );
});

test("an open held for Update: what can have changed and what Update costs, before anything is sent", () => {
  const due = {
    ...EMPTY_REVALIDATION,
    companies: 20,
    requests: 24,
    estimatedMs: 24_000,
    paused: "user" as const,
  };
  const held = result({ due, update: () => undefined });
  expect(say(en, openLines(held, report({ due })))).toBe(
    "This workbook was not updated when it opened: 20 companies can have changed (their cells are marked stale). Update: 20 companies, at most 24 requests, about 1 min.",
  );
  expect(updateCostLine(due).vars).toEqual({ c: 20, n: 24, m: 1 });
});

test("nothing done and nothing due: the pane says nothing", () => {
  expect(openLines(result({ cells: 0, calledBy: "none" }), report())).toEqual([]);
});

/** Office as the add-in sees it: the requirement sets, the add-in's startup API, the settings. */
function office(sets: string[]) {
  const settings = new Map<string, unknown>();
  const behaviors: unknown[] = [];
  (globalThis as { Office?: unknown }).Office = {
    context: {
      requirements: { isSetSupported: (name: string) => sets.includes(name) },
      document: {
        settings: {
          get: (k: string) => settings.get(k) ?? null,
          set: (k: string, v: unknown) => settings.set(k, v),
          saveAsync: (cb: (r: { status: string }) => void) => cb({ status: "succeeded" }),
        },
      },
    },
    addin: { setStartupBehavior: async (b: unknown) => void behaviors.push(b) },
    StartupBehavior: { load: "Load", none: "None" },
  };
  return { settings, behaviors };
}

afterEach(() => delete (globalThis as { Office?: unknown }).Office);

test("asked once, in a workbook with KAISHA cells, on a host with a shared runtime; the answer sets the startup behaviour and is kept in the document", async () => {
  const o = office(["SharedRuntime", "ExcelApi"]);
  const port = officeStartup();
  expect(shouldAskOpenUpdate(port, 0)).toBe(false);
  expect(shouldAskOpenUpdate(port, 3)).toBe(true);
  await chooseOpenUpdate(port, "on");
  expect(o.behaviors).toEqual(["Load"]);
  expect([...o.settings]).toEqual([[OPEN_UPDATE_SETTING, "on"]]);
  expect(shouldAskOpenUpdate(port, 3)).toBe(false);
  // Turned off in the pane: the behaviour back to none, the choice kept.
  await chooseOpenUpdate(port, "off");
  expect(o.behaviors).toEqual(["Load", "None"]);
  expect(port.readChoice()).toBe("off");
  expect(shouldAskOpenUpdate(port, 3)).toBe(false);
});

test("a host without SharedRuntime 1.1 is never asked and nothing is stored", async () => {
  const o = office(["ExcelApi"]);
  const port = officeStartup();
  expect(shouldAskOpenUpdate(port, 3)).toBe(false);
  await chooseOpenUpdate(port, "on");
  expect(o.behaviors).toEqual([]);
  expect(o.settings.size).toBe(0);
});
