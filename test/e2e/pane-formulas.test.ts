// Every formula a pane flow writes calculates: the company sheet (every cell), the peer sheet (every
// cell), screening's inserted formula and the imports' captions, in the Excel stand-in against the
// sandbox. A cell counts when it holds a value, never an error or a formula left as text.
import type { Page } from "playwright-core";
import { nav as navTo, openConnectedPane, type standIn, type StandIn } from "./cockpit-helpers";
import { startHarness, type Harness } from "./harness";

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

async function successMessage(id: string): Promise<string> {
  const bar = page.locator(`${tid(id)}[data-intent="success"]`);
  await bar.waitFor();
  return (await bar.textContent()) ?? "";
}

/** Every cell of a sheet's used range that shows an error or a formula that did not calculate. */
async function brokenCells(sheet: string): Promise<string[]> {
  const info = (await excel.sheets()).find((s) => s.name === sheet);
  if (!info?.used) return [`${sheet}: empty`];
  const cells = await excel.read(sheet, info.used);
  return cells.flatMap((row, r) =>
    row.flatMap((c, col) => {
      const bad =
        c.error !== undefined ||
        (typeof c.value === "string" && /^#(BUSY!|GETTING_DATA|[A-Z/0]+[!?]|N\/A)/.test(c.value)) ||
        (typeof c.value === "string" && c.value.startsWith("="));
      return bad
        ? [`${sheet} r${r} c${col}: ${String(c.value)} ${c.formula ?? ""} ${c.message ?? ""}`]
        : [];
    }),
  );
}

beforeAll(async () => {
  h = await startHarness();
  ({ page, excel } = await openConnectedPane(h, "ja"));
});

afterAll(async () => {
  await h?.close();
});

describe("formulas written by the pane calculate", () => {
  test("company sheet: fiscal-year columns, and every cell of the sheet is a value", async () => {
    await nav("company");
    await page.fill(tid("company-sheet-code"), "7203");
    await page.click(tid("company-sheet-build"));
    await successMessage("company-sheet-message");
    await excel.idle();
    const sheet = "Kaisha_7203";
    // Row 10: fiscal years as text (oldest left), not "9期前 … 最新期" (formulas following B2).
    const header = (await excel.read(sheet, "C10:L10"))[0]?.map((c) => c.value) ?? [];
    expect(header).toHaveLength(10);
    for (const v of header) expect(String(v)).toMatch(/^\d{4}\/\d{2}期$/);
    expect([...header].sort()).toEqual(header);
    // The results (sales below the two facts rows): FINANCIAL cells per item and year.
    const sales = (await excel.read(sheet, "C13:L13"))[0] ?? [];
    expect(sales.every((c) => /KAISHA\.FINANCIAL\(/.test(c.formula ?? ""))).toBe(true);
    expect(sales.filter((c) => typeof c.value === "number").length).toBeGreaterThan(5);
    expect(await brokenCells(sheet)).toEqual([]);
    await h.screenshot(page, "pane-formulas-01-company-sheet");
  });

  test("peer sheet: one click from the company, every cell a value, with the source caption", async () => {
    await page.click(tid("company-peers-build"));
    const text = await successMessage("company-sheet-message");
    expect(text).toContain("Kaisha_peers_7203");
    await excel.idle();
    const sheet = "Kaisha_peers_7203";
    // The subject's row first: its code as text, the figures formulas over it.
    const first = (await excel.read(sheet, "A9:U9"))[0] ?? [];
    expect(first[0]?.value).toBe("7203");
    expect(String(first[1]?.value)).not.toBe("");
    expect(first[3]?.formula).toMatch(/^=IF\(\$A9="","",INDEX\(KAISHA\.VALUATION\(\$A9,/);
    expect(typeof first[8]?.value).toBe("number");
    const info = (await excel.sheets()).find((s) => s.name === sheet);
    const cells = (await excel.read(sheet, info?.used ?? "A1")).flat();
    expect(cells.some((c) => c.value === "出典")).toBe(true);
    expect(cells.some((c) => c.formula === '=KAISHA.ATTRIBUTION("peers")')).toBe(true);
    expect(cells.some((c) => c.formula === '=KAISHA.ATTRIBUTION("valuations")')).toBe(true);
    expect(await brokenCells(sheet)).toEqual([]);
    await h.screenshot(page, "pane-formulas-02-peer-sheet");
  });

  test("screening: the inserted SCREEN formula spills its result, no error", async () => {
    await nav("screening");
    await page.waitForSelector(tid("screen-metric-search"));
    await page.click(tid("screen-metric-search"));
    await page.keyboard.type("PER");
    await page.click(tid("screen-metric-option-per"));
    await page.selectOption(tid("screen-operator"), "lte");
    await page.fill(tid("screen-value"), "15");
    await page.click(tid("screen-add-condition"));
    await page.waitForSelector(tid("screen-condition-0"));
    await excel.select("Sheet1", "B2");
    await page.click(tid("screen-insert-formula"));
    await page.waitForFunction(
      () =>
        (window as unknown as { __excelStandIn: StandIn }).__excelStandIn.read(
          "Sheet1",
          "B2",
        )[0]?.[0]?.formula !== undefined,
    );
    await excel.idle();
    const anchor = (await excel.read("Sheet1", "B2:B3")).flat();
    expect(anchor[0]?.formula).toMatch(/^=KAISHA\.SCREEN\(/);
    expect(anchor[0]?.error).toBeUndefined();
    expect(anchor[1]?.error).toBeUndefined();
    expect(String(anchor[1]?.value ?? "")).not.toBe("");
    expect(await brokenCells("Sheet1")).toEqual([]);
  });

  test("imports: each table's caption under it names the source, as text", async () => {
    await nav("import");
    for (const [dataset, fill, at] of [
      ["prices", { code: "7203", from: "2024-01-04", to: "2024-01-31" }, "A40"],
      ["financials", { security_code: "7203" }, "A80"],
      ["valuations", { security_code: "6758" }, "A120"],
    ] as const) {
      await page.selectOption(tid("import-dataset-select"), dataset);
      for (const [param, value] of Object.entries(fill)) {
        await page.fill(tid(`import-param-${param}`), value);
      }
      const before = (await excel.sheets()).find((s) => s.name === "Sheet1")?.tables.length ?? 0;
      await excel.select("Sheet1", at);
      await page.click(tid("import-run"));
      await page.waitForFunction(
        (n) =>
          ((window as unknown as { __excelStandIn: StandIn }).__excelStandIn
            .sheets()
            .find((s) => s.name === "Sheet1")?.tables.length ?? 0) > n,
        before,
      );
      const table = (await excel.sheets()).find((s) => s.name === "Sheet1")?.tables.slice(-1)[0];
      const bottom = Number(/(\d+)$/.exec(table?.address ?? "")?.[1]);
      const col = /!?([A-Z]+)\d+:/.exec(table?.address ?? "")?.[1] ?? "A";
      const caption = (await excel.read("Sheet1", `${col}${bottom + 2}`))[0]?.[0];
      expect([dataset, caption?.error]).toEqual([dataset, undefined]);
      expect([dataset, String(caption?.value)]).toEqual([dataset, expect.stringMatching(/出典: /)]);
    }
    await excel.idle();
    expect(await brokenCells("Sheet1")).toEqual([]);
  });

  test("Freeze values freezes the good formula, leaves the one in error and says why", async () => {
    await page.evaluate(() => {
      const w = (
        window as unknown as {
          __excelStandIn: StandIn;
        }
      ).__excelStandIn;
      w.enter("Sheet1", "Z1", '=KAISHA.FINANCIAL(7203,"sales",0)');
      w.enter("Sheet1", "Z2", '=KAISHA.FINANCIAL(9999,"sales",0)');
    });
    await excel.idle();
    await excel.select("Sheet1", "Z1:Z2");
    await nav("refresh");
    await page.selectOption(tid("freeze-scope"), "selection");
    await page.click(tid("freeze-values"));
    const bar = page.locator(`${tid("freeze-summary")}[data-intent="warning"]`);
    await bar.waitFor();
    const text = (await bar.textContent()) ?? "";
    expect(text).toContain("1個の数式を値に固定しました");
    expect(text).toContain("エラー 1個（#N/A）");
    expect(text).toContain("Sheet1!Z2 (#N/A)");
    const [good, bad] = (await excel.read("Sheet1", "Z1:Z2")).map((r) => r[0]);
    expect(good?.formula).toBeUndefined();
    expect(typeof good?.value).toBe("number");
    expect(bad?.formula).toBe('=KAISHA.FINANCIAL(9999,"sales",0)');
    await h.screenshot(page, "pane-formulas-03-freeze-skipped");
  });

  test("the pane raised no page errors", () => {
    expect(h.problems.filter((p) => p.startsWith("pageerror"))).toEqual([]);
  });
});
