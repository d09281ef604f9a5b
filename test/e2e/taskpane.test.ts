// The task pane in headless Chromium with the in-page Excel stand-in, against the sandbox: key entry
// and verification, a screen imported as a table, a financials import, Refresh all, Freeze values.
// One page walks through the flow in order, as a user would; each step leaves a screenshot.
import type { Page } from "playwright-core";
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import { MESSAGES } from "../../src/client";
import { ja } from "../../taskpane/i18n/ja";
import { startHarness, type Harness } from "./harness";
import { nav as navTo, standIn, type StandInWindow } from "./cockpit-helpers";

let h: Harness;
let page: Page;
let excel: ReturnType<typeof standIn>;

function tid(id: string): string {
  return `[data-testid="${id}"]`;
}

async function nav(section: string): Promise<void> {
  // Every section is one click away at any width.
  await navTo(page, section);
}

/** Waits for a status message bar and returns its intent and text. */
async function message(id: string): Promise<{ intent: string; text: string }> {
  const bar = page.locator(tid(id));
  await bar.waitFor();
  return {
    intent: (await bar.getAttribute("data-intent")) ?? "",
    text: (await bar.textContent()) ?? "",
  };
}

/** Requests the sandbox answered whose path (with "?" when it had a query) contains `fragment`. */
function requests(fragment: string): number {
  return h.sandbox.sandbox.requestLog.filter((e) =>
    `${e.path}${e.query ? `?${e.query}` : ""}`.includes(fragment),
  ).length;
}

beforeAll(async () => {
  h = await startHarness();
  const query = new URLSearchParams({ baseUrl: h.sandbox.url, lang: "ja" }).toString();
  page = await h.openPage(`/taskpane.html?${query}`, { excel: true, displayLanguage: "ja-JP" });
  excel = standIn(page);
  await page.setViewportSize({ width: 420, height: 900 });
  await page.waitForSelector(`${tid("app-root")}[data-ready="true"]`);
});

afterAll(async () => {
  await h?.close();
});

describe("task pane with the Excel stand-in", () => {
  test("starts in Japanese with Excel available and no key", async () => {
    expect(await page.getAttribute(tid("app-root"), "data-lang")).toBe("ja");
    expect(await page.locator(tid("excel-unavailable")).count()).toBe(0);
    expect(await page.getAttribute(tid("connection-status"), "data-state")).toBe("none");
    await h.screenshot(page, "taskpane-01-connection-start");
  });

  test("an unknown key of the right shape is refused with a clear message", async () => {
    const wrong = `${DEMO_API_KEY.slice(0, 9)}${"x".repeat(43)}`;
    await page.fill(tid("key-input"), wrong);
    expect(await page.getAttribute(tid("key-shape-hint"), "data-valid")).toBe("true");
    await page.click(tid("key-verify"));
    const m = await message("conn-message");
    expect(m.intent).toBe("error");
    expect(m.text).toMatch(/キー|401/);
    expect(m.text).not.toContain(wrong);
    await page.waitForSelector(`${tid("connection-status")}[data-state="error"]`);
  });

  test("enter and verify the demo key: connected, remaining requests shown", async () => {
    await page.fill(tid("key-input"), DEMO_API_KEY);
    expect(await page.getAttribute(tid("key-input"), "type")).toBe("password");
    await page.click(tid("key-verify"));
    await page.waitForSelector(`${tid("connection-status")}[data-state="ok"]`);
    const remaining = (await page.textContent(tid("usage-remaining"))) ?? "";
    expect(Number(remaining.replace(/[^\d]/g, ""))).toBeGreaterThan(0);
    // The key never reaches the workbook.
    const cells = JSON.stringify(await excel.sheets());
    expect(cells).not.toContain(DEMO_API_KEY);
    await h.screenshot(page, "taskpane-02-connection-verified");
  });

  test("Save recalculates KAISHA formulas; Remember keeps the key for the next start, Forget removes it", async () => {
    await excel.enter("Sheet1", "H200", '=KAISHA.FINANCIAL(7203,"sales",0)');
    await excel.idle();
    const calcs = await excel.calculations();
    await page.check(tid("key-remember"));
    await page.click(tid("key-save"));
    await page.waitForFunction(
      (before) => (window as unknown as StandInWindow).__excelStandIn.calculations() > before,
      calcs,
    );
    await excel.idle();
    expect(typeof (await excel.read("Sheet1", "H200"))[0]?.[0]?.value).toBe("number");
    await excel.enter("Sheet1", "H200", "");
    // The next start of the pane (a new page on this computer) finds the key and checks it.
    const query = new URLSearchParams({ baseUrl: h.sandbox.url, lang: "ja" }).toString();
    const next = await h.openPage(`/taskpane.html?${query}`, { excel: true });
    try {
      await next.waitForSelector(`${tid("app-root")}[data-ready="true"]`);
      await next.waitForSelector(`${tid("connection-status")}[data-state="ok"]`);
      expect(await next.inputValue(tid("key-input"))).toBe(DEMO_API_KEY);
      await next.click(tid("key-forget"));
      await next.waitForSelector(`${tid("connection-status")}[data-state="none"]`);
    } finally {
      await next.close();
    }
    const after = await h.openPage(`/taskpane.html?${query}`, { excel: true });
    try {
      await after.waitForSelector(`${tid("app-root")}[data-ready="true"]`);
      expect(await after.getAttribute(tid("connection-status"), "data-state")).toBe("none");
      expect(await after.inputValue(tid("key-input"))).toBe("");
    } finally {
      await after.close();
    }
    // This pane still holds the key in memory for the rest of the session; nothing in the workbook.
    expect(JSON.stringify(await excel.sheets())).not.toContain(DEMO_API_KEY);
    await page.uncheck(tid("key-remember"));
  });

  test("relay mode sends the pane's requests through the add-in host's own /relay/v1", async () => {
    const seen: string[] = [];
    const record = (r: { url(): string }) => void seen.push(r.url());
    page.on("request", record);
    try {
      await page.check(tid("conn-mode-relay"));
      await page.click(tid("key-verify"));
      await page.waitForFunction(
        () =>
          document.querySelector('[data-testid="conn-message"]')?.getAttribute("data-intent") ===
          "success",
      );
      expect(seen.filter((u) => u.startsWith(`${h.server.url}/relay/v1/usage`))).toHaveLength(1);
      expect(seen.filter((u) => u.startsWith(`${h.sandbox.url}`))).toEqual([]);
      expect(await page.getAttribute(tid("connection-status"), "data-state")).toBe("ok");
    } finally {
      page.off("request", record);
      // Back to direct: a changed connection is unverified until checked again.
      await page.check(tid("conn-mode-direct"));
      await page.waitForSelector(`${tid("connection-status")}[data-state="unverified"]`);
      await page.click(tid("key-verify"));
      await page.waitForSelector(`${tid("connection-status")}[data-state="ok"]`);
    }
  });

  test("build a screen (PER <= 15), preview it, import every page as a table", async () => {
    await nav("screening");
    await page.waitForSelector(tid("screen-metric-search"));
    // Type into the search box as a user does; the list filters and opens.
    await page.click(tid("screen-metric-search"));
    await page.keyboard.type("PER");
    await page.click(tid("screen-metric-option-per"));
    await page.selectOption(tid("screen-operator"), "lte");
    await page.fill(tid("screen-value"), "15");
    await page.click(tid("screen-add-condition"));
    await page.waitForSelector(tid("screen-condition-0"));
    expect(await page.textContent(tid("screen-condition-count"))).toMatch(/^1\s*\/\s*20/);
    await page.click(tid("screen-preview"));
    await page.waitForSelector(tid("screen-total-count"));
    const total = Number(await page.textContent(tid("screen-total-count")));
    expect(total).toBeGreaterThan(0);
    expect(await page.textContent(tid("screen-formula-text"))).toContain("KAISHA.SCREEN(");
    await h.screenshot(page, "taskpane-03-screening-preview");

    await excel.select("Sheet1", "A1");
    await page.click(tid("screen-import"));
    const m = await message("screen-message");
    expect(m.intent).toBe("success");
    const sheet1 = (await excel.sheets()).find((s) => s.name === "Sheet1");
    expect(sheet1?.tables).toHaveLength(1);
    const header = (await excel.read("Sheet1", "A1:C1"))[0]?.map((c) => c.value);
    // A Japanese pane writes Japanese headers (日本語の項目名) by default.
    expect(header).toEqual(expect.arrayContaining(["証券コード", "名称"]));
    // Header + one row per screened company, then a blank row and the attribution caption.
    const rows = await excel.read("Sheet1", `A1:A${total + 3}`);
    expect(rows[1]?.[0]?.value).toMatch(/^[0-9A-Z]{4}$/);
    expect(String(rows[total + 2]?.[0]?.value ?? "")).not.toBe("");
    await h.screenshot(page, "taskpane-04-screening-imported");

    // A ratio metric shows its scale note from /screening/fields and offers only ratio units.
    await page.click(tid("screen-metric-search"));
    await page.keyboard.press("Control+A");
    await page.keyboard.type("自己資本");
    await page.click(tid("screen-metric-option-equityRatio"));
    expect(await page.textContent(tid("screen-metric-note"))).toContain("100%");
    const units = await page.$$eval(`${tid("screen-unit")} option`, (os) =>
      os.map((o) => (o as HTMLOptionElement).value),
    );
    expect(units.sort()).toEqual(["percent", "ratio"]);

    // The row count can be cleared and retyped. Changed criteria mark the preview as stale; once
    // previewed, the formula lists every match counted, as the import does, not just one page.
    await page.click(tid("screen-limit"));
    await page.keyboard.press("Control+A");
    await page.keyboard.press("Backspace");
    await page.keyboard.type("5");
    expect(await page.inputValue(tid("screen-limit"))).toBe("5");
    await page.waitForSelector(tid("screen-preview-stale"));
    expect(await page.textContent(tid("screen-formula-text"))).toMatch(/,5\)$/);
    await page.click(tid("screen-preview"));
    await page.waitForSelector(tid("screen-preview-stale"), { state: "detached" });
    expect(await page.textContent(tid("screen-formula-text"))).toMatch(
      new RegExp(`,${Math.max(5, total)}\\)$`),
    );
  });

  test("at the narrowest pane (320 px) no section scrolls sideways", async () => {
    await page.setViewportSize({ width: 320, height: 900 });
    try {
      for (const section of [
        "connection",
        "screening",
        "import",
        "refresh",
        "builder",
        "company",
      ]) {
        await nav(section);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect({ section, overflow }).toEqual({ section, overflow: 0 });
      }
      // Back on the screening tab after visiting the others, the screen built above is still there.
      await nav("screening");
      expect(await page.textContent(tid("screen-condition-0"))).toMatch(/PER/);
      await h.screenshot(page, "taskpane-03b-screening-320px");
    } finally {
      await page.setViewportSize({ width: 420, height: 900 });
    }
  });

  test("import financials for 7203 as a table with number formats", async () => {
    await nav("import");
    await page.selectOption(tid("import-dataset-select"), "financials");
    // Typed in full width, as a Japanese IME often leaves it.
    await page.fill(tid("import-param-security_code"), "７２０３");
    await excel.select("Sheet1", "J1");
    await page.click(tid("import-run"));
    const m = await message("import-message");
    expect(m.intent).toBe("success");
    const rows = Number(await page.getAttribute(tid("import-message"), "data-rows"));
    expect(rows).toBeGreaterThan(0);
    const tables = (await excel.sheets()).find((s) => s.name === "Sheet1")?.tables ?? [];
    expect(tables).toHaveLength(2);
    const block = await excel.read("Sheet1", "J1:Z3");
    const header = block[0]?.map((c) => c.value) ?? [];
    // 日本語の項目名 with the column's unit: 売上高（百万円）.
    const salesCol = header.findIndex((v) => /^売上高(（.*）)?$/.test(String(v)));
    expect(salesCol).toBeGreaterThanOrEqual(0);
    const sales = block[1]?.[salesCol];
    expect(typeof sales?.value).toBe("number");
    expect(sales?.numberFormat).not.toBe("General");
    // The import is remembered for Refresh imports (definition kept in the workbook, no key).
    const stored = (await excel.sheets()).find((s) => s.name === "KaishaImports");
    expect(stored?.visibility).toBe("Hidden");
    await h.screenshot(page, "taskpane-05-financials-imported");
  });

  test("Refresh all recalculates KAISHA formulas and re-runs the imports", async () => {
    await excel.enter("Sheet1", "A60", '=KAISHA.FINANCIAL(7203,"sales",0)');
    await excel.idle();
    const before = (await excel.read("Sheet1", "A60"))[0]?.[0];
    expect(typeof before?.value).toBe("number");
    const calcs = await excel.calculations();
    const screenings = requests("/v1/screening?");
    const financials = requests("/v1/financials");

    await nav("refresh");
    await page.click(tid("refresh-all"));
    // Refresh all asks first, with its cost.
    await page.click(tid("refresh-confirm-run"));
    const m = await message("refresh-summary");
    expect(m.intent).not.toBe("error");
    await excel.idle();
    expect(await excel.calculations()).toBeGreaterThan(calcs);
    // The cache was invalidated: the screen and the financials were fetched again.
    expect(requests("/v1/screening?")).toBeGreaterThan(screenings);
    expect(requests("/v1/financials")).toBeGreaterThan(financials);
    expect((await excel.read("Sheet1", "A60"))[0]?.[0]?.value).toBe(before?.value);
    // Both imported tables are still there, refreshed in place.
    expect((await excel.sheets()).find((s) => s.name === "Sheet1")?.tables).toHaveLength(2);
    await h.screenshot(page, "taskpane-06-refresh");
  });

  test("Freeze values replaces the formula by its value and records it; Restore brings it back", async () => {
    const sent = requests("/v1/financials");
    await excel.select("Sheet1", "A60");
    await page.selectOption(tid("freeze-scope"), "selection");
    await page.click(tid("freeze-values"));
    const m = await message("freeze-summary");
    expect(m.intent).toBe("success");
    const frozen = (await excel.read("Sheet1", "A60"))[0]?.[0];
    expect(frozen?.formula).toBeUndefined();
    expect(typeof frozen?.value).toBe("number");
    const provenance = await excel.read("KaishaProvenance", "A1:E2");
    expect(provenance[1]?.[0]?.value).toBe("Sheet1!A60");
    expect(provenance[1]?.[1]?.value).toBe('=KAISHA.FINANCIAL(7203,"sales",0)');
    await h.screenshot(page, "taskpane-07-frozen");

    await page.click(tid("restore-formulas"));
    // The freeze message is still showing: wait for the workbook itself to have the formula back.
    await page.waitForFunction(() => {
      const w = window as unknown as StandInWindow;
      return w.__excelStandIn.read("Sheet1", "A60")[0]?.[0]?.formula !== undefined;
    });
    await excel.idle();
    const restored = (await excel.read("Sheet1", "A60"))[0]?.[0];
    expect(restored?.formula).toBe('=KAISHA.FINANCIAL(7203,"sales",0)');
    expect(restored?.value).toBe(frozen?.value);
    // Freezing and restoring cost no request: the answer was still fresh in the cache.
    expect(requests("/v1/financials")).toBe(sent);

    // Restoring again finds nothing left to restore and says so, instead of "restored 0".
    await page.click(tid("restore-formulas"));
    await page.waitForSelector(`${tid("freeze-summary")}[data-intent="info"]`);
    expect(await page.textContent(tid("freeze-summary"))).toContain("ありません");
  });

  test("Problems lists the KAISHA cells showing errors with the function's message; Retry recalculates them", async () => {
    await excel.enter("Sheet1", "A70", '=KAISHA.FINANCIAL(9999,"sales")');
    await excel.idle();
    expect((await excel.read("Sheet1", "A70"))[0]?.[0]?.value).toBe("#N/A");
    await page.click(tid("problems-scan"));
    await page.waitForSelector(`${tid("problems-list")}:not([data-count="0"])`);
    expect(await page.getAttribute(tid("problems-list"), "data-count")).toBe("1");
    const row = await page.textContent(tid("problem-row-0"));
    expect(row).toContain("Sheet1!A70");
    // The function's own message, recorded for A70 in the shared runtime, not the generic #N/A text.
    expect(row).toContain(MESSAGES.notFound().ja);
    expect(row).not.toContain(ja.err_NotAvailable);
    await h.screenshot(page, "taskpane-07b-problems");
    const calcs = await excel.calculations();
    await page.click(tid("problems-retry"));
    await page.waitForFunction(
      (before) => (window as unknown as StandInWindow).__excelStandIn.calculations() > before,
      calcs,
    );
    await excel.idle();
    // Still an unknown company: the cell keeps its #N/A; the user can fix the formula or delete it.
    expect((await excel.read("Sheet1", "A70"))[0]?.[0]?.value).toBe("#N/A");
    await excel.enter("Sheet1", "A70", "");
  });

  test("Refresh all with a cell in error ends with the count, the requests spent and a link to Problems", async () => {
    await nav("refresh");
    await excel.enter("Sheet1", "A72", '=KAISHA.FINANCIAL(7203,"salez",0)');
    await excel.idle();
    expect((await excel.read("Sheet1", "A72"))[0]?.[0]?.value).toBe("#VALUE!");
    await page.click(tid("refresh-all"));
    await page.click(tid("refresh-confirm-run"));
    // The earlier refresh's message said 0 errors: wait for this one's.
    const bar = page.locator(`${tid("refresh-summary")}[data-errors="1"]`);
    await bar.waitFor();
    expect(await bar.getAttribute("data-intent")).toBe("warning");
    expect(Number(await bar.getAttribute("data-requests"))).toBeGreaterThan(0);
    const text = (await bar.textContent()) ?? "";
    expect(text).toContain(ja.refreshErrors.replace("{n}", "1"));
    expect(text).toContain("API へのリクエストは");
    await page.click(tid("refresh-show-problems"));
    await page.waitForSelector(`${tid("problems-list")}:not([data-count="0"])`);
    expect(await page.getAttribute(tid("problems-list"), "data-count")).toBe("1");
    expect(await page.textContent(tid("problem-row-0"))).toContain("Sheet1!A72");
    await excel.enter("Sheet1", "A72", "");
  });

  test("import prices and insert a line chart beside the table", async () => {
    await nav("import");
    await page.selectOption(tid("import-dataset-select"), "prices");
    await page.fill(tid("import-param-code"), "7203");
    await page.fill(tid("import-param-from"), "2024-01-04");
    await page.fill(tid("import-param-to"), "2024-03-29");
    await excel.select("Sheet1", "A80");
    await page.click(tid("import-chart"));
    // An earlier import's success message may still be showing: wait for the chart itself.
    await page.waitForFunction(() => {
      const w = window as unknown as StandInWindow;
      return w.__excelStandIn.sheets().some((s) => s.charts.length > 0);
    });
    expect(await page.getAttribute(tid("import-message"), "data-intent")).toBe("success");
    const sheet = (await excel.sheets()).find((s) => s.name === "Sheet1");
    const chart = sheet?.charts[0];
    expect(chart?.type).toBe("Line");
    expect(chart?.series.length).toBeGreaterThanOrEqual(1);
    const dates = await excel.read("Sheet1", "A81:A82");
    expect(dates[0]?.[0]?.numberFormat).toMatch(/yyyy/);
    expect(typeof dates[0]?.[0]?.value).toBe("number");
    await h.screenshot(page, "taskpane-08-prices-chart");
  });

  test("the formula builder inserts a KAISHA formula into the active cell, which calculates", async () => {
    await nav("builder");
    await page.selectOption(tid("builder-function-select"), "FINANCIAL");
    await page.click(tid("builder-use-example"));
    const formula = (await page.textContent(tid("builder-formula-preview"))) ?? "";
    expect(formula).toMatch(/^=KAISHA\.FINANCIAL\(/);
    await excel.select("Sheet1", "H60");
    await page.click(tid("builder-insert"));
    const m = await message("builder-message");
    expect(m.intent).toBe("success");
    await excel.idle();
    const cell = (await excel.read("Sheet1", "H60"))[0]?.[0];
    expect(cell?.formula).toBe(formula);
    expect(typeof cell?.value).toBe("number");
    await h.screenshot(page, "taskpane-09-builder");
  });

  test("the company sheet action builds a sheet of KAISHA formulas that calculate", async () => {
    await nav("company");
    await page.fill(tid("company-sheet-code"), "7203");
    await page.click(tid("company-sheet-build"));
    const m = await message("company-sheet-message");
    expect(m.intent).toBe("success");
    await excel.idle();
    const sheets = await excel.sheets();
    const sheet = sheets.find((s) => /7203/.test(s.name));
    expect(sheet).toBeDefined();
    const active = await page.evaluate(() =>
      (
        window as unknown as { __excelStandIn: { activeSheet(): string } }
      ).__excelStandIn.activeSheet(),
    );
    expect(active).toBe(sheet?.name);
    const used = sheet?.used ?? "A1";
    const cells = (await excel.read(sheet?.name ?? "", used)).flat();
    const formulas = cells.filter((c) => /^=KAISHA\./.test(c.formula ?? ""));
    expect(formulas.length).toBeGreaterThan(5);
    expect(formulas.filter((c) => typeof c.value === "number").length).toBeGreaterThan(0);
    // The results' source line under them calculates to the attribution text.
    await excel.idle();
    const after = (await excel.read(sheet?.name ?? "", used)).flat();
    const source = after.find((c) => c.formula === '=KAISHA.ATTRIBUTION("financials")');
    expect(source).toBeDefined();
    expect(String(source?.value ?? "")).not.toMatch(/^#|^$/);
    await h.screenshot(page, "taskpane-10-company-sheet");
  });

  test("English Office gets the pane in English", async () => {
    const query = new URLSearchParams({ baseUrl: h.sandbox.url }).toString();
    const en = await h.openPage(`/taskpane.html?${query}`, {
      excel: true,
      displayLanguage: "en-US",
    });
    await en.setViewportSize({ width: 420, height: 900 });
    await en.waitForSelector(`${tid("app-root")}[data-ready="true"]`);
    expect(await en.getAttribute(tid("app-root"), "data-lang")).toBe("en");
    await h.screenshot(en, "taskpane-11-english");
    await en.close();
  });

  test("opened in a plain browser (no Excel), the pane says Excel is not available", async () => {
    const query = new URLSearchParams({ baseUrl: h.sandbox.url, lang: "ja" }).toString();
    const plain = await h.openPage(`/taskpane.html?${query}`);
    await plain.waitForSelector(`${tid("app-root")}[data-ready="true"]`);
    await plain.waitForSelector(tid("excel-unavailable"));
    await plain.close();
  });

  test("the pane raised no page errors", () => {
    expect(h.problems.filter((p) => p.startsWith("pageerror"))).toEqual([]);
  });
});
