// Re-entering KAISHA formulas in the browser with the Excel stand-in: loads are copies taken in the
// batch; neither Problems Retry nor the builder's Update leaves the analyst's typing overwritten.
import type { Page } from "playwright-core";
import { startHarness, type Harness } from "./harness";
import { message, nav, openConnectedPane, tid, type standIn } from "./cockpit-helpers";

let h: Harness;
let page: Page;
let excel: ReturnType<typeof standIn>;

const UNKNOWN = '=KAISHA.FINANCIAL(9999,"sales")';

beforeAll(async () => {
  h = await startHarness();
  ({ page, excel } = await openConnectedPane(h, "en"));
});

afterAll(async () => {
  await h?.close();
});

test("stand-in: a loaded value is a copy taken in its batch; a load queued before a write sees the cell before it", async () => {
  await excel.enter("Sheet1", "K1", "1");
  const seen = await page.evaluate(async () => {
    const w = window as unknown as {
      Excel: { run<T>(b: (c: Excel.RequestContext) => Promise<T>): Promise<T> };
      __excelStandIn: { enter(s: string, a: string, t: string): void };
    };
    return w.Excel.run(async (context) => {
      const cell = () => context.workbook.worksheets.getItem("Sheet1").getRange("K1");
      const first = cell().load("values");
      await context.sync();
      w.__excelStandIn.enter("Sheet1", "K1", "2"); // typed after the batch ran
      const before = cell().load("values");
      cell().values = [[3]];
      const after = cell().load("values");
      await context.sync();
      return [first.values[0]?.[0], before.values[0]?.[0], after.values[0]?.[0]];
    });
  });
  expect(seen).toEqual([1, 2, 3]);
  await excel.enter("Sheet1", "K1", "");
});

test("Retry re-enters only the problem cells still holding their formula; the analyst's typing stays, Text cells keep text", async () => {
  await nav(page, "refresh");
  for (const cell of ["A1", "A2", "A3", "A4"]) await excel.enter("Sheet1", cell, UNKNOWN);
  await excel.idle();
  // A4 holds its formula in a cell the analyst formatted as Text afterwards (the formula stays).
  await page.evaluate(() =>
    (
      window as unknown as {
        Excel: { run(b: (c: Excel.RequestContext) => Promise<void>): Promise<void> };
      }
    ).Excel.run(async (context) => {
      context.workbook.worksheets.getItem("Sheet1").getRange("A4").numberFormat = [["@"]];
      await context.sync();
    }),
  );
  await page.click(tid("problems-scan"));
  await page.waitForSelector(`${tid("problems-list")}[data-count="4"]`);

  // After the scan: a number typed over A2's #N/A. During Retry, between its read and its write:
  // text that looks like a formula typed into the Text cell A4, and a note over A3.
  await excel.enter("Sheet1", "A2", "42");
  await excel.enterAfterSync("Sheet1", "A4", "=SUM(1,2)");
  await excel.enterAfterSync("Sheet1", "A3", "check later");
  await page.click(tid("problems-retry"));
  expect((await message(page, "problems-message")).text).toBe("Recalculating 1 cell.");
  await excel.idle();

  const [a1, a2, a3, a4] = (await excel.read("Sheet1", "A1:A4")).map((row) => row[0]);
  expect(a1).toMatchObject({ formula: UNKNOWN, value: "#N/A" });
  expect(a2).toMatchObject({ formula: undefined, value: 42, numberFormat: "General" });
  expect(a3).toMatchObject({ formula: undefined, value: "check later" });
  expect(a4).toMatchObject({ formula: undefined, value: "=SUM(1,2)", numberFormat: "@" });
  await h.screenshot(page, "reenter-retry-keeps-typing");
});

test("builder Update: a note typed between its read and its write stays, and the pane asks", async () => {
  await excel.enter("Sheet1", "H20", '=KAISHA.PRICE("6758")');
  await excel.idle();
  await excel.select("Sheet1", "H20");
  await nav(page, "builder");
  await page.waitForSelector(`${tid("builder-editing")}[data-address$="H20"]`);
  await excel.enterAfterSync("Sheet1", "H20", "my note");
  await page.click(tid("builder-write-back"));
  await page.waitForSelector(tid("builder-overwrite"));
  expect(await page.textContent(tid("builder-overwrite"))).toContain("my note");
  expect((await excel.read("Sheet1", "H20"))[0]?.[0]).toMatchObject({
    formula: undefined,
    value: "my note",
  });
  await page.click(tid("builder-overwrite-cancel"));
  expect((await excel.read("Sheet1", "H20"))[0]?.[0]?.value).toBe("my note");
});
