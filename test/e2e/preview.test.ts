// The preview page in headless Chromium: KAISHA formulas typed into the grid run through the real
// functions bundle against the sandbox, spill, and show #VALUE!/#N/A with their messages.
import type { Page } from "playwright-core";
import { startHarness, type Harness } from "./harness";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
});

async function openPreview(query: Record<string, string>): Promise<Page> {
  const search = new URLSearchParams({ baseUrl: h.sandbox.url, ...query }).toString();
  const page = await h.openPage(`/preview.html?${search}`);
  await page.waitForSelector('[data-testid="preview-root"][data-ready="true"]');
  return page;
}

/** Types a formula into a cell through the name box and the formula bar, as a user would. */
async function enter(page: Page, address: string, formula: string): Promise<void> {
  await page.fill('[data-testid="preview-address"]', address);
  await page.fill('[data-testid="preview-formula-input"]', formula);
  await page.press('[data-testid="preview-formula-input"]', "Enter");
}

async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelector('td[data-kind="busy"]') === null);
}

async function cell(
  page: Page,
  address: string,
): Promise<{ text: string; kind: string; title: string }> {
  const td = page.locator(`[data-testid="preview-cell-${address}"]`);
  return {
    text: (await td.textContent()) ?? "",
    kind: (await td.getAttribute("data-kind")) ?? "",
    title: (await td.getAttribute("title")) ?? "",
  };
}

function sandboxRequests(path: string): number {
  return h.sandbox.sandbox.requestLog.filter((e) => JSON.stringify(e).includes(path)).length;
}

describe("preview page", () => {
  test("loads every KAISHA function from the bundle and uses the sandbox demo key by default", async () => {
    const page = await openPreview({ lang: "ja" });
    const count = Number(await page.getAttribute('[data-testid="preview-root"]', "data-functions"));
    expect(count).toBeGreaterThanOrEqual(26);
    expect(await page.inputValue('[data-testid="preview-key"]')).toMatch(/^kaisakey_/);
    expect(await page.textContent('[data-testid="preview-badge"]')).toContain("サンドボックス");
    await page.click('[data-testid="preview-functions"] summary');
    await expect(
      page.locator('[data-testid="preview-fn-FINANCIALS"]').textContent(),
    ).resolves.toContain("KAISHA.FINANCIALS(会社"); // functions-ja.json: Japanese parameter names
    await h.screenshot(page, "preview-01-start-ja");
    await page.close();
  });

  test('=KAISHA.FINANCIALS(7203,"sales,net_income",,5) spills a statement table with numbers', async () => {
    const page = await openPreview({ lang: "ja" });
    await enter(page, "A1", '=KAISHA.FINANCIALS(7203,"sales,net_income",,5)');
    await settled(page);
    // items_down: a header row of periods, then one row per item.
    expect((await cell(page, "A2")).text).toBe("sales");
    expect((await cell(page, "A3")).text).toBe("net_income");
    const first = await cell(page, "B2");
    expect(first.kind).toBe("number");
    // Money comes as a formatted number (#,##0 in the unit asked for) on this 1.4 host, so it shows
    // with thousands separators instead of Excel's 11-character General form (STANDIN.md "General").
    expect(first.text).toMatch(/^-?\d{1,3}(,\d{3})*$/);
    expect((await cell(page, "F2")).kind).toBe("number"); // five fiscal years
    expect(await page.getAttribute('[data-testid="preview-cell-B3"]', "data-spill")).toBe(
      "spilled",
    );
    await page.click('[data-testid="preview-cell-A1"]');
    expect(await page.textContent('[data-testid="preview-detail-formula"]')).toContain(
      "KAISHA.FINANCIALS",
    );
    await h.screenshot(page, "preview-02-financials");
    await page.close();
  });

  test("dates come back as formatted date serials (yyyy/mm/dd), never as text", async () => {
    const page = await openPreview({ lang: "en" });
    await enter(page, "A1", '=KAISHA.PRICES(7203,"2024-01-04","2024-01-31","close,volume",,1)');
    await settled(page);
    expect((await cell(page, "A1")).text).toBe("date");
    const date = await cell(page, "A2");
    expect(date.kind).toBe("number");
    expect(date.text).toMatch(/^2024\/01\/\d\d$/);
    expect((await cell(page, "B2")).kind).toBe("number");
    await h.screenshot(page, "preview-03-prices-dates");
    await page.close();
  });

  test("an invalid argument is #VALUE! naming it, and sends no request", async () => {
    const page = await openPreview({ lang: "en" });
    const before = sandboxRequests("/financials");
    await enter(page, "B2", "=KAISHA.FINANCIALS(7203,,,99)");
    await settled(page);
    const c = await cell(page, "B2");
    expect(c.text).toBe("#VALUE!");
    expect(c.title).toMatch(/years/i);
    expect(sandboxRequests("/financials")).toBe(before);
    await page.click('[data-testid="preview-cell-B2"]');
    expect(await page.textContent('[data-testid="preview-detail-error"]')).toMatch(
      /#VALUE!.*years/i,
    );
    await page.close();
  });

  test("an unknown company is #N/A with a message a user can act on (Japanese)", async () => {
    const page = await openPreview({ lang: "ja" });
    await enter(page, "A1", '=KAISHA.FINANCIAL(9999,"sales")');
    await settled(page);
    const c = await cell(page, "A1");
    expect(c.text).toBe("#N/A");
    expect(c.title).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
    await page.click('[data-testid="preview-cell-A1"]');
    await h.screenshot(page, "preview-04-error-ja");
    await page.close();
  });

  test("without a key every call is #N/A telling the user to set one", async () => {
    const page = await openPreview({ lang: "en" });
    await page.fill('[data-testid="preview-key"]', "");
    await page.click('[data-testid="preview-apply"]');
    // A company no earlier test asked: answers persist in IndexedDB across pages, and a fresh
    // cached answer is shown without a key (as in Excel); an uncached one needs the key.
    await enter(page, "A1", '=KAISHA.FINANCIAL(6758,"sales")');
    await settled(page);
    const c = await cell(page, "A1");
    expect(c.text).toBe("#N/A");
    expect(c.title).toMatch(/key/i);
    await page.close();
  });

  test("a plain-http base URL to another host is refused: nothing applied, nothing sent there", async () => {
    const page = await openPreview({ lang: "en" });
    const foreign: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("api.example.com")) foreign.push(r.url());
    });
    const before = await page.inputValue('[data-testid="preview-base-url"]');
    await page.fill('[data-testid="preview-base-url"]', "http://api.example.com/v1");
    await page.click('[data-testid="preview-apply"]');
    const message = page.locator('[data-testid="preview-conn-message"]');
    expect(await message.textContent()).toMatch(/Not applied.*https:\/\//);
    expect(await message.getAttribute("data-kind")).toBe("error");
    // The previous connection stays: a formula still answers from the sandbox.
    await page.fill('[data-testid="preview-base-url"]', before);
    await enter(page, "A1", '=KAISHA.FINANCIAL(7203,"sales")');
    await settled(page);
    expect(typeof (await cell(page, "A1")).text).toBe("string");
    expect((await cell(page, "A1")).text).not.toMatch(/^#/);
    expect(foreign).toEqual([]);
    await page.close();
  });

  test("relay mode sends the requests through the host's /relay/v1 to the sandbox", async () => {
    const page = await openPreview({ lang: "en", mode: "relay" });
    const relayed: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/relay/v1/")) relayed.push(r.url());
    });
    await enter(page, "A1", '=KAISHA.FINANCIAL(7203,"net_income",-1)');
    await settled(page);
    expect((await cell(page, "A1")).kind).toBe("number");
    expect(relayed.length).toBeGreaterThan(0);
    expect(relayed.every((u) => u.startsWith(h.server.url))).toBe(true);
    await page.close();
  });

  test("while typing, the hint shows the function's arguments with the current one in bold", async () => {
    const page = await openPreview({ lang: "en" });
    await page.click('[data-testid="preview-formula-input"]');
    await page.keyboard.type('=KAISHA.FINANCIALS(7203,"sales",');
    expect(await page.textContent('[data-testid="preview-hint"] code')).toMatch(
      /^KAISHA\.FINANCIALS\(company, \[items\], \[period\]/,
    );
    expect(await page.textContent('[data-testid="preview-hint-current"]')).toBe("[period]");
    await h.screenshot(page, "preview-05-argument-hint");
    await page.close();
  });

  test("the help page (the functions' helpUrl) renders each function under its own anchor", async () => {
    const page = await h.openPage("/assets/help.html#financials");
    await page.waitForSelector("#financials h3");
    expect(await page.textContent("#financials h3")).toMatch(
      /^KAISHA\.FINANCIALS\(会社, \[項目\]/, // a Japanese browser reads functions-ja.json
    );
    expect(await page.locator("#functions > div").count()).toBeGreaterThanOrEqual(26);
    await page.close();
  });

  test("keyboard: click a cell, type a formula, Enter; arrows move; Delete clears", async () => {
    const page = await openPreview({ lang: "en" });
    await page.click('[data-testid="preview-cell-B2"]');
    await page.keyboard.type("=KAISHA.USAGE()");
    expect(await page.inputValue('[data-testid="preview-formula-input"]')).toBe("=KAISHA.USAGE()");
    await page.keyboard.press("Enter");
    await settled(page);
    const usage = await cell(page, "B2");
    expect(usage.kind).toBe("number");
    expect(await page.inputValue('[data-testid="preview-address"]')).toBe("B3");
    await page.keyboard.press("ArrowUp");
    expect(await page.inputValue('[data-testid="preview-formula-input"]')).toBe("=KAISHA.USAGE()");
    await page.keyboard.press("Delete");
    expect((await cell(page, "B2")).kind).toBe("empty");
    await page.close();
  });

  test("a blocked spill shows #SPILL! and a cell reference feeds another formula", async () => {
    const page = await openPreview({ lang: "en" });
    await enter(page, "A1", "7203");
    await enter(page, "C1", '=KAISHA.FINANCIAL(A1,"sales",0)');
    await settled(page);
    expect((await cell(page, "C1")).kind).toBe("number");
    await enter(page, "D5", "in the way");
    await enter(page, "D4", '=KAISHA.FINANCIALS(A1,"sales,net_income",,3)');
    await settled(page);
    expect((await cell(page, "D4")).text).toBe("#SPILL!");
    await page.close();
  });
});
