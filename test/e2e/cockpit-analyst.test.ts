// The pane as a Tokyo analyst uses it, in headless Chromium with the Excel stand-in, in
// both languages: Japanese headers by default in Japanese, English metric names in English, screening
// counts that agree with a labelled histogram, the Prices import's one-year window and cost, the
// builder opened on a cell's formula, errors in full in Problems. Screenshots of each at 320 and 350 px.
import type { Page } from "playwright-core";
import { startHarness, type Harness } from "./harness";
import { message, nav, openCockpit, standIn, tid, traceSection } from "./cockpit-helpers";
import { readableAmount } from "../../taskpane/state/resolved-text";
import { defaultPriceWindow } from "../../taskpane/state/price-window";

let h: Harness;

beforeAll(async () => {
  // The pages' clock at the sandbox's data clock: no answer falls due mid-test (harness.ts pageClock).
  h = await startHarness({ pageClock: "sandbox" });
});

afterAll(async () => {
  await h?.close();
});

const JAPANESE = /[\u3040-\u30ff\u4e00-\u9fff\uff08\uff09]/;

/**
 * The pane's widths. Only the layout depends on the width (the pane's CSS; no script reads it), so
 * each flow runs once per language, at the first width, and what the width changes (company names
 * within two lines, every screenshot) is checked at each width on the same page, resized. Each flow
 * at each width again (as before) checked the same writes and requests twice and doubled the suite's
 * time; cockpit-pane.test.ts opens the pane fresh at each width for the tabs and the overflow.
 */
const WIDTHS = [320, 350] as const;

const LANGUAGES = [{ lang: "ja" as const }, { lang: "en" as const }];

describe.each(LANGUAGES)("the analyst's pane in $lang", ({ lang }) => {
  let page: Page;
  let excel: ReturnType<typeof standIn>;
  const sheet = `Sheet1`;

  /** Runs `check` at each width (the page resized), and leaves the page at the flows' width. */
  async function atEachWidth(check: (width: number) => Promise<void>): Promise<void> {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await check(width);
    }
    await page.setViewportSize({ width: WIDTHS[0], height: 900 });
  }

  /** A screenshot of the page as it is, at each width. */
  const shot = (name: string) =>
    atEachWidth(async (width) => {
      await h.screenshot(page, `analyst-${lang}-${width}-${name}`);
    });

  beforeAll(async () => {
    page = await openCockpit(h, { lang, width: WIDTHS[0] });
    excel = standIn(page);
    await page.waitForSelector(`${tid("connection-status")}[data-state="ok"]`);
  });

  afterAll(async () => {
    await page?.close();
  });

  test("table headers: Japanese item names by default in Japanese, the API's keys in English", async () => {
    expect(await page.inputValue(tid("conn-header-language"))).toBe(lang === "ja" ? "ja" : "keys");
    await nav(page, "import");
    await page.selectOption(tid("import-dataset-select"), "financials");
    await page.fill(tid("import-param-security_code"), "7203");
    await excel.select(sheet, "A1");
    await page.click(tid("import-run"));
    expect((await message(page, "import-message")).intent).toBe("success");
    const header = ((await excel.read(sheet, "A1:AZ1"))[0] ?? []).map((c) => c.value);
    if (lang === "ja") {
      // 日本語の項目名 with the unit the column is in: 売上高（百万円）.
      const names = header.map((v) => String(v ?? "").replace(/（.*）$/, ""));
      expect(names).toEqual(expect.arrayContaining(["決算期", "売上高", "営業利益"]));
      expect(header).not.toContain("sales");
    } else {
      expect(header).toEqual(expect.arrayContaining(["sales", "operating_profit"]));
    }
  });

  test("screening: metric names in the pane's language; matches, rows shown and the histogram agree; names within two lines", async () => {
    await nav(page, "screening");
    await page.waitForSelector(tid("screen-metric-search"));
    await page.click(tid("screen-metric-search"));
    await page.keyboard.type("PER");
    const option = (await page.textContent(tid("screen-metric-option-per"))) ?? "";
    expect(option).toBe(lang === "ja" ? "PER（実績）" : "PER");
    await page.click(tid("screen-metric-option-per"));
    await page.selectOption(tid("screen-operator"), "lte");
    await page.fill(tid("screen-value"), "20");
    await page.click(tid("screen-add-condition"));
    await page.selectOption(tid("screen-sort-by"), "dividendYield");
    if (lang === "en") {
      // Every metric the form lists reads in English (the catalogue gives Japanese labels only).
      const sortNames = await page.$$eval(`${tid("screen-sort-by")} option`, (os) =>
        os.map((o) => o.textContent ?? ""),
      );
      expect(sortNames.filter((n) => JAPANESE.test(n))).toEqual([]);
      expect(await page.textContent(tid("screen-condition-0"))).not.toMatch(JAPANESE);
    }
    await page.click(tid("screen-preview"));
    await page.waitForSelector(tid("screen-total-count"));
    const total = Number(await page.textContent(tid("screen-total-count")));
    const rows = await page.locator(tid("screen-preview-row")).count();
    expect(total).toBeGreaterThan(0);
    // The table lists what the preview fetched (the row count, 30), and says how many of the matches.
    expect(rows).toBe(Math.min(total, 30));
    expect(Number(await page.getAttribute(tid("screen-shown-count"), "data-shown"))).toBe(rows);
    expect(await page.textContent(tid("screen-shown-count"))).toContain(String(rows));
    // The histogram counts the same rows: its bins add up to the companies charted.
    const bins = page.locator(`${tid("screen-histogram")} [role="listitem"]`);
    const counts = await bins.evaluateAll((els) =>
      els.map((e) => Number(e.getAttribute("data-count"))),
    );
    const charted = Number(await page.getAttribute(tid("screen-histogram"), "data-total"));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(charted);
    expect(charted).toBeGreaterThan(0);
    expect(charted).toBeLessThanOrEqual(rows);
    const title =
      (await page
        .locator(".fui-Field", { has: page.locator(tid("screen-histogram")) })
        .locator("label")
        .first()
        .textContent()) ?? "";
    expect(title).toContain(String(charted));
    // Each bin has its range and its count on screen.
    const binTexts = await bins.evaluateAll((els) => els.map((e) => e.textContent ?? ""));
    for (const [i, text] of binTexts.entries()) {
      expect(text).toMatch(/\d.*–.*\d/);
      expect(text.endsWith(String(counts[i]))).toBe(true);
    }
    // The table's header names the metrics in the pane's language.
    const headers = await page.$$eval(`${tid("screen-preview-table")} th`, (ths) =>
      ths.map((th) => th.textContent ?? ""),
    );
    if (lang === "en") expect(headers.filter((x) => JAPANESE.test(x))).toEqual([]);
    else expect(headers.join(" ")).toContain("PER（実績）");
    // Company names: at most two lines at each width (the full name in the cell's tooltip).
    await atEachWidth(async (width) => {
      const tooTall = await page.$$eval(`${tid("screen-preview-name")}`, (els) =>
        els
          .filter((el) => {
            const lh = parseFloat(getComputedStyle(el).lineHeight) || 16;
            return el.getBoundingClientRect().height > lh * 2 + 1;
          })
          .map((el) => el.textContent ?? ""),
      );
      expect({ width, tooTall }).toEqual({ width, tooTall: [] });
      await page.locator(tid("screen-histogram")).scrollIntoViewIfNeeded();
      await h.screenshot(page, `analyst-${lang}-${width}-01-screening`);
    });
  });

  test("Prices import: a one-year window by default, its request cost on the button, the chart on the split-adjusted close", async () => {
    await nav(page, "import");
    await page.selectOption(tid("import-dataset-select"), "prices");
    // The window ends on the page's today (its clock is the sandbox's).
    const today = new Date(await page.evaluate(() => Date.now()));
    expect(await page.inputValue(tid("import-param-from"))).toBe(defaultPriceWindow(today).from);
    expect(await page.inputValue(tid("import-param-to"))).toBe("");
    expect(await page.getAttribute(tid("import-run"), "data-cost")).toBe("1");
    expect(await page.textContent(tid("import-run"))).toContain("1");
    // A longer window costs more, said before anything is sent.
    await page.fill(tid("import-param-from"), "2015-01-01");
    const longer = Number(await page.getAttribute(tid("import-run"), "data-cost"));
    expect(longer).toBeGreaterThan(2);
    expect(await page.textContent(tid("import-run"))).toContain(String(longer));
    await page.fill(tid("import-param-from"), defaultPriceWindow(today).from);
    await page.fill(tid("import-param-code"), "7203");
    await excel.select(sheet, "A300");
    const before = (await excel.sheets()).find((s) => s.name === sheet)?.charts.length ?? 0;
    await page.click(tid("import-chart"));
    await page.waitForFunction(
      ([name, n]) =>
        ((
          window as unknown as {
            __excelStandIn: { sheets(): { name: string; charts: unknown[] }[] };
          }
        ).__excelStandIn
          .sheets()
          .find((s) => s.name === name)?.charts.length ?? 0) > (n as number),
      [sheet, before] as const,
    );
    const chart = (await excel.sheets()).find((s) => s.name === sheet)?.charts[before];
    // One series, the split-adjusted close (its column header: 調整後終値（円） / adj_close).
    expect(chart?.series).toHaveLength(1);
    expect(chart?.series[0]).toMatch(lang === "ja" ? /^調整後終値/ : /^adj_close/);
    expect(chart?.title).toContain(lang === "ja" ? "分割調整後終値" : "split-adjusted close");
    // About a year of trading days: one page of 500.
    const table = (await excel.sheets()).find((s) => s.name === sheet)?.tables.at(-1);
    const [, fromRow, toRow] = /(\d+):[A-Z]+(\d+)$/.exec(table?.address ?? "") ?? [];
    const dataRows = Number(toRow) - Number(fromRow);
    expect(dataRows).toBeGreaterThan(200);
    expect(dataRows).toBeLessThanOrEqual(262);
    await shot("02-prices");
  });

  test("builder: opens on the selected cell's formula, says what it resolves to, writes the edit back there", async () => {
    const cell = "H10";
    const typed = '=KAISHA.FINANCIAL(7203,"sales",-1,"annual",,"million_jpy")';
    await excel.enter(sheet, cell, typed);
    await excel.idle();
    const value = (await excel.read(sheet, cell))[0]?.[0]?.value as number;
    expect(typeof value).toBe("number");
    await excel.select(sheet, cell);
    // Opening the builder opens it on the selected cell's formula, without a further click.
    await nav(page, "builder");
    await page.waitForSelector(`${tid("builder-editing")}[data-address$="${cell}"]`);
    expect(await page.inputValue(tid("builder-function-select"))).toBe("FINANCIAL");
    expect(await page.inputValue(tid("builder-arg-period"))).toBe("annual");
    expect(await page.inputValue(tid("builder-arg-unit"))).toBe("million_jpy");
    expect(await page.textContent(tid("builder-formula-preview"))).toBe(
      '=KAISHA.FINANCIAL("7203","sales",-1,"annual",,"million_jpy")',
    );
    // What it resolves to: the period, the item and the value in a readable unit.
    await page.waitForSelector(tid("builder-resolved"));
    const resolved = (await page.textContent(tid("builder-resolved"))) ?? "";
    const amount = readableAmount(value * 1e6, "jpy", lang);
    expect(resolved).toMatch(
      lang === "ja" ? /^\d{4}年\d{1,2}月期 売上高 / : /^FY\d{1,2}\/\d{4} Net sales /,
    );
    expect(resolved.endsWith(amount)).toBe(true);
    await shot("03-builder-opened-on-cell");

    // Edit: another item; Update writes into the same cell, without asking (it held a KAISHA formula).
    await page.click(tid("builder-arg-item"));
    await page.keyboard.press("Control+A");
    await page.keyboard.type(lang === "ja" ? "営業利益" : "operating profit");
    await page.click(tid("builder-arg-item-option-operating_profit"));
    const trace = await traceSection(page, "builder-write-back", [
      "builder-formula-preview",
      "builder-message",
      "builder-overwrite",
    ]);
    await page.click(tid("builder-write-back"));
    const written = await message(page, "builder-message").catch(async (err: unknown) => {
      // What the builder showed instead, and what the cell holds: the failure tells where it stopped.
      const section = await page
        .locator(tid("builder-formula-preview"))
        .textContent({ timeout: 1000 })
        .catch(() => null);
      const button = await page
        .locator(tid("builder-write-back"))
        .isDisabled({ timeout: 1000 })
        .catch(() => null);
      const holds = JSON.stringify((await excel.read(sheet, cell))[0]?.[0]);
      const asks = await page.locator(tid("builder-overwrite")).count();
      throw new Error(
        `no message after Update; preview ${section}; write-back disabled: ${button}; overwrite prompt shown: ${asks > 0}; ${cell} holds ${holds}; the section from Update on:\n${await trace()}`,
        { cause: err },
      );
    });
    expect(written.intent).toBe("success");
    await excel.idle();
    const after = (await excel.read(sheet, cell))[0]?.[0];
    expect(after?.formula).toBe(
      '=KAISHA.FINANCIAL("7203","operating_profit",-1,"annual",,"million_jpy")',
    );
    expect(typeof after?.value).toBe("number");
    expect(await page.locator(tid("builder-overwrite")).count()).toBe(0);

    // The analyst typed over the cell meanwhile: Update asks, and keeping leaves the text.
    await excel.enter(sheet, cell, "my note");
    await page.click(tid("builder-write-back"));
    await page.waitForSelector(tid("builder-overwrite")).catch(async (err: unknown) => {
      // What the pane said instead, and what the cell holds: the failure tells which way it went.
      const said = await page
        .locator(tid("builder-message"))
        .textContent({ timeout: 1000 })
        .catch(() => null);
      const holds = JSON.stringify((await excel.read(sheet, cell))[0]?.[0]);
      throw new Error(
        `no overwrite prompt; the pane said ${said ?? "nothing"}; ${cell} holds ${holds}`,
        {
          cause: err,
        },
      );
    });
    await shot("04-builder-write-back-asks");
    await page.click(tid("builder-overwrite-cancel"));
    expect((await excel.read(sheet, cell))[0]?.[0]?.value).toBe("my note");

    // With the tab already open, the button opens another selected cell's formula.
    await excel.enter(sheet, "H12", '=KAISHA.PRICE("6758")');
    await excel.select(sheet, "H12");
    await page.click(tid("builder-load-cell"));
    await page.waitForSelector(`${tid("builder-editing")}[data-address$="H12"]`);
    expect(await page.inputValue(tid("builder-function-select"))).toBe("PRICE");
    // A cell without a KAISHA formula says so and leaves the form as it is.
    await excel.select(sheet, "H11");
    await page.click(tid("builder-load-cell"));
    expect((await message(page, "builder-message")).intent).toBe("info");
    expect(await page.locator(tid("builder-editing")).count()).toBe(0);
    expect(await page.inputValue(tid("builder-function-select"))).toBe("PRICE");
  });

  test("errors lead with the cause, then the accepted forms, in full in Problems; SCREEN echoes what was typed", async () => {
    await excel.enter(sheet, "B50", '=KAISHA.FINANCIAL("トヨタ","sales")');
    await excel.enter(sheet, "B51", '=KAISHA.SCREEN("per<15")');
    await excel.idle();
    expect((await excel.read(sheet, "B50"))[0]?.[0]?.value).toBe("#VALUE!");
    await nav(page, "refresh");
    await page.click(tid("problems-scan"));
    await page.waitForSelector(tid("problem-row-0"));
    const rows = await page.$$eval('[data-testid^="problem-row-"]', (els) =>
      els.map((e) => e.textContent ?? ""),
    );
    const toyota = rows.find((r) => r.includes("B50")) ?? "";
    if (lang === "ja") {
      expect(toyota).toContain("「トヨタ」という上場会社は見つかりません。会社 には証券コード");
      expect(toyota).toContain("エンティティを指定してください");
    } else {
      expect(toyota).toContain('No listed company matches "トヨタ". company: use a security code');
      // In full: the message is not cut (the cell's tooltip keeps 200 characters).
      expect(toyota).toContain("or a COMPANY / Stocks entity");
      expect(toyota).not.toContain("…");
    }
    const screen = rows.find((r) => r.includes("B51")) ?? "";
    expect(screen).toContain('"per<15"');
    expect(screen).not.toContain('"metric"');
    await page.locator(tid("problems-list")).scrollIntoViewIfNeeded();
    await shot("05-problems");
    await excel.enter(sheet, "B50", "");
    await excel.enter(sheet, "B51", "");
  });
});
