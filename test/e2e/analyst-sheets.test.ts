// The company sheet and the comps sheet, built from the pane in Japanese and in English in the Excel
// stand-in, every cell checked against the sandbox API's own answers: adjusted per-share values, the
// ROE rule, "—" outside the accounting standard, derived formulas, formats, subject + peers + median
// and mean; a rebuild keeps the analyst's own cells; a code typed in a spare row brings its figures.
import type { Page } from "playwright-core";
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import { FIELD_DICTIONARY } from "../../src/contract";
import { nav, openConnectedPane, tid, type CellInfo, type standIn } from "./cockpit-helpers";
import { startHarness, type Harness } from "./harness";
import { screenshotCells } from "./sheet-render";
import { SUMMARY_ROWS } from "../../taskpane/state/company-sheet-plan";
import { COMPS_COLUMNS, SPARE_ROWS } from "../../taskpane/state/peer-sheet-plan";

type Json = Record<string, unknown>;
type Lang = "ja" | "en";

let h: Harness;

/** The sandbox's own answer (the oracle), asked directly with the demo key. */
async function api(path: string): Promise<Json> {
  const res = await fetch(`${h.sandbox.url}${path}`, {
    headers: { Authorization: `Bearer ${DEMO_API_KEY}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Json;
}

const num = (v: unknown): number | null => (typeof v === "number" ? v : null);
/** What a cell holding an API value shows: the number, or empty for null. */
const cellOf = (v: unknown): number | string => num(v) ?? "";

/** Items openapi.json marks "J-GAAP only; null for IFRS / US-GAAP filers" (checked in unit tests). */
const JGAAP_ONLY = ["ordinary_income"];

/** Every API key the sheets could leak: none may be a cell's text. */
const API_KEYS = new Set(
  [...FIELD_DICTIONARY.financials, ...FIELD_DICTIONARY.valuations].map((f) => f.key),
);

function letter(index: number): string {
  let n = index + 1;
  let s = "";
  while (n > 0) {
    s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

/** "#,##0,,": yen shown in millions, as Excel rounds. */
function millions(yen: number): string {
  return (yen / 1e6).toLocaleString("en-US", { maximumFractionDigits: 0 });
}

/** A number shown with fixed decimals as Excel rounds it (15 significant digits, then half up). */
function fixed(value: number, decimals: number): string {
  return Number(value.toPrecision(15)).toLocaleString("en-US", {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
    useGrouping: false,
  });
}

/** A derived value next to what the cell holds (floating point: the same operations, close). */
function expectNumber(cell: CellInfo | undefined, expected: number | "", where: string): void {
  if (expected === "") {
    expect([where, cell?.value]).toEqual([where, ""]);
    return;
  }
  expect([where, typeof cell?.value]).toEqual([where, "number"]);
  expect(cell?.value as number).toBeCloseTo(expected, 9);
}

function openPane(lang: Lang): ReturnType<typeof openConnectedPane> {
  return openConnectedPane(h, lang);
}

async function build(page: Page, code: string, button: string): Promise<string> {
  await nav(page, "company");
  await page.fill(tid("company-sheet-code"), code);
  // Typing opens the picker's list over the buttons: close it as a user would, keeping the code.
  await page.keyboard.press("Escape");
  expect(await page.inputValue(tid("company-sheet-code"))).toBe(code);
  // Generous waits: the first build after the pane loads competes with its start-up work.
  await page.click(tid(button), { timeout: 90_000 });
  const bar = page.locator(`${tid("company-sheet-message")}[data-intent="success"]`);
  await bar.waitFor({ timeout: 90_000 });
  return (await bar.textContent()) ?? "";
}

/** Cells that show an error or a formula left as text. */
function broken(cells: CellInfo[][]): string[] {
  return cells.flatMap((row, r) =>
    row.flatMap((c, col) =>
      c.error !== undefined || (typeof c.value === "string" && c.value.startsWith("="))
        ? [`r${r + 1} ${letter(col)}: ${String(c.value)} ${c.formula ?? ""} ${c.message ?? ""}`]
        : [],
    ),
  );
}

/** No API key, and not the demo key, anywhere a user reads. */
function expectLabelsOnly(cells: CellInfo[][]): void {
  const texts = cells.flat().flatMap((c) => (typeof c.value === "string" ? [c.value] : []));
  expect(texts.filter((t) => API_KEYS.has(t))).toEqual([]);
  expect(texts.filter((t) => t.includes(DEMO_API_KEY))).toEqual([]);
}

/**
 * Checks every cell of a company sheet against /financials, /valuations and /prices. Returns the
 * ROE cells' ratio to the API's percent (1 today; 0.01 once percentages are fractions).
 */
async function checkCompanySheet(
  excel: ReturnType<typeof standIn>,
  code: string,
  lang: Lang,
): Promise<void> {
  const sheet = `Kaisha_${code}`;
  const info = (await excel.sheets()).find((s) => s.name === sheet);
  expect(info?.used).toBeTruthy();
  const cells = await excel.read(sheet, "A1:AL260");
  const at = (address: string): CellInfo | undefined => {
    const m = /^([A-Z]+)(\d+)$/.exec(address);
    let col = 0;
    for (const ch of m?.[1] ?? "A") col = col * 26 + ch.charCodeAt(0) - 64;
    return cells[Number(m?.[2]) - 1]?.[col - 1];
  };
  expect(broken(cells)).toEqual([]);
  expectLabelsOnly(cells);

  // Header card: code as text, the company's name (COMPANY card), the latest close and its day.
  const prices = ((await api(`/securities/${code}/prices?limit=1`))["prices"] as Json[])[0] ?? {};
  expect(at("B2")?.value).toBe(code);
  expect(String(at("B3")?.value)).not.toBe("");
  expect(at("B4")?.value).toBe(prices["close"]);
  expect(at("B5")?.text).toBe(String(prices["date"]).replace(/-/g, "/"));
  expect(at("B6")?.numberFormat).toBe("yyyy/mm/dd hh:mm");
  expect(typeof at("B6")?.value).toBe("number");

  // Results: one column per fiscal year (row 10), each cell against its period of /financials.
  const fin = await api(`/financials?security_code=${code}&period=annual&years=30`);
  const periods = new Map(
    (fin["periods"] as Json[])
      .filter((p) => p["quarter"] == null)
      .map((p) => [String(p["fiscal_year"]), p]),
  );
  const years: string[] = [];
  for (let c = 2; typeof cells[9]?.[c]?.value === "string" && cells[9]?.[c]?.value !== ""; c++)
    years.push(String(cells[9]?.[c]?.value).replace(/期$/, ""));
  expect(years).toHaveLength(10);
  const latest = [...periods.keys()].sort().slice(-10);
  expect(years).toEqual(latest);
  const ratios: number[] = [];
  let dashes = 0;
  SUMMARY_ROWS.forEach((row, i) => {
    const r = 11 + i;
    expect(at(`A${r}`)?.value).toBe(row.label[lang]);
    years.forEach((fy, y) => {
      const p = periods.get(fy) ?? {};
      const prev = y > 0 ? (periods.get(years[y - 1] ?? "") ?? {}) : undefined;
      const cell = at(`${letter(2 + y)}${r}`);
      const where = `${row.id} ${fy}`;
      const v = (key: string, of: Json = p) => num(of[key]);
      if (row.kind === "item") {
        const exceptions = ((p["standard_exceptions"] as Json | undefined)?.["J-GAAP"] ??
          []) as string[];
        if (
          JGAAP_ONLY.includes(row.key) &&
          p["accounting_standard"] !== "J-GAAP" &&
          !exceptions.includes(row.key)
        ) {
          dashes++;
          expect([where, cell?.value]).toEqual([where, "—"]);
          return;
        }
        // Exact values (yen, adjusted yen per share, people): the format scales, never the cell.
        expect([where, cell?.value]).toEqual([where, cellOf(p[row.key])]);
        const value = v(row.key);
        if (value !== null && row.format === "#,##0,,")
          expect([where, cell?.text]).toEqual([where, millions(value)]);
        if (value !== null && row.format === "#,##0.00")
          expect([where, cell?.text]).toEqual([
            where,
            value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
          ]);
        return;
      }
      if (row.kind === "roe") {
        // openapi.json: roe ?? roe_computed.
        const source = v("roe") ?? v("roe_computed");
        if (source === null) expect([where, cell?.value]).toEqual([where, ""]);
        else if (source !== 0) ratios.push((cell?.value as number) / source);
        return;
      }
      const ratio = (a: number | null, b: number | null, ok: (b: number) => boolean) =>
        a !== null && b !== null && ok(b) ? a / b : "";
      const growth = (key: string): number | "" => {
        const before = prev ? v(key, prev) : null;
        const now = v(key);
        return now !== null && before !== null && before > 0 ? now / before - 1 : "";
      };
      let expected: number | "";
      switch (row.id) {
        case "sales_growth":
          if (y === 0) {
            expect([where, cell?.value, cell?.formula]).toEqual([where, "", undefined]);
            return;
          }
          expected = growth("sales");
          break;
        case "operating_growth":
          if (y === 0) return;
          expected = growth("operating_profit");
          break;
        case "operating_margin":
          expected = ratio(v("operating_profit"), v("sales"), (b) => b !== 0);
          break;
        case "net_margin":
          expected = ratio(v("net_income"), v("sales"), (b) => b !== 0);
          break;
        case "net_cash": {
          const cash = v("cash_and_equivalents");
          const debt = v("interest_bearing_debt");
          expected = cash !== null && debt !== null ? cash - debt : "";
          break;
        }
        case "payout":
          expected = ratio(v("dps_adjusted"), v("eps_adjusted"), (b) => b > 0);
          break;
        default:
          throw new Error(`unchecked row ${row.id}`);
      }
      expectNumber(cell, expected, where);
      if (expected !== "") {
        expect([where, cell?.numberFormat]).toEqual([where, row.format]);
        if (row.format === "0.0%")
          expect([where, cell?.text]).toEqual([where, `${fixed(expected * 100, 1)}%`]);
      }
    });
  });
  // The ROE rule: one scale for every year, and the value the rule picks.
  expect(ratios.length).toBeGreaterThan(5);
  for (const q of ratios) expect(q).toBeCloseTo(ratios[0] ?? 1, 9);
  expect([1, 0.01]).toContainEqual(Number((ratios[0] ?? 0).toFixed(9)));
  if (dashes > 0) {
    const notes = cells.flat().map((c) => String(c.value));
    expect(notes.some((t) => t.startsWith(lang === "ja" ? "—：" : "—: "))).toBe(true);
  }

  // Valuation block: VALUATION's latest 10 years, oldest first, against /valuations.
  const rowAfter = 11 + SUMMARY_ROWS.length;
  let vh = rowAfter;
  while (at(`A${vh}`)?.value !== (lang === "ja" ? "決算期" : "Fiscal year")) vh++;
  const history = ((await api(`/valuations?security_code=${code}&years=10`))["history"] as Json[])
    .slice()
    .sort((a, b) => String(a["fiscal_year"]).localeCompare(String(b["fiscal_year"])));
  history.forEach((point, i) => {
    const r = vh + 1 + i;
    const where = `valuation ${String(point["fiscal_year"])}`;
    expect([where, at(`A${r}`)?.value]).toEqual([where, point["fiscal_year"]]);
    expect([where, at(`B${r}`)?.value]).toEqual([where, cellOf(point["stock_price_adjusted"])]);
    expect([where, at(`C${r}`)?.value]).toEqual([where, cellOf(point["per"])]);
    expect([where, at(`D${r}`)?.value]).toEqual([where, cellOf(point["pbr_adjusted"])]);
    expect([where, at(`F${r}`)?.value]).toEqual([where, cellOf(point["market_cap"])]);
    const per = num(point["per"]);
    if (per !== null)
      expect([where, at(`C${r}`)?.text]).toEqual([
        where,
        `${fixed(per, 1)}${lang === "ja" ? "倍" : "x"}`,
      ]);
  });

  // Chart: the split-adjusted close by date, newest first in AK:AL, the chart over it.
  const year = (await api(`/securities/${code}/prices?limit=300`))["prices"] as Json[];
  const data = await excel.read(sheet, "AK10:AL12");
  expect(data[0]?.[1]?.value).toBe(year[0]?.["adj_close"]);
  expect(data[2]?.[1]?.value).toBe(year[2]?.["adj_close"]);
  const chart = info?.charts.find((c) => c.name === `${sheet}_price`);
  expect(chart?.series).toEqual([lang === "ja" ? "終値（分割調整後）" : "Close (split-adjusted)"]);
}

/** Checks every cell of a comps sheet against /peers, /valuations, /financials and /prices. */
async function checkCompsSheet(
  excel: ReturnType<typeof standIn>,
  code: string,
  lang: Lang,
): Promise<void> {
  const sheet = `Kaisha_peers_${code}`;
  const cells = await excel.read(sheet, "A1:U40");
  expect(broken(cells)).toEqual([]);
  expectLabelsOnly(cells);
  const col: Record<string, number> = {};
  COMPS_COLUMNS.forEach((c, i) => (col[c.id] = 3 + i));
  const cell = (r: number, id: string) => cells[r - 1]?.[col[id] ?? -1];
  const peers = ((await api(`/peers?security_code=${code}&limit=20`))["peers"] as Json[]).slice(
    0,
    10,
  );
  const codes = [code, ...peers.map((p) => String(p["security_code"]))];
  expect(cells[7]?.[0]?.value).toBe(lang === "ja" ? "証券コード" : "Security code");
  const perNow: number[] = [];
  for (const [i, c] of codes.entries()) {
    const r = 9 + i;
    const where = `row ${r} ${c}`;
    expect([where, cells[r - 1]?.[0]?.value]).toEqual([where, c]);
    if (i > 0) {
      expect([where, cells[r - 1]?.[1]?.value]).toEqual([where, peers[i - 1]?.["name"]]);
      const industry = String(peers[i - 1]?.["industry"]);
      if (lang === "ja") expect([where, cells[r - 1]?.[2]?.value]).toEqual([where, industry]);
      else expect(cells[r - 1]?.[2]?.value).not.toMatch(/[ぁ-んァ-ヶ一-龯]/);
    }
    const point =
      ((await api(`/valuations?security_code=${c}&years=1`))["history"] as Json[])[0] ?? {};
    const fy = String(point["fiscal_year"]);
    expect([where, cell(r, "fiscal_year")?.value]).toEqual([where, fy]);
    for (const key of ["per", "pbr_adjusted", "market_cap"])
      expect([where, key, cell(r, key)?.value]).toEqual([where, key, cellOf(point[key])]);
    const fin = await api(`/financials?security_code=${c}&period=annual&years=30`);
    const p =
      (fin["periods"] as Json[]).find((x) => x["quarter"] == null && x["fiscal_year"] === fy) ?? {};
    for (const key of [
      "sales",
      "operating_profit",
      "net_income",
      "eps_adjusted",
      "bps_adjusted",
      "dps_adjusted",
    ])
      expect([where, key, cell(r, key)?.value]).toEqual([where, key, cellOf(p[key])]);
    const close = num(
      ((await api(`/securities/${c}/prices?limit=1`))["prices"] as Json[])[0]?.["close"],
    );
    expect([where, cell(r, "close")?.value]).toEqual([where, close ?? ""]);
    const eps = num(p["eps_adjusted"]);
    const bps = num(p["bps_adjusted"]);
    const dps = num(p["dps_adjusted"]);
    const op = num(p["operating_profit"]);
    const sales = num(p["sales"]);
    const per = close !== null && eps !== null && eps > 0 ? close / eps : "";
    expectNumber(cell(r, "per_now"), per, `${where} per_now`);
    expectNumber(
      cell(r, "pbr_now"),
      close !== null && bps !== null && bps > 0 ? close / bps : "",
      `${where} pbr_now`,
    );
    expectNumber(
      cell(r, "yield_now"),
      close !== null && dps !== null && close > 0 ? dps / close : "",
      `${where} yield_now`,
    );
    expectNumber(
      cell(r, "operating_margin"),
      op !== null && sales ? op / sales : "",
      `${where} margin`,
    );
    if (i > 0 && per !== "") perNow.push(per);
  }
  // Spare rows: empty until a code is typed; then median and mean over the peers (not the subject).
  for (let s = 0; s < SPARE_ROWS; s++) {
    const r = 9 + codes.length + s;
    expect(
      cells[r - 1]
        ?.slice(0, 21)
        .map((x) => x.value)
        .filter((v) => v !== ""),
    ).toEqual([]);
  }
  const medianRow = 9 + codes.length + SPARE_ROWS;
  expect(cells[medianRow - 1]?.[1]?.value).toBe(lang === "ja" ? "中央値" : "Median");
  expect(cells[medianRow]?.[1]?.value).toBe(lang === "ja" ? "平均" : "Mean");
  const sorted = [...perNow].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
  expectNumber(cell(medianRow, "per_now"), median, "median per_now");
  expectNumber(
    cell(medianRow + 1, "per_now"),
    perNow.reduce((a, b) => a + b, 0) / perNow.length,
    "mean per_now",
  );
  expect(cell(medianRow, "per_now")?.text).toBe(`${fixed(median, 1)}${lang === "ja" ? "倍" : "x"}`);
  const texts = cells.flat().map((c) => String(c.value));
  expect(texts.some((t) => t.startsWith(lang === "ja" ? "出典: " : "Source: "))).toBe(true);
}

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
});

describe.each([
  ["ja", "7203"],
  ["en", "7011"],
] as const)("analyst sheets in %s (company %s)", (lang, code) => {
  let page: Page;
  let excel: ReturnType<typeof standIn>;

  beforeAll(async () => {
    ({ page, excel } = await openPane(lang));
  });

  test("company sheet: every cell against the API (adjusted per share, ROE rule, —, derived rows, formats, chart)", async () => {
    await build(page, code, "company-sheet-build");
    await excel.idle();
    await checkCompanySheet(excel, code, lang);
    const cells = await excel.read(`Kaisha_${code}`, "A1:L45");
    await screenshotCells(h, cells, `analyst-sheets-${lang}-company-${code}`);
  });

  // The one percent scale: FINANCIAL/VALUATION give percentages as fractions (ROE 0.077), which
  // the sheets' "0.0%" formats show as 7.7%.
  test("percent rows hold fractions shown with % (ROE, year-end dividend yield)", async () => {
    const sheet = `Kaisha_${code}`;
    const fin = await api(`/financials?security_code=${code}&period=annual&years=30`);
    const periods = (fin["periods"] as Json[]).filter((p) => p["quarter"] == null);
    const roeRow = 11 + SUMMARY_ROWS.findIndex((r) => r.id === "roe");
    const cells = (await excel.read(sheet, `C${roeRow}:L${roeRow}`))[0] ?? [];
    const years = ((await excel.read(sheet, "C10:L10"))[0] ?? []).map((c) =>
      String(c.value).replace(/期$/, ""),
    );
    years.forEach((fy, i) => {
      const p = periods.find((x) => x["fiscal_year"] === fy) ?? {};
      const source = num(p["roe"]) ?? num(p["roe_computed"]);
      if (source === null) return;
      expect(cells[i]?.value as number).toBeCloseTo(source / 100, 9);
      expect(cells[i]?.text).toBe(`${fixed(source, 1)}%`);
    });
  });

  test("comps sheet: subject, peers, median and mean, current and year-end multiples, against the API", async () => {
    await build(page, code, "company-peers-build");
    await excel.idle();
    await checkCompsSheet(excel, code, lang);
    const cells = await excel.read(`Kaisha_peers_${code}`, "A1:U30");
    await screenshotCells(h, cells, `analyst-sheets-${lang}-comps-${code}`);
  });
});

describe("never lose the analyst's work", () => {
  let page: Page;
  let excel: ReturnType<typeof standIn>;

  beforeAll(async () => {
    ({ page, excel } = await openPane("ja"));
  });

  test("rebuilding the company sheet keeps the cells the analyst typed, and says so", async () => {
    await build(page, "6758", "company-sheet-build");
    await excel.idle();
    const sheet = "Kaisha_6758";
    // The analyst's forecast column right of the results, a note, and their own formula.
    await excel.enter(sheet, "M10", "2026/03予");
    await excel.enter(sheet, "M11", "15000000000000");
    await excel.enter(sheet, "N3", "メモ：来期は増配見込み");
    await excel.enter(sheet, "M12", "=M11/L11-1");
    await excel.idle();
    const text = await build(page, "6758", "company-sheet-build");
    expect(text).toContain("追加したセルはそのまま");
    await excel.idle();
    const kept = await excel.read(sheet, "M10:N12");
    expect(kept[0]?.[0]?.value).toBe("2026/03予");
    expect(kept[1]?.[0]?.value).toBe(15000000000000);
    expect(kept[2]?.[0]?.formula).toBe("=M11/L11-1");
    expect(typeof kept[2]?.[0]?.value).toBe("number");
    expect((await excel.read(sheet, "N3"))[0]?.[0]?.value).toBe("メモ：来期は増配見込み");
    // The template is whole again, still calculating.
    expect((await excel.read(sheet, "L11"))[0]?.[0]?.formula).toMatch(/^=KAISHA\.FINANCIAL\(/);
    expect(broken(await excel.read(sheet, "A1:N45"))).toEqual([]);
    expect((await excel.sheets()).find((s) => s.name === sheet)?.charts).toHaveLength(1);
  });

  test("comps: a code typed in a spare row brings that company's figures, and the median follows", async () => {
    await build(page, "6758", "company-peers-build");
    await excel.idle();
    const sheet = "Kaisha_peers_6758";
    const cells = await excel.read(sheet, "A9:A30");
    const spare = cells.findIndex((r) => r[0]?.value === "") + 9;
    const medianBefore = (await excel.read(sheet, `R${spare + SPARE_ROWS}`))[0]?.[0]?.value;
    await excel.enter(sheet, `A${spare}`, "7203");
    await excel.idle();
    const row = (await excel.read(sheet, `A${spare}:U${spare}`))[0] ?? [];
    expect(row[3]?.value).toMatch(/^\d{4}\/\d{2}$/);
    expect(typeof row[8]?.value).toBe("number"); // sales
    expect(typeof row[17]?.value).toBe("number"); // PER on the current price
    const medianAfter = (await excel.read(sheet, `R${spare + SPARE_ROWS}`))[0]?.[0]?.value;
    expect(typeof medianAfter).toBe("number");
    expect(medianAfter).not.toBe(medianBefore);
    // Building the comps again keeps the code the analyst added, its figures, and the summary.
    await excel.enter(sheet, `B${spare}`, "自分で追加");
    const text = await build(page, "6758", "company-peers-build");
    expect(text).toContain("追加したセルはそのまま");
    await excel.idle();
    const again = (await excel.read(sheet, `A${spare}:U${spare}`))[0] ?? [];
    expect(again[0]?.value).toBe("7203");
    expect(again[1]?.value).toBe("自分で追加");
    expect(typeof again[8]?.value).toBe("number");
    const after = await excel.read(sheet, "A9:U40");
    const labels = after.map((r) => r[1]?.value);
    expect(labels.filter((v) => v === "中央値")).toHaveLength(1);
    expect(labels.indexOf("中央値")).toBe(spare + 1 + SPARE_ROWS - 9);
    expect(broken(after)).toEqual([]);
  });

  test("the pages raised no errors", () => {
    expect(h.problems.filter((p) => p.startsWith("pageerror"))).toEqual([]);
  });
});
