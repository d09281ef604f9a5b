// workbook.html: the task pane beside a workbook grid on the Excel stand-in, as `npm start` serves it,
// so a newcomer runs the pane's flows in a browser: select a cell in the grid, build and insert a
// formula from the pane, import a table, type a formula into the grid's bar.
import type { Page } from "playwright-core";
import { startHarness, type Harness } from "./harness";
import { nav, routeBuildSandbox, tid } from "./cockpit-helpers";

let h: Harness;
let page: Page;

beforeAll(async () => {
  h = await startHarness();
  await routeBuildSandbox(h.context, h.sandbox.url);
});

afterAll(async () => {
  await page?.close();
  await h?.close();
});

const cell = (address: string) => `${tid("wb-grid")} td[data-address="${address}"]`;

test.each(["ja", "en"] as const)(
  "in %s: the pane writes into the grid's workbook; the grid's selection is where it writes",
  async (lang) => {
    page = await h.openPage(`/workbook.html?lang=${lang}`);
    await page.setViewportSize({ width: 1100, height: 900 });
    await page.waitForSelector(`${tid("app-root")}[data-ready="true"][data-lang="${lang}"]`);
    await page.waitForSelector(`${tid("connection-status")}[data-state="ok"]`);
    // The pane knows it is in a workbook: no "Excel is not available" notice.
    expect(await page.locator(tid("excel-unavailable")).count()).toBe(0);
    // The pane keeps a task pane's width beside the grid: every tab in one row, labels short.
    const paneWidth = await page.evaluate(
      () => document.querySelector(".kaisha-workbook-pane")?.getBoundingClientRect().width ?? 0,
    );
    expect(paneWidth).toBe(350);

    // Select B2 in the grid, build a formula in the pane and insert it there.
    await page.click(cell("B2"));
    await nav(page, "builder");
    await page.selectOption(tid("builder-function-select"), "FINANCIAL");
    await page.click(tid("builder-use-example"));
    await page.click(tid("builder-insert"));
    await page.waitForSelector(`${cell("B2")}[data-kind="number"]`);
    expect(await page.inputValue(tid("wb-input"))).toMatch(/^=KAISHA\.FINANCIAL\(/);

    // A formula typed into the grid's bar calculates too.
    await page.click(cell("D4"));
    await page.fill(tid("wb-input"), '=KAISHA.FINANCIAL(6758,"net_income",0)');
    await page.press(tid("wb-input"), "Enter");
    await page.waitForSelector(`${cell("D4")}[data-kind="number"]`);

    // Errors show as Excel shows them, #N/A and #VALUE!, with the message naming what was typed.
    for (const [address, formula, code, named] of [
      ["A4", '=KAISHA.FINANCIAL(9999,"sales")', "#N/A", "9999"],
      ["A5", "=KAISHA.PRICE(7203,DATE(2030,1,1))", "#VALUE!", "2030/01/01"],
    ] as const) {
      await page.click(cell(address));
      await page.fill(tid("wb-input"), formula);
      await page.press(tid("wb-input"), "Enter");
      // #BUSY! while it calculates, then its error: by code, never "NotAvailable" / "Value".
      await page.waitForFunction(
        ([sel, text]) => document.querySelector(sel)?.textContent?.trim() === text,
        [cell(address), code] as const,
      );
      expect(await page.getAttribute(cell(address), "data-kind")).toBe("error");
      await page.click(cell(address));
      await page.waitForFunction(
        ([sel, text]) => (document.querySelector(sel)?.textContent ?? "").includes(text),
        [tid("wb-notes"), named] as const,
      );
    }

    // An import lands at the selected cell, as a table the grid shows.
    await page.click(cell("A8"));
    await nav(page, "import");
    await page.selectOption(tid("import-dataset-select"), "valuations");
    await page.fill(tid("import-param-security_code"), "7203");
    await page.click(tid("import-run"));
    await page.waitForSelector(`${tid("import-message")}[data-intent="success"]`);
    await page.waitForFunction(
      (sel) => (document.querySelector(sel)?.textContent ?? "") !== "",
      cell("A8"),
    );
    // The import's money unit (百万円 by default) shows amounts only: a price per share is the
    // price, never 0 (README "Money (one scale)").
    const priceColumn = await page.evaluate(() => {
      const header = [
        ...document.querySelectorAll('[data-testid="wb-grid"] td[data-address$="8"]'),
      ].find((c) => /^(stock_price|株価（期末）（円）)$/.test(c.textContent?.trim() ?? ""));
      return header?.getAttribute("data-address")?.replace(/\d+$/, "");
    });
    expect(priceColumn).toBeDefined();
    const price = Number(
      ((await page.textContent(cell(`${priceColumn}9`))) ?? "").replace(/,/g, ""),
    );
    expect(price).toBeGreaterThan(100);
    await h.screenshot(page, `workbook-${lang}-01-pane-beside-grid`);
    await page.close();
  },
);
