// The analyst's cockpit in headless Chromium with the Excel stand-in, in Japanese at 320 px
// and English at 350 px: opens connected on the sandbox, company search by name and by code, a
// FINANCIAL formula built from lists only, no silent overwrite, screening preview then import,
// Refresh all asks first; every screen fits its width with one row of tabs, every section one click
// away. Screenshots of each.
import type { Page } from "playwright-core";
import { startHarness, type Harness } from "./harness";
import {
  message,
  nav,
  openCockpit,
  overflowX,
  standIn,
  tabRows,
  tid,
  unreachableTabs,
  type CellInfo,
} from "./cockpit-helpers";
import { ja } from "../../taskpane/i18n/ja";
import { en } from "../../taskpane/i18n/en";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
});

/** Requests the sandbox answered whose path (with "?" and query) contains `fragment`. */
function requests(fragment: string): number {
  return h.sandbox.sandbox.requestLog.filter((e) =>
    `${e.path}${e.query ? `?${e.query}` : ""}`.includes(fragment),
  ).length;
}

function isErrorCell(c: CellInfo | undefined): boolean {
  return c?.error !== undefined || (typeof c?.value === "string" && c.value.startsWith("#"));
}

const SECTIONS = ["connection", "screening", "import", "refresh", "builder", "company"];

describe.each([
  { lang: "ja" as const, width: 320, m: ja },
  { lang: "en" as const, width: 350, m: en },
])("cockpit in $lang at $width px", ({ lang, width, m }) => {
  let page: Page;
  let excel: ReturnType<typeof standIn>;
  const shot = (name: string) => h.screenshot(page, `cockpit-${lang}-${width}-${name}`);

  beforeAll(async () => {
    page = await openCockpit(h, { lang, width });
    excel = standIn(page);
  });

  afterAll(async () => {
    await page?.close();
  });

  // The other two combinations of language and width: the test.each at the end.
  test("opens connected to the sandbox with its demo key; every section one click away, one row of tabs, no sideways scroll", async () => {
    await page.waitForSelector(`${tid("connection-status")}[data-state="ok"]`);
    expect(await page.textContent(tid("connection-status"))).toBe(m.statusOk);
    expect(await page.content()).not.toMatch(/Kaisha ?パネルを開|open the Kaisha pane/i);
    await shot("01-connected");
    await expectEverySectionOneClick(page, { lang, width });
  });

  test("company search by name: one request, the rest narrowed locally; the pick confirms the company", async () => {
    await nav(page, "import");
    await page.selectOption(tid("import-dataset-select"), "financials");
    const before = requests("/v1/securities");
    const box = tid("import-param-security_code");
    await page.click(box);
    await page.keyboard.type("大和", { delay: 30 });
    await page.waitForSelector(tid("import-param-security_code-option-7203"));
    expect(requests("/v1/securities")).toBe(before + 1);
    // Typing on narrows the answer already here: no further request.
    await page.keyboard.type("自");
    await page.waitForSelector(tid("import-param-security_code-option-4502"), {
      state: "detached",
    });
    const option = (await page.textContent(tid("import-param-security_code-option-7203"))) ?? "";
    expect(option).toBe(
      `7203 大和自動車（サンプル） · ${lang === "ja" ? "輸送用機器" : "Transportation equipment"} · ${lang === "ja" ? "プライム" : "Prime"}`,
    );
    await shot("02-search-by-name");
    await page.click(tid("import-param-security_code-option-7203"));
    expect(await page.getAttribute(tid("import-param-security_code-status"), "data-picked")).toBe(
      "7203",
    );
    expect(requests("/v1/securities")).toBe(before + 1);
    // The pick is what the import uses.
    await excel.select("Sheet1", "A1");
    await page.click(tid("import-run"));
    expect((await message(page, "import-message")).intent).toBe("success");
    // Period values read by name, not 1y/52w.
    await page.selectOption(tid("import-dataset-select"), "jsf");
    const periods = await page.$$eval(`${tid("import-param-period")} option`, (os) =>
      os.map((o) => o.textContent ?? ""),
    );
    expect(periods).toEqual([m.opt_1m, m.opt_3m, m.opt_6m, m.opt_1y]);
    await page.selectOption(tid("import-dataset-select"), "financials");
  });

  test("company search by code shows which company the code is", async () => {
    await nav(page, "company");
    await page.click(tid("company-sheet-code"));
    await page.keyboard.type("6758");
    const option = tid("company-sheet-code-option-6758");
    await page.waitForSelector(option);
    expect(await page.textContent(option)).toContain("ソラ電子（サンプル）");
    // A typed code counts without picking; the status names the company.
    await page.waitForSelector(`${tid("company-sheet-code-status")}[data-picked="6758"]`);
    expect(await page.textContent(tid("company-sheet-code-status"))).toContain("6758 ソラ電子");
    await shot("03-search-by-code");
    // A name matching nothing says so, in terms of the name.
    await page.fill(tid("company-sheet-code"), "zzqq");
    await page.waitForFunction(
      (id) => (document.querySelector(id)?.textContent ?? "").includes("zzqq"),
      tid("company-sheet-code-status"),
    );
  });

  test("builder: a FINANCIAL formula from lists only, previewed, inserted into an empty cell, never over a full one", async () => {
    await nav(page, "builder");
    await page.waitForSelector(tid("builder-function-select"));
    await page.selectOption(tid("builder-function-select"), "FINANCIAL");
    // Parameters carry their localized names and the functions' own descriptions.
    const companyField = page.locator(".fui-Field", {
      has: page.locator(tid("builder-arg-company")),
    });
    expect(await companyField.textContent()).toContain(m.arg_company);
    await page.click(tid("builder-arg-company"));
    await page.keyboard.type("大和自");
    await page.click(tid("builder-arg-company-option-7203"));
    await page.click(tid("builder-arg-item"));
    await page.keyboard.type(lang === "ja" ? "営業利益" : "operating profit");
    await page.click(tid("builder-arg-item-option-operating_profit"));
    await page.click(tid("builder-arg-fiscal_period"));
    await page.click(tid("builder-arg-fiscal_period-option--1"));
    await page.selectOption(tid("builder-arg-period"), "annual");
    await page.selectOption(tid("builder-arg-unit"), "million_jpy");
    const periodOptions = await page.$$eval(`${tid("builder-arg-period")} option`, (os) =>
      os.map((o) => o.textContent ?? ""),
    );
    expect(periodOptions).toContain(m.opt_LTM);
    const formula = (await page.textContent(tid("builder-formula-preview"))) ?? "";
    expect(formula).toBe('=KAISHA.FINANCIAL("7203","operating_profit",-1,"annual",,"million_jpy")');

    // The live preview reads the cache only: no request, whatever it finds there.
    const sent = requests("/v1/financials");
    await page.waitForSelector(
      `${tid("builder-result")}[data-state="value"], ${tid("builder-result")}[data-state="not_cached"]`,
    );
    expect(requests("/v1/financials")).toBe(sent);
    if ((await page.getAttribute(tid("builder-result"), "data-state")) === "not_cached") {
      await shot("04a-builder-not-cached");
      await page.click(tid("builder-fetch-preview"));
      await page.waitForSelector(`${tid("builder-result")}[data-state="value"]`);
      expect(requests("/v1/financials")).toBe(sent + 1);
    }
    const afterPreview = requests("/v1/financials");
    const previewText = (await page.textContent(tid("builder-result"))) ?? "";
    const previewed = Number(previewText.replace(/[^\d.-]/g, ""));
    expect(Number.isFinite(previewed)).toBe(true);
    await shot("04-builder");

    await excel.select("Sheet1", "Z100");
    await page.click(tid("builder-insert"));
    expect(await message(page, "builder-message")).toMatchObject({ intent: "success" });
    await excel.idle();
    const cell = (await excel.read("Sheet1", "Z100"))[0]?.[0];
    expect(cell?.formula).toBe(formula);
    expect(typeof cell?.value).toBe("number");
    // The cell shows what the preview showed, from the same cached answer (the preview shows the
    // value as the cell's number format does: #,##0 rounds to whole units).
    expect(Math.round(cell?.value as number)).toBe(previewed);
    expect(requests("/v1/financials")).toBe(afterPreview);

    // A second insert at an occupied cell asks; "keep" leaves it as it was.
    await excel.enter("Sheet1", "Z101", "header");
    await excel.select("Sheet1", "Z101");
    await page.click(tid("builder-insert"));
    await page.waitForSelector(tid("builder-overwrite"));
    const keep =
      (await page.getAttribute(tid("builder-overwrite-cancel"), "aria-label")) ??
      (await page.textContent(tid("builder-overwrite-cancel"))) ??
      "";
    expect(keep).toContain("Z101");
    await shot("05-builder-overwrite-ask");
    await page.click(tid("builder-overwrite-cancel"));
    expect((await excel.read("Sheet1", "Z101"))[0]?.[0]?.value).toBe("header");
    // Agreeing replaces it.
    await page.click(tid("builder-insert"));
    await page.click(tid("builder-overwrite-confirm"));
    await excel.idle();
    expect((await excel.read("Sheet1", "Z101"))[0]?.[0]?.formula).toBe(formula);
  });

  test("builder at this width: the formula and Insert stay in view while a field is edited, lists read in the pane's language, a search typed after a pick is a new search, a mistyped item is offered its nearest", async () => {
    await nav(page, "builder");
    await page.selectOption(tid("builder-function-select"), "FINANCIAL");
    const box = tid("builder-arg-company");
    await page.click(box);
    await page.keyboard.type("大和自");
    await page.click(tid("builder-arg-company-option-7203"));
    expect(await page.getAttribute(tid("builder-arg-company-status"), "data-picked")).toBe("7203");
    // Typing into the box that shows the pick searches for what is typed, not the pick's line + it.
    await page.click(box);
    await page.keyboard.type("6758");
    await page.waitForSelector(tid("builder-arg-company-option-6758"));
    expect(await page.getAttribute(tid("builder-arg-company-status"), "data-query")).toBe("6758");
    await page.click(tid("builder-arg-company-option-6758"));
    // The same in the item box.
    const item = tid("builder-arg-item");
    await page.click(item);
    await page.keyboard.type(lang === "ja" ? "売上高" : "net sales");
    await page.click(tid("builder-arg-item-option-sales"));
    await page.click(item);
    await page.keyboard.type(lang === "ja" ? "営業利益" : "operating profit");
    await page.waitForSelector(tid("builder-arg-item-option-operating_profit"));
    await page.click(tid("builder-arg-item-option-operating_profit"));
    // Lists in the pane's language, the empty choice saying what it means; the formula keeps the
    // API's word.
    const periodOptions = await page.$$eval(`${tid("builder-arg-period")} option`, (os) =>
      os.map((o) => o.textContent ?? ""),
    );
    expect(periodOptions).toEqual([
      m.builderDefaultIs.replace("{value}", m.opt_annual),
      m.opt_annual,
      m.opt_quarterly,
      m.opt_semiannual,
      m.opt_LTM,
    ]);
    await page.selectOption(tid("builder-arg-period"), "semiannual");
    await page.selectOption(tid("builder-arg-unit"), "million_jpy");
    expect(await page.textContent(tid("builder-formula-preview"))).toBe(
      '=KAISHA.FINANCIAL("6758","operating_profit",,"semiannual",,"million_jpy")',
    );
    const fields = (await page.textContent(tid("section-builder"))) ?? "";
    expect(fields).not.toMatch(/annual（既定）|thousand_jpy|million_jpy（/);
    // Back at the top of the form, editing the company: the formula and Insert are on screen.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.click(box);
    const viewport = page.viewportSize() ?? { width, height: 900 };
    for (const id of ["builder-formula-preview", "builder-insert"]) {
      const b = await page.locator(tid(id)).boundingBox();
      expect(b).not.toBeNull();
      expect(b!.y).toBeGreaterThanOrEqual(0);
      expect(b!.y + b!.height).toBeLessThanOrEqual(viewport.height);
    }
    await shot("04b-builder-insert-in-view");

    // Opened on a cell whose item is mistyped: the item is kept and its nearest offered.
    await excel.enter("Sheet1", "Z120", '=KAISHA.FINANCIAL(7203,"salez")');
    await excel.select("Sheet1", "Z120");
    await page.click(tid("builder-load-cell"));
    await page.waitForSelector(`${tid("builder-arg-item-unknown")}[data-suggestion="sales"]`);
    expect(await page.inputValue(item)).toBe("salez");
    expect(await page.textContent(tid("builder-formula-preview"))).toBe(
      '=KAISHA.FINANCIAL("7203","salez")',
    );
    await shot("04c-builder-nearest-item");
    await page.click(tid("builder-arg-item-use-suggestion"));
    expect(await page.textContent(tid("builder-formula-preview"))).toBe(
      '=KAISHA.FINANCIAL("7203","sales")',
    );
  });

  test("screening: Import waits for a preview; the preview sits under the button with its count, table and chart", async () => {
    await nav(page, "screening");
    await page.waitForSelector(tid("screen-metric-search"));
    expect(await page.isDisabled(tid("screen-import"))).toBe(true);
    await page.click(tid("screen-metric-search"));
    await page.keyboard.type("PER");
    await page.click(tid("screen-metric-option-per"));
    await page.selectOption(tid("screen-operator"), "lte");
    await page.fill(tid("screen-value"), "15");
    await page.click(tid("screen-add-condition"));
    const remove = (await page.getAttribute(tid("screen-condition-remove-0"), "aria-label")) ?? "";
    expect(remove).toContain("PER");
    expect(remove).not.toBe(m.removeCondition);
    await page.selectOption(tid("screen-sort-by"), "marketCap");
    await page.click(tid("screen-preview"));
    await page.waitForSelector(tid("screen-total-count"));
    const total = Number(await page.textContent(tid("screen-total-count")));
    expect(total).toBeGreaterThan(0);
    // Results directly under the button, the chart with them, then Import with its cost.
    const y = async (id: string) => (await page.locator(tid(id)).boundingBox())?.y ?? -1;
    expect(await y("screen-preview")).toBeLessThan(await y("screen-total-count"));
    expect(await y("screen-total-count")).toBeLessThan(await y("screen-preview-table"));
    expect(await y("screen-preview-table")).toBeLessThan(await y("screen-histogram"));
    expect(await y("screen-histogram")).toBeLessThan(await y("screen-import"));
    expect(Number(await page.getAttribute(tid("screen-histogram"), "data-bins"))).toBeGreaterThan(
      0,
    );
    expect(await page.isDisabled(tid("screen-import"))).toBe(false);
    const cost = Math.ceil(total / 100);
    expect(await page.getAttribute(tid("screen-import"), "data-cost")).toBe(String(cost));
    expect(await page.textContent(tid("screen-import"))).toContain(String(cost));
    await shot("06-screening-preview");

    await excel.select("Sheet1", "A200");
    await page.click(tid("screen-import"));
    const imported = await message(page, "screen-message");
    expect(`${imported.intent}: ${imported.text}`).toMatch(/^success: /);
    const block = await excel.read("Sheet1", `A200:D${200 + total}`);
    const cells = block.slice(1).flat();
    expect(cells.length).toBeGreaterThan(0);
    expect(cells.filter(isErrorCell)).toEqual([]);
    // The SCREEN formula of the same conditions calculates in the sheet too.
    await excel.select("Sheet1", "A300");
    await page.click(tid("screen-insert-formula"));
    await excel.idle();
    const spill = await excel.read("Sheet1", "A300:B302");
    expect(spill.flat().filter(isErrorCell)).toEqual([]);
    expect(spill[1]?.[0]?.value).toMatch(/^[0-9A-Z]{4}$/);
    await shot("07-screening-imported");

    // No match: the message speaks of the conditions.
    await page.fill(tid("screen-value"), "-100000");
    await page.click(tid("screen-add-condition"));
    await page.click(tid("screen-preview"));
    await page.waitForSelector(tid("screen-no-hits"));
    expect(await page.textContent(tid("screen-no-hits"))).toBe(m.screenNoHits);
    expect(await page.isDisabled(tid("screen-import"))).toBe(true);
    await shot("08-screening-no-hits");
  });

  test("keyboard: Tab reaches every builder control; a company is picked with arrows and Enter", async () => {
    await nav(page, "builder");
    await page.selectOption(tid("builder-function-select"), "FINANCIAL");
    await page.focus(tid("builder-function-select"));
    const reached = new Set<string>();
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press("Tab");
      const id = await page.evaluate(
        () => document.activeElement?.getAttribute("data-testid") ?? "",
      );
      if (id) reached.add(id);
      if (id === "builder-insert") break;
    }
    for (const id of [
      "builder-arg-company",
      "builder-arg-item",
      "builder-arg-fiscal_period",
      "builder-arg-period",
      "builder-arg-quarter",
      "builder-arg-unit",
      "builder-use-example",
      "builder-insert",
    ]) {
      expect([...reached]).toContain(id);
    }
    await page.focus(tid("builder-arg-company"));
    await page.keyboard.press("Control+A");
    await page.keyboard.type("ソラ");
    await page.waitForSelector(tid("builder-arg-company-option-6758"));
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    await page.waitForSelector(`${tid("builder-arg-company-status")}[data-picked="6758"]`);
    expect(await page.textContent(tid("builder-formula-preview"))).toContain('"6758"');
  });

  test("Refresh all asks first with the estimated requests and today's remaining quota", async () => {
    await nav(page, "refresh");
    await page.waitForSelector(tid("usage-meter"));
    const financials = requests("/v1/financials");
    await page.click(tid("refresh-all"));
    await page.waitForSelector(tid("refresh-confirm"));
    const asked = Number(await page.getAttribute(tid("refresh-confirm-cost"), "data-requests"));
    expect(asked).toBeGreaterThanOrEqual(3); // Z100 financials, the SCREEN formula, 2 imports
    const remaining = Number(
      await page.getAttribute(tid("refresh-confirm-remaining"), "data-remaining"),
    );
    expect(remaining).toBeGreaterThan(0);
    expect(await page.textContent(tid("refresh-confirm-remaining"))).toContain(String(remaining));
    await page.waitForFunction(
      (id) => getComputedStyle(document.querySelector(id) as Element).opacity === "1",
      tid("refresh-confirm"),
    );
    await shot("09-refresh-confirm");
    // Cancel spends nothing.
    await page.click(tid("refresh-confirm-cancel"));
    await page.waitForSelector(tid("refresh-confirm"), { state: "detached" });
    expect(requests("/v1/financials")).toBe(financials);
    await page.click(tid("refresh-all"));
    await page.click(tid("refresh-confirm-run"));
    expect((await message(page, "refresh-summary")).intent).not.toBe("error");
    await excel.idle();
    expect(requests("/v1/financials")).toBeGreaterThan(financials);
    expect(typeof (await excel.read("Sheet1", "Z100"))[0]?.[0]?.value).toBe("number");
    await shot("10-refreshed");
  });
});

/**
 * Every section of a freshly opened pane is one click away, the tabs in one row, nothing scrolls
 * sideways; the tab names its section; a screenshot of each. At the describe's own combinations
 * on its page (opened for this), at the two others on a page of their own.
 */
async function expectEverySectionOneClick(
  page: Page,
  where: { lang: "ja" | "en"; width: number },
): Promise<void> {
  const { lang, width } = where;
  // No section behind a menu: every tab visible in the row, its label not cut.
  expect({ ...where, unreachable: await unreachableTabs(page, SECTIONS) }).toEqual({
    ...where,
    unreachable: [],
  });
  expect(await page.locator(tid("nav-more")).count()).toBe(0);
  for (const [i, section] of SECTIONS.entries()) {
    // One click, from whichever section is open.
    await page.click(tid(`nav-${section}`));
    await page.waitForSelector(`${tid(`section-${section}`)}:not([hidden])`);
    const at = { ...where, section };
    expect({ ...at, rows: await tabRows(page) }).toEqual({ ...at, rows: 1 });
    expect({ ...at, overflow: await overflowX(page) }).toEqual({ ...at, overflow: 0 });
    // The tab names its section for screen readers and in its tooltip.
    const label = await page.getAttribute(tid(`nav-${section}`), "aria-label");
    expect(label).toBe((lang === "ja" ? ja : en)[NAV_KEYS[section] ?? "navConnection"]);
    await h.screenshot(page, `pane-${lang}-${width}-${String(i + 1).padStart(2, "0")}-${section}`);
  }
}

test.each([
  { lang: "ja" as const, width: 350 },
  { lang: "en" as const, width: 320 },
])(
  "in $lang at $width px too: every section one click away, one row of tabs, no sideways scroll; a screenshot of each",
  async (where) => {
    const page = await openCockpit(h, where);
    try {
      await expectEverySectionOneClick(page, where);
    } finally {
      await page.close();
    }
  },
);

const NAV_KEYS: Record<string, keyof typeof ja> = {
  connection: "navConnection",
  screening: "navScreening",
  import: "navImport",
  refresh: "navRefresh",
  builder: "navBuilder",
  company: "navCompany",
};
