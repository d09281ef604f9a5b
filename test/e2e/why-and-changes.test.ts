// "Why this number" and "Changes" in the browser with the Excel stand-in against the sandbox: five
// kinds of cell traced to the API's own figures, period and filing; then a sandbox day with a
// results batch and one 訂正, after which the Changes view lists exactly the cells that changed.
import type { Page } from "playwright-core";
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import { CORRECTIONS } from "../../sandbox/data/corrections";
import { startHarness, type Harness } from "./harness";
import { nav, openConnectedPane, tid, type standIn } from "./cockpit-helpers";

let h: Harness;
let page: Page;
let excel: ReturnType<typeof standIn>;

/** The day before: the 2026-11-12 results tanshin and the 訂正 are under 24 hours old. */
const DAY_BEFORE = "2026-11-13T00:00:00Z";
/** The day after: both are public (openapi.json info.description: 24 hours after disclosure). */
const DAY_AFTER = "2026-11-14T00:00:00Z";
/** A month on, after Wednesday's close (16:00 JST): new price days for every company. */
const MONTH_ON = "2026-12-16T07:00:00Z";

const CELLS: Record<string, string> = {
  A1: '=KAISHA.FINANCIAL(7203,"sales",-1)',
  A2: '=KAISHA.FINANCIAL(7203,"sales","LTM")',
  A3: "=KAISHA.PRICE(7203)",
  A4: '=KAISHA.FINANCIAL(7203,"average_annual_salary",-1)',
  A5: '=KAISHA.FINANCIAL(4452,"sales","2025/12")',
  A6: '=KAISHA.FINANCIAL(1332,"sales","LTM")',
  A7: '=KAISHA.FINANCIAL(7203,"operating_profit",-1)',
  A8: '=KAISHA.PRICE(7203,"close","2026-11-02")',
  A9: '=KAISHA.FINANCIAL("大和自動車","sales",-1)',
  C1: '=KAISHA.FINANCIALS(7203,"sales,net_income",,3)',
  C10: "=KAISHA.DIVIDENDS(7203,2022)",
  H1: '=KAISHA.FINANCIALS(7203,"sales,net_income",,3,,,,0)',
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- API bodies are read freely here
async function api(path: string): Promise<any> {
  const res = await fetch(`${h.sandbox.url}${path}`, {
    headers: { Authorization: `Bearer ${DEMO_API_KEY}` },
  });
  return res.json();
}

/** "2025/03" -> "2025年3月期". */
function yearJa(fiscalYear: string): string {
  const [y, m] = fiscalYear.split("/");
  return `${y}年${Number(m)}月期`;
}

/** Selects `address` and explains it; returns the trace's fields by test id. */
async function explain(address: string): Promise<Record<string, string>> {
  await excel.select("Sheet1", address);
  await nav(page, "why");
  await page.click(tid("why-explain"));
  await page.locator(`${tid("why-trace")}[data-address="Sheet1!${address}"]`).waitFor();
  const out: Record<string, string> = {};
  for (const id of [
    "why-company",
    "why-item",
    "why-period",
    "why-quarters",
    "why-api-value",
    "why-shown",
    "why-source",
    "why-qualifiers",
    "why-xbrl",
    "why-fetched",
    "why-request",
  ]) {
    const el = page.locator(tid(id));
    if ((await el.count()) > 0) out[id] = (await el.first().textContent()) ?? "";
  }
  const value = page.locator(`${tid("why-api-value")} [data-value]`);
  if ((await value.count()) > 0) out["api"] = (await value.getAttribute("data-value")) ?? "";
  return out;
}

/** Every cell's value in Sheet1's used range, by address. */
async function snapshot(): Promise<Map<string, string>> {
  const info = (await excel.sheets()).find((s) => s.name === "Sheet1");
  const out = new Map<string, string>();
  if (!info?.used) return out;
  const rows = await excel.read("Sheet1", info.used);
  const [start = "A1"] = info.used.split(":");
  const m = /^([A-Z]+)(\d+)$/.exec(start);
  const col0 = (m?.[1] ?? "A").charCodeAt(0) - 65;
  const row0 = Number(m?.[2] ?? 1);
  rows.forEach((line, r) =>
    line.forEach((c, k) => {
      const v = c.value === null || c.value === undefined ? "" : String(c.value);
      if (v !== "") out.set(`Sheet1!${String.fromCharCode(65 + col0 + k)}${row0 + r}`, v);
    }),
  );
  return out;
}

beforeAll(async () => {
  h = await startHarness({ sandbox: { now: DAY_BEFORE } });
  ({ page, excel } = await openConnectedPane(h, "ja"));
  await page.setViewportSize({ width: 320, height: 900 });
  for (const [address, formula] of Object.entries(CELLS))
    await excel.enter("Sheet1", address, formula);
  await excel.idle();
});

afterAll(async () => {
  await h?.close();
});

describe("Why this number", () => {
  test("FINANCIAL FY-1: the previous fiscal year, the API's figure, its 決算短信 and 有価証券報告書", async () => {
    const body = await api("/financials?security_code=7203&period=annual&years=30");
    const previous = body.periods[body.periods.length - 2];
    const t = await explain("A1");
    expect(t["why-period"]).toBe(yearJa(previous.fiscal_year));
    expect(Number(t["api"])).toBe(previous.sales);
    expect(t["why-company"]).toContain(body.edinet_code);
    expect(t["why-item"]).toContain("売上高");
    expect(t["why-source"]).toContain(`${yearJa(previous.fiscal_year)} 決算短信`);
    expect(t["why-source"]).toContain("有価証券報告書");
    expect(t["why-qualifiers"]).toContain(`会計基準：${previous.accounting_standard}`);
    expect(t["why-request"]).toContain("GET /financials?");
    expect(t["why-request"]).not.toContain(DEMO_API_KEY);
    expect(t["why-fetched"]).toContain("最新");
  });

  test("a FINANCIALS spill cell: its row's item, its column's period, the API's figure", async () => {
    const body = await api("/financials?security_code=7203&period=annual&years=3");
    const header = (await excel.read("Sheet1", "C1:F1"))[0] ?? [];
    const fiscalYear = String(header[3]?.value);
    const row = body.periods.find((p: { fiscal_year: string }) => p.fiscal_year === fiscalYear);
    const t = await explain("F3");
    expect(t["why-item"]).toContain("net_income");
    expect(t["why-period"]).toBe(yearJa(fiscalYear));
    expect(Number(t["api"])).toBe(row.net_income);
    expect(t["why-source"]).toContain(`${yearJa(fiscalYear)} 決算短信`);
  });

  test("LTM: the four quarters summed, equal to the cell", async () => {
    const t = await explain("A2");
    const cell = (await excel.read("Sheet1", "A2"))[0]?.[0]?.value;
    expect(t["why-quarters"]?.split(", ")).toHaveLength(4);
    expect(t["why-period"]).toMatch(/^直近12か月/);
    expect(Number(t["api"])).toBe(cell);
    expect(t["why-qualifiers"]).toContain("LTM は計算値");
    expect(t["why-source"]).toContain("決算短信");
  });

  test("a DIVIDENDS cell: its record's figure and the record's own source documents", async () => {
    const edinet = (await api("/financials?security_code=7203&years=1")).edinet_code;
    const body = await api(`/dividends?edinet_code=${edinet}`);
    // The latest record's annual DPS (column D), under the header row (C10).
    const rows = await excel.read("Sheet1", "C11:D40");
    const r = rows.reduce((last, row, i) => (typeof row[1]?.value === "number" ? i : last), -1);
    expect(r).toBeGreaterThanOrEqual(0);
    const year = rows[r]?.[0]?.value;
    const record = body.records.find((x: { fiscal_year: number }) => x.fiscal_year === year);
    const t = await explain(`D${11 + r}`);
    expect(t["why-period"]).toBe(`${year}年に終わる事業年度`);
    expect(Number(t["api"])).toBe(record.annual_dps);
    expect(t["why-item"]).toContain("annual_dps");
    for (const ref of record.source_refs) expect(t["why-source"]).toContain(ref.doc_id);
  });

  test("PRICE: the trading day and its source, the API's close", async () => {
    const body = await api("/securities/7203/prices?limit=1");
    const t = await explain("A3");
    expect(t["why-period"]).toBe(body.prices[0].date);
    expect(Number(t["api"])).toBe(body.prices[0].close);
    expect(t["why-source"]).toContain(body.prices[0].date);
    expect(t["why-source"]).toContain(body.attribution.source_label);
  });

  test("the filing's XBRL fact: offered at its cost, read on the click with exactly one request, equal to the API's figure", async () => {
    const body = await api("/financials?security_code=7203&period=annual&years=30");
    const previous = body.periods[body.periods.length - 2];
    await explain("A1");
    const ask = page.locator(tid("why-xbrl-ask"));
    expect(await ask.textContent()).toContain("1 リクエスト");
    const before = h.sandbox.sandbox.requestLog.length;
    await ask.focus();
    await page.keyboard.press("Enter");
    await page.locator(tid("why-xbrl-fact")).first().waitFor();
    const sent = h.sandbox.sandbox.requestLog.slice(before);
    expect(sent.map((e) => e.path)).toEqual([expect.stringMatching(/^\/v1\/disclosures\//)]);
    const facts = await page.locator(tid("why-xbrl-fact")).allTextContents();
    expect(facts.join(" ")).toMatch(/Revenue|NetSales/);
    expect(facts.join(" ")).toContain(Number(previous.sales).toLocaleString("ja-JP"));
  });

  test("a company given by name: its look-up's company, named, and the API's figure", async () => {
    const body = await api("/financials?security_code=7203&period=annual&years=30");
    const previous = body.periods[body.periods.length - 2];
    const t = await explain("A9");
    expect(t["why-company"]).toContain("大和自動車（サンプル）");
    expect(t["why-company"]).toContain("7203");
    expect(t["why-company"]).toContain(body.edinet_code);
    expect(Number(t["api"])).toBe(previous.sales);
  });

  test("PRICE with a date: the last trading day on or before it, the API's close of that day", async () => {
    const body = await api("/securities/7203/prices?from=2026-10-26&to=2026-11-02");
    const day = body.prices.find((p: { date: string }) => p.date <= "2026-11-02");
    const t = await explain("A8");
    expect(t["why-period"]).toBe(day.date);
    expect(Number(t["api"])).toBe(day.close);
    expect(t["why-request"]).toContain("from=2026-01-01");
  });

  test("a FINANCIALS table without headers: the cell's item and period from the table given again", async () => {
    const body = await api("/financials?security_code=7203&period=annual&years=3");
    const row = body.periods[body.periods.length - 1];
    // headers 0, items_down: row 2 is net_income, the last of three columns the latest year.
    const t = await explain("J2");
    expect(t["why-item"]).toContain("net_income");
    expect(t["why-period"]).toBe(yearJa(row.fiscal_year));
    expect(Number(t["api"])).toBe(row.net_income);
  });

  test("a scope exception: the item taken with the other scope is warned about", async () => {
    const t = await explain("A4");
    expect(t["why-qualifiers"]).toContain("scope_exceptions");
    expect(t["why-qualifiers"]).toContain("単体");
    await h.screenshot(page, "why-and-changes-01-why-ja");
  });
});

describe("Changes", () => {
  test("a results batch and one 訂正: exactly the changed cells, old and new right, the restatement marked", async () => {
    const before = await snapshot();
    h.sandbox.sandbox.setNow(DAY_AFTER);
    await nav(page, "refresh");
    await page.click(tid("refresh-all"));
    await page.click(tid("refresh-confirm-run"));
    await page.locator(tid("refresh-summary")).waitFor();
    await excel.idle();
    await nav(page, "changes");
    await page.locator(tid("changes-update")).first().waitFor({ timeout: 120_000 });
    const after = await snapshot();
    const changed = [...new Set([...before.keys(), ...after.keys()])]
      .filter((a) => (before.get(a) ?? "") !== (after.get(a) ?? ""))
      .sort();
    const listed = await page.$$eval(
      `${tid("changes-update")}:first-of-type ${tid("changes-cell")}`,
      (rows) =>
        rows.map((r) => ({
          address: r.getAttribute("data-address") ?? "",
          old: r.getAttribute("data-old") ?? "",
          new: r.getAttribute("data-new") ?? "",
        })),
    );
    expect(listed.map((c) => c.address).sort()).toEqual(changed);
    for (const c of listed) {
      expect([c.address, c.old]).toEqual([c.address, before.get(c.address) ?? ""]);
      expect([c.address, c.new]).toEqual([c.address, after.get(c.address) ?? ""]);
    }
    // The restated figure, marked as such with its 訂正; the results batch's new quarter; the
    // new price day; nothing for cells that did not move (A1, A7, the dividends).
    const correction = CORRECTIONS[0];
    const restated = page.locator(`${tid("changes-group")}[data-kind="restatement"]`);
    expect(await restated.getAttribute("data-company")).toBe(correction?.code);
    expect(await restated.locator(tid("changes-cell")).getAttribute("data-address")).toBe(
      "Sheet1!A5",
    );
    expect(await restated.locator(tid("changes-restatement")).count()).toBe(1);
    expect(await restated.locator(tid("changes-filing")).textContent()).toContain("訂正");
    expect(changed).toContain("Sheet1!A6");
    expect(
      await page
        .locator(`${tid("changes-group")}[data-kind="new_period"][data-company="1332"]`)
        .count(),
    ).toBe(1);
    expect(changed).not.toContain("Sheet1!A1");
    expect(changed).not.toContain("Sheet1!A7");
    await h.screenshot(page, "why-and-changes-02-changes-ja");
  });

  test("a recalculation the analyst starts in Excel a month on: the cells it changed are logged as a recalculation, exactly", async () => {
    const before = await snapshot();
    // Over 30 days on, a stored answer is not shown while it is asked again (src/client/client.ts
    // MAX_SERVED_WHILE_DUE_MS): each cell waits for the API itself, outside any update of the pane.
    h.sandbox.sandbox.setNow(MONTH_ON);
    await h.context.clock.setSystemTime(Date.parse(MONTH_ON));
    await page.evaluate(() =>
      (
        window as unknown as { __excelStandIn: { fullCalculation(): void } }
      ).__excelStandIn.fullCalculation(),
    );
    await excel.idle();
    await nav(page, "changes");
    const update = page.locator(`${tid("changes-update")}[data-trigger="recalculation"]`);
    await update.first().waitFor({ timeout: 120_000 });
    const after = await snapshot();
    const changed = [...new Set([...before.keys(), ...after.keys()])]
      .filter((a) => (before.get(a) ?? "") !== (after.get(a) ?? ""))
      .sort();
    const listed = await update
      .first()
      .locator(tid("changes-cell"))
      .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-address") ?? ""));
    expect(changed).toContain("Sheet1!A3");
    expect(listed.sort()).toEqual(changed);
    const day = update.first().locator(`${tid("changes-group")}[data-kind="new_price_day"]`);
    expect(await day.count()).toBeGreaterThan(0);
  });
});
