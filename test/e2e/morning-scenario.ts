// The morning after results on the Excel stand-in's host models: a 20-company model saved the
// evening before 8 of them file, reopened once the filings are visible. Shared by
// morning-open-desktop.test.ts and morning-open-web.test.ts, two files so that their waits on the
// client's pacing (60 requests a minute) run side by side.
import fs from "node:fs";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { getDataset } from "../../sandbox/data";
import { seasonFilingTimes } from "../../sandbox/lib/filing-times";
import type { WorkbookSnapshot } from "../../standin/workbook-snapshot";
import { startSandbox } from "../../sandbox/server";
import { startHarness, type Harness } from "./harness";
import { routeBuildSandbox, tid, type CellInfo } from "./cockpit-helpers";
import { E2E_BUILD_BASE_URL, E2E_DIST } from "./paths";
import { storedAnswers } from "./stored-answers";
import { DUE_RECORD_SETTING } from "../../taskpane/open/due-record";

/**
 * The calendar (JST = UTC+9): the evening of Wednesday 11 November 2026 (17:00 JST) the analyst
 * builds and saves the model; 8 of its companies disclose their quarter's results (決算短信, the
 * quarter ended 30 September) at 16:00 JST that day, which reach the API 24 hours later
 * (openapi.json info.description; sandbox/lib/filing-times.ts); the others filed by 10 November.
 * The workbook is reopened on Friday 13 November at 08:00 JST, after Thursday's close.
 */
const NIGHT = "2026-11-11T07:00:00Z";
const BEFORE = "2026-11-10T06:00:00Z";
const EVENING = "2026-11-11T08:00:00Z";
const MORNING = "2026-11-12T23:00:00Z";
const CODES = [
  "1332",
  "1605",
  "1801",
  "1925",
  "2002",
  "2502",
  "2975",
  "3101",
  "3289",
  "3462",
  "3697",
  "4063",
  "4385",
  "4452",
  "4502",
  "4568",
  "4592",
  "4689",
  "5020",
  "5108",
];
export const FILING = seasonFilingTimes(getDataset(), CODES, 0.4, NIGHT, BEFORE);
const SHEET = "Model";
export const ROWS = CODES.length;
/** Each company's row: its latest quarter's sales, its LTM sales and its last close. */
const COLUMNS = ["B", "C", "D"] as const;
const formulaOf = (col: (typeof COLUMNS)[number], row: number): string =>
  ({
    B: `=KAISHA.FINANCIAL($A${row},"sales","FQ0")`,
    C: `=KAISHA.FINANCIAL($A${row},"sales","LTM")`,
    D: `=KAISHA.PRICE($A${row})`,
  })[col];
export const KAISHA_CELLS = ROWS * COLUMNS.length;
/** The cell the analyst types over during the morning's update (a price that changed). */
export const TYPED = { address: `D${ROWS + 1}`, text: "call IR" };

type Snapshot = WorkbookSnapshot;

type Hooks = {
  __excelStandIn: {
    enter(sheet: string, address: string, text: string): void;
    read(sheet: string, address: string): CellInfo[][];
    whenIdle(): Promise<void>;
    save(): Snapshot;
    openTaskPane(): void;
    runtimeStarted(): boolean;
    customFunctionCalls(): number;
    select(sheet: string, address: string): void;
  };
};

export const hooks = (page: Page) => ({
  enter: (a: string, text: string) =>
    page.evaluate(([s, x, t]) => (window as unknown as Hooks).__excelStandIn.enter(s, x, t), [
      SHEET,
      a,
      text,
    ] as const),
  read: () =>
    page.evaluate(([s, a]) => (window as unknown as Hooks).__excelStandIn.read(s, a), [
      SHEET,
      `B2:D${ROWS + 1}`,
    ] as const),
  idle: () => page.evaluate(() => (window as unknown as Hooks).__excelStandIn.whenIdle()),
  save: () => page.evaluate(() => (window as unknown as Hooks).__excelStandIn.save()),
  openTaskPane: () =>
    page.evaluate(() => (window as unknown as Hooks).__excelStandIn.openTaskPane()),
  calls: () =>
    page.evaluate(() => (window as unknown as Hooks).__excelStandIn.customFunctionCalls()),
});

/**
 * The build's sandbox URL (what `npm start` bakes in, with its demo key) routed to the test's
 * sandbox for every page of `context`; while `gate.held`, API requests wait (the morning's marks
 * are read before any answer can replace them).
 */
export async function routeSandbox(
  context: BrowserContext,
  target: string,
  gate: { held: Promise<void> | undefined },
): Promise<void> {
  await routeBuildSandbox(context, target, async () => {
    if (gate.held) await gate.held;
  });
}

/** Every KAISHA cell shows an answer (no #BUSY!) and the workbook has nothing calculating. */
async function settled(page: Page): Promise<CellInfo[][]> {
  const excel = hooks(page);
  for (;;) {
    await excel.idle();
    const cells = await excel.read();
    if (cells.flat().every((c) => typeof c.value !== "string" || !c.value.startsWith("#BUSY")))
      return cells;
    await page.waitForTimeout(250);
  }
}

export function apiRequests(h: Harness): string[] {
  return h.sandbox.sandbox.requestLog
    .filter((e) => e.path.startsWith("/v1/"))
    .map((e) => `${e.path}?${e.query ?? ""}`);
}

/**
 * Waits until the add-in has written the evening's answers to IndexedDB: the count of stored
 * answers unchanged over three reads a second apart (the store batches its writes 250 ms after an
 * answer, src/client/persistent-store.ts). Excel does not wait for an add-in when a workbook
 * closes: its only hook, Office.addin.beforeDocumentCloseNotification (SharedRuntime 1.2), asks the
 * analyst in a dialog and gives the runtime no time of its own, and IndexedDB aborts a page's
 * unfinished transactions when it goes. So the analyst here saves and closes once the answers
 * are stored, as one does after looking at the model; an answer still unwritten at the close would
 * cost one request the next morning (the flake this wait removes).
 */
async function storedQuiet(page: Page): Promise<number> {
  let last = -1;
  let same = 0;
  for (;;) {
    const n = await storedAnswers(page);
    same = n === last && n > 0 ? same + 1 : 0;
    if (same >= 2) return n;
    last = n;
    await page.waitForTimeout(1_000);
  }
}

/**
 * Waits until the runtime has kept the workbook's due record in its settings for every company
 * (taskpane/open/due-writer.ts: written once the cells and the background are settled), as the
 * analyst's save then keeps it.
 */
async function dueRecordSaved(page: Page): Promise<void> {
  for (;;) {
    const { settings } = await hooks(page).save();
    const due = (settings[DUE_RECORD_SETTING] as { due?: Record<string, number> } | undefined)?.due;
    const prices = Object.keys(due ?? {}).filter((g) => g.endsWith("|getPrices"));
    if (CODES.every((code) => prices.includes(`${code}|getPrices`))) return;
    await page.waitForTimeout(500);
  }
}

const isMarked = (c: CellInfo): boolean => /stale/.test(`${c.text} ${c.numberFormat}`);

/** The evening: the model built in a new workbook with the pane open, then saved twice. */
async function buildEvening(h: Harness, host: "desktop" | "web") {
  await routeSandbox(h.context, h.sandbox.url, { held: undefined });
  const page = await h.openPage("/taskpane.html?lang=en", {
    excel: true,
    displayLanguage: "en-US",
    standIn: { host },
  });
  await page.waitForSelector(`${tid("app-root")}[data-ready="true"]`);
  const excel = hooks(page);
  await page.evaluate((name) => {
    const w = window as unknown as {
      Excel: { run(b: (c: Excel.RequestContext) => Promise<void>): Promise<void> };
    };
    return w.Excel.run(async (context) => {
      context.workbook.worksheets.getItem("Sheet1").name = name;
      await context.sync();
    });
  }, SHEET);
  for (let i = 0; i < ROWS; i += 1) {
    const row = i + 2;
    await excel.enter(`A${row}`, CODES[i] ?? "");
    for (const col of COLUMNS) await excel.enter(`${col}${row}`, formulaOf(col, row));
  }
  const evening = await settled(page);
  expect(evening.flat().filter((c) => typeof c.value === "number")).toHaveLength(KAISHA_CELLS);
  await storedQuiet(page);
  await dueRecordSaved(page);
  // Saved before the question is answered: a workbook that does not start the add-in at open.
  const withoutStartup = await excel.save();
  // The pane asks once, the model in use: keep it up to date when it opens.
  await page.click(tid("open-ask-yes"));
  await page.waitForSelector(tid("open-ask"), { state: "detached" });
  const withStartup = await excel.save();
  expect(withStartup.startupBehavior).toBe("Load");
  await h.screenshot(page, `morning-open-${host}-01-evening`);
  await page.close();
  return { withStartup, withoutStartup, evening };
}

/**
 * A fresh session at the morning: a new browser profile (nothing stored), the same formulas, on a
 * sandbox of its own whose data clock is the morning's (the same deterministic data the harness's
 * sandbox serves once moved to the morning). Its own sandbox lets it run beside the evening
 * instead of after the morning (each session waits on its own client's pacing, 60 requests a
 * minute), and keeps its requests out of the harness sandbox's log, which the morning counts.
 */
async function freshMorning(h: Harness): Promise<CellInfo[][]> {
  const browser = h.context.browser();
  if (browser === null) throw new Error("no browser");
  const sandbox = await startSandbox({
    port: 0,
    ratePerMinute: 0,
    corsOrigins: ["*"],
    now: MORNING,
    filingTimes: FILING.times,
  });
  const context = await browser.newContext({ locale: "ja-JP", timezoneId: "Asia/Tokyo" });
  try {
    await context.clock.install({ time: Date.parse(MORNING) });
    await routeSandbox(context, sandbox.url, { held: undefined });
    const source = fs.readFileSync(path.join(E2E_DIST, "excel-standin.js"), "utf8");
    await context.addInitScript({
      content: `window.__excelStandInConfig = ${JSON.stringify({ displayLanguage: "en-US" })};\n${source}`,
    });
    const page = await context.newPage();
    await page.goto(`${h.server.url}/taskpane.html?lang=en`);
    await page.waitForSelector(`${tid("app-root")}[data-ready="true"]`);
    await page.evaluate((name) => {
      const w = window as unknown as {
        Excel: { run(b: (c: Excel.RequestContext) => Promise<void>): Promise<void> };
      };
      return w.Excel.run(async (c) => {
        c.workbook.worksheets.getItem("Sheet1").name = name;
        await c.sync();
      });
    }, SHEET);
    const excel = hooks(page);
    for (let i = 0; i < ROWS; i += 1) {
      const row = i + 2;
      await excel.enter(`A${row}`, CODES[i] ?? "");
      for (const col of COLUMNS) await excel.enter(`${col}${row}`, formulaOf(col, row));
    }
    return await settled(page);
  } finally {
    await context.close();
    await sandbox.close();
  }
}

/** The pane's account of the open once the background has finished. */
async function openSummary(page: Page) {
  const summary = page.locator(`${tid("open-summary")}[data-due-companies="0"]`);
  await summary.waitFor({ timeout: 240_000 });
  await page.waitForSelector(tid("revalidation-view"), { state: "detached" });
  return {
    requests: Number(await summary.getAttribute("data-requests")),
    cells: Number(await summary.getAttribute("data-cells")),
    companies: Number(await summary.getAttribute("data-companies")),
    text: (await summary.textContent()) ?? "",
  };
}

/**
 * Opens the saved workbook at the morning on `host`, API answers held until the cells' marks have
 * been read; then the analyst types over a cell, the answers flow, and the pane is opened.
 */
export async function morning(h: Harness, host: "desktop" | "web", workbook: Snapshot) {
  let release: () => void = () => undefined;
  const gate: { held: Promise<void> | undefined } = {
    held: new Promise<void>((resolve) => (release = resolve)),
  };
  await h.context.unroute(`${E2E_BUILD_BASE_URL}/**`);
  await routeSandbox(h.context, h.sandbox.url, gate);
  const sentBefore = apiRequests(h).length;
  const page = await h.openPage("/taskpane.html?lang=en", {
    excel: true,
    displayLanguage: "en-US",
    standIn: { host, workbook },
  });
  const excel = hooks(page);
  // The cells answered once more at open, from what is stored (on the web every cell, by the
  // host; on the desktop those whose data can have changed, by the add-in's open: every price at
  // least, a close since), and the calls over (none for 3 s).
  await page.waitForFunction(
    (n) => (window as unknown as Hooks).__excelStandIn.customFunctionCalls() >= n,
    host === "web" ? KAISHA_CELLS : ROWS,
    { timeout: 60_000 },
  );
  let callsAtOpen = -1;
  let before = await settled(page);
  while (
    callsAtOpen !== (await excel.calls()) ||
    before.flat().some((c) => typeof c.value !== "number")
  ) {
    callsAtOpen = await excel.calls();
    await page.waitForTimeout(3_000);
    before = await settled(page);
  }
  await excel.enter(TYPED.address, TYPED.text);
  gate.held = undefined;
  release();
  await excel.openTaskPane();
  // The pane's chunks load beside the background's work on a busy machine.
  await page.waitForSelector(`${tid("app-root")}[data-ready="true"]`, { timeout: 120_000 });
  let summary = await openSummary(page);
  // The background's last answers are recalculated a moment after the queue empties (merged per
  // second, taskpane/recalc-on-revalidation.ts): read once the cells and the account stop moving.
  let after = await settled(page);
  for (;;) {
    await page.waitForTimeout(3_000);
    const again = await settled(page);
    const account = await openSummary(page);
    const still =
      JSON.stringify(again) === JSON.stringify(after) && account.cells === summary.cells;
    after = again;
    summary = account;
    if (still) break;
  }
  await h.screenshot(page, `morning-open-${host}-02-after`);
  const morningRequests = apiRequests(h).slice(sentBefore);
  const calls = await excel.calls();
  await page.close();
  return { before, after, summary, morningRequests, calls, callsAtOpen };
}

export function expectCurrent(
  saved: CellInfo[][],
  before: CellInfo[][],
  after: CellInfo[][],
  fresh: CellInfo[][],
): void {
  const changed: string[] = [];
  const unmarked: string[] = [];
  const wrong: string[] = [];
  for (let r = 0; r < ROWS; r += 1)
    for (let c = 0; c < COLUMNS.length; c += 1) {
      const address = `${COLUMNS[c]}${r + 2}`;
      const was = saved[r]?.[c];
      const then = before[r]?.[c];
      const now = after[r]?.[c];
      const truth = fresh[r]?.[c];
      if (was?.value !== truth?.value) {
        changed.push(address);
        // Before the update: a changed cell shows its stored figure only marked stale.
        if (then === undefined || (then.value !== truth?.value && !isMarked(then)))
          unmarked.push(`${address}: ${String(then?.value)} (${then?.text})`);
      }
      if (address === TYPED.address) continue;
      if (now?.value !== truth?.value || (now !== undefined && isMarked(now)))
        wrong.push(
          `${address}: ${String(now?.value)} (${now?.text}), fresh ${String(truth?.value)}`,
        );
    }
  // The scenario has changes to find: the filers' quarters, every company's close.
  expect(changed.length).toBeGreaterThanOrEqual(FILING.filers.length * 2 + ROWS);
  expect(unmarked).toEqual([]);
  expect(wrong).toEqual([]);
}

/** What a suite's beforeAll prepares: the evening's workbooks, and the fresh session's cells. */
export interface Prepared {
  h: Harness;
  saved: Awaited<ReturnType<typeof buildEvening>>;
  /** A fresh session at the morning (what every cell must equal once updated). */
  fresh: CellInfo[][];
}

/**
 * The evening built on `host` and saved, the fresh session at the morning beside it, then the
 * harness's sandbox and pages moved to the morning.
 */
export async function prepareMorning(host: "desktop" | "web"): Promise<Prepared> {
  const h = await startHarness({ sandbox: { now: EVENING, filingTimes: FILING.times } });
  const [saved, fresh] = await Promise.all([buildEvening(h, host), freshMorning(h)]);
  h.sandbox.sandbox.setNow(MORNING);
  await h.context.clock.setSystemTime(Date.parse(MORNING));
  return { h, saved, fresh };
}
