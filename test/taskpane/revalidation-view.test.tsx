// The pane's view of background updates on open: wording in both languages, pause state, the budget.

import { RevalidationView } from "../../taskpane/components/revalidation-view";
import { RefreshSection } from "../../taskpane/components/refresh-section";
import { createClient, type RevalidationStatus } from "../../src/client";
import type { Lang } from "../../taskpane/i18n/language";
import type { PaneClient } from "../../taskpane/state/pane-client";
import {
  EMPTY_REVALIDATION,
  minutesLeft,
  parseBudget,
  revalidationLine,
} from "../../taskpane/state/revalidation-model";
import { loadBudget, saveBudget } from "../../src/revalidation-budget";
import { renderInPane } from "./render-in-pane";

function render(status: RevalidationStatus, lang: Lang, what: "view" | "refresh" = "view"): string {
  const queue = {
    status: () => status,
    onStatus: () => () => undefined,
    pause: () => undefined,
    resume: () => undefined,
    cancel: () => 0,
    setDailyBudget: () => undefined,
  };
  // A client that sends nothing, its queue replaced by the status shown (the Refresh section's
  // other parts read the client's stats).
  const real = createClient({
    baseUrl: "http://127.0.0.1:9",
    apiKey: "unused",
    fetch: () => Promise.reject(new Error("no request in this test")),
  });
  const client = Object.assign(Object.create(real) as object, {
    revalidation: () => queue,
  }) as unknown as PaneClient;
  return renderInPane(what === "view" ? <RevalidationView /> : <RefreshSection />, client, lang);
}

const running: RevalidationStatus = {
  ...EMPTY_REVALIDATION,
  companies: 37,
  requests: 230,
  inFlight: 1,
  estimatedMs: 230_000,
};

test("while companies update, the pane says how many and the minutes left, in English and Japanese", () => {
  const en = render(running, "en");
  expect(en).toContain("Updating 37 companies, 4 min left.");
  expect(en).toContain('data-testid="revalidation-pause"');
  expect(en).toContain('data-testid="revalidation-cancel"');
  expect(en).toContain('data-testid="revalidation-budget"');
  expect(render(running, "ja")).toContain("37社を更新中（残り約4分）。");
});

test("paused by the user: Resume instead of Pause; a spent budget says it waits for tomorrow", () => {
  const paused = render({ ...running, paused: "user" }, "en");
  expect(paused).toContain('data-testid="revalidation-resume"');
  expect(paused).not.toContain('data-testid="revalidation-pause"');
  const spent = render({ ...running, paused: "budget", dailyBudget: 300 }, "en");
  expect(spent).toContain("budget (300 requests) is spent: 37 companies wait until tomorrow");
});

test("companies the budget left unchecked since their results were due are counted, in English and Japanese", () => {
  const spent = { ...running, paused: "budget" as const, dailyBudget: 800, unchecked: 3 };
  expect(render(spent, "en")).toContain(
    "3 companies not yet checked since results were due: the cells stay marked (stale) until checked.",
  );
  expect(render(spent, "ja")).toContain("決算発表の予定日以降まだ確認していない会社が3社あります");
  expect(render({ ...spent, unchecked: 1 }, "en")).toContain(
    "1 company not yet checked since results were due",
  );
  expect(render(running, "en")).not.toContain("revalidation-unchecked");
});

test("nothing to update: no status line and no field above the sections; the Refresh section keeps the budget field, the default filled in", () => {
  const idle = render(EMPTY_REVALIDATION, "en");
  expect(idle).not.toContain("revalidation-view");
  expect(idle).not.toContain('data-testid="revalidation-budget"');
  const refresh = render(EMPTY_REVALIDATION, "en", "refresh");
  expect(refresh).toContain("Background updates");
  expect(refresh).toMatch(
    /data-testid="revalidation-budget"[^>]*value="800"|value="800"[^>]*data-testid="revalidation-budget"/,
  );
  expect(refresh).toContain("800 unless you change it");
  const ja = render(EMPTY_REVALIDATION, "ja", "refresh");
  expect(ja).toContain("バックグラウンド更新");
  expect(ja).toContain("既定は800件");
});

test("minutes round up, under a minute says so", () => {
  expect(minutesLeft({ ...running, estimatedMs: 61_000 })).toBe(2);
  expect(revalidationLine({ ...running, estimatedMs: 30_000 }).key).toBe("revalUpdatingSoon");
});

test("the daily budget: digits (full width too), empty for no limit, anything else refused; kept on this computer", () => {
  expect(parseBudget(" 600 ")).toBe(600);
  expect(parseBudget("６００")).toBe(600);
  expect(parseBudget("")).toBeNull();
  expect(parseBudget("-5")).toBeNaN();
  expect(parseBudget("1e3")).toBeNaN();
  const items = new Map<string, string>();
  const store = {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  } as unknown as Storage;
  expect(loadBudget(store)).toBeUndefined(); // none chosen: the default applies
  saveBudget(450, store);
  expect(loadBudget(store)).toBe(450);
  saveBudget(null, store);
  expect(loadBudget(store)).toBeNull(); // no limit
  saveBudget(undefined, store);
  expect(loadBudget(store)).toBeUndefined();
});
