// The stand-in's host calculation model with the real add-in (standin/STANDIN.md "Host model"): a
// workbook of KAISHA cells saved and reopened on the desktop (nothing called, saved values shown, the
// runtime held until the pane opens or the startup behaviour is Load) and on the web (every cell
// called); inserting rows calls every cell again, F9 none, Worksheet.calculate(markAllDirty) all.
/* eslint-disable @typescript-eslint/no-explicit-any -- the page's Excel and Office objects, untyped here */
import type { Page } from "playwright-core";
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import type { WorkbookSnapshot } from "../../standin/workbook-snapshot";
import { startHarness, type Harness } from "./harness";

let h: Harness;

interface StandIn {
  enter(sheet: string, address: string, text: string): void;
  read(sheet: string, address: string): { value: unknown; formula?: string; text: string }[][];
  whenIdle(): Promise<void>;
  functions(): string[];
  log: string[];
  save(): WorkbookSnapshot;
  runtimeStarted(): boolean;
  openTaskPane(): void;
  customFunctionCalls(): number;
  insertRows(sheet: string, at: number, count: number): void;
  pressF9(): void;
}
type W = {
  __excelStandIn: StandIn;
  Excel: { run(batch: (ctx: any) => Promise<void>): Promise<void> };
};

/** The KAISHA cells of the saved workbook (B1:B3), each over the company code in column A. */
const FORMULAS: [string, string][] = [
  ["B1", '=KAISHA.FINANCIAL(A1,"sales",202403)'],
  ["B2", '=KAISHA.FINANCIAL(A2,"sales",202403)'],
  ["B3", '=KAISHA.PRICE(A3,"close","2024-01-04")'],
];

const standIn = <T>(page: Page, fn: (s: StandIn) => T | Promise<T>): Promise<T> =>
  page.evaluate(`(${fn.toString()})(window.__excelStandIn)`) as Promise<T>;

const values = (page: Page): Promise<unknown[]> =>
  page.evaluate(() =>
    (window as unknown as W).__excelStandIn.read("Sheet1", "B1:B3").map((row) => row[0]?.value),
  );

/** A new workbook with the pane open and the demo key saved; the key's recalculation done. */
async function newWorkbook(): Promise<Page> {
  const query = new URLSearchParams({ baseUrl: h.sandbox.url, lang: "en" }).toString();
  const page = await h.openPage(`/taskpane.html?${query}`, { excel: true });
  await page.waitForSelector('[data-testid="app-root"][data-ready="true"]');
  await page.fill('[data-testid="key-input"]', DEMO_API_KEY);
  await page.click('[data-testid="key-verify"]');
  await page.waitForSelector('[data-testid="connection-status"][data-state="ok"]');
  await page.waitForFunction(() =>
    (window as unknown as W).__excelStandIn.log.some((line) => line.startsWith("calculate")),
  );
  return page;
}

/** The workbook of FORMULAS over 7203, 6758, 7203, calculated; its values and the page. */
async function builtWorkbook(): Promise<{ page: Page; shown: unknown[] }> {
  const page = await newWorkbook();
  for (const [address, text] of [
    ["A1", "7203"],
    ["A2", "6758"],
    ["A3", "7203"],
    ...FORMULAS,
  ] as const)
    await page.evaluate(([a, t]) => (window as unknown as W).__excelStandIn.enter("Sheet1", a, t), [
      address,
      text,
    ] as const);
  await standIn(page, (s) => s.whenIdle());
  const shown = await values(page);
  // Real figures, not errors or #BUSY!: what the reopen must show again.
  for (const v of shown) expect(typeof v).toBe("number");
  return { page, shown };
}

async function reopen(workbook: WorkbookSnapshot, host: "desktop" | "web"): Promise<Page> {
  const query = new URLSearchParams({ baseUrl: h.sandbox.url, lang: "en" }).toString();
  return h.openPage(`/taskpane.html?${query}`, { excel: true, standIn: { host, workbook } });
}

beforeAll(async () => {
  h = await startHarness({ pageClock: "sandbox" });
});

afterAll(async () => {
  await h?.close();
});

describe("host calculation model", () => {
  test("desktop: the reopened workbook shows its saved values and calls nothing; the runtime waits for the pane", async () => {
    const { page, shown } = await builtWorkbook();
    const saved = await standIn(page, (s) => s.save());
    await page.close();
    const requestsBefore = h.sandbox.sandbox.requestLog.length;

    const desk = await reopen(saved, "desktop");
    await desk.waitForLoadState("load");
    await standIn(desk, (s) => s.whenIdle());
    expect(await values(desk)).toEqual(shown);
    expect(await standIn(desk, (s) => s.customFunctionCalls())).toBe(0);
    expect(await standIn(desk, (s) => s.runtimeStarted())).toBe(false);
    // The add-in's code has not run: no function registered, no pane, no request.
    expect(await standIn(desk, (s) => s.functions().length)).toBe(0);
    expect(await desk.locator('[data-testid="app-root"]').count()).toBe(0);
    expect(h.sandbox.sandbox.requestLog.length).toBe(requestsBefore);
    // F9 calls no custom function, so it does not start the runtime either.
    await standIn(desk, (s) => s.pressF9());
    await standIn(desk, (s) => s.whenIdle());
    expect(await standIn(desk, (s) => s.customFunctionCalls())).toBe(0);

    await standIn(desk, (s) => s.openTaskPane());
    await desk.waitForSelector('[data-testid="app-root"][data-ready="true"]');
    expect(await standIn(desk, (s) => s.runtimeStarted())).toBe(true);
    expect(await standIn(desk, (s) => s.functions())).toContain("FINANCIAL");
    await desk.close();
  });

  test("web: the reopened workbook calls every custom function cell once the functions are registered", async () => {
    const { page } = await builtWorkbook();
    const saved = await standIn(page, (s) => s.save());
    await page.close();

    const web = await reopen(saved, "web");
    expect(await standIn(web, (s) => s.runtimeStarted())).toBe(true);
    await web.waitForFunction(
      (n) => (window as unknown as W).__excelStandIn.customFunctionCalls() >= n,
      FORMULAS.length,
    );
    // The host's calls at load (the add-in's own open may call a cell again: not counted here).
    expect(await standIn(web, (s) => s.log)).toContain("open: every custom function");
    await web.close();
  });

  test("desktop: a workbook whose startup behaviour is Load starts the add-in's runtime at open, its pane hidden", async () => {
    const { page } = await builtWorkbook();
    await page.evaluate(async () => {
      const office = (window as unknown as { Office: any }).Office;
      await office.addin.setStartupBehavior(office.StartupBehavior.load);
    });
    const saved = await standIn(page, (s) => s.save());
    expect(saved.startupBehavior).toBe("Load");
    await page.close();

    const desk = await reopen(saved, "desktop");
    expect(await standIn(desk, (s) => s.runtimeStarted())).toBe(true);
    await desk.waitForFunction(() =>
      (window as unknown as W).__excelStandIn.functions().includes("FINANCIAL"),
    );
    expect(await desk.evaluate(() => document.visibilityState)).toBe("hidden");
    await desk.close();
  });

  test("inserting rows calls every custom function again; F9 calls none; Worksheet.calculate(markAllDirty) calls them all", async () => {
    const { page, shown } = await builtWorkbook();
    const calls = () => standIn(page, (s) => s.customFunctionCalls());
    const base = await calls();

    await standIn(page, (s) => s.pressF9());
    await standIn(page, (s) => s.whenIdle());
    expect(await calls()).toBe(base);

    await standIn(page, (s) => s.insertRows("Sheet1", 1, 1));
    await standIn(page, (s) => s.whenIdle());
    expect(await calls()).toBe(base + FORMULAS.length);
    const moved = await page.evaluate(() =>
      (window as unknown as W).__excelStandIn.read("Sheet1", "B2:B4").map((row) => row[0]),
    );
    expect(moved.map((c) => c?.value)).toEqual(shown);
    expect(moved[0]?.formula).toBe('=KAISHA.FINANCIAL(A2,"sales",202403)');

    await page.evaluate(() =>
      (window as unknown as W).Excel.run(async (ctx) => {
        ctx.workbook.worksheets.getItem("Sheet1").calculate(true);
        await ctx.sync();
      }),
    );
    await standIn(page, (s) => s.whenIdle());
    expect(await calls()).toBe(base + 2 * FORMULAS.length);
    await page.close();
  });
});
