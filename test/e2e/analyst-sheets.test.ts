// The company sheet and the comps sheet, built from the pane in Japanese and in English in the Excel
// stand-in, every cell checked against the sandbox API's own answers: adjusted per-share values, the
// ROE rule, "—" outside the accounting standard, derived formulas, formats, a sheet that follows its
// code cell, NM multiples outside the peer statistics, EV/EBITDA by its definition; a rebuild keeps
// the analyst's own cells and leaves nothing stale; a code typed in a spare row brings its figures.
import type { Page } from "playwright-core";
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import { FIELD_DICTIONARY } from "../../src/contract";
import { nav, openConnectedPane, tid, type CellInfo, type standIn } from "./cockpit-helpers";
import { startHarness, type Harness } from "./harness";
import { screenshotCells } from "./sheet-render";
import { SUMMARY_ROWS } from "../../taskpane/state/company-sheet-plan";
import {
  COMPS_COLUMNS,
  peerRelation,
  peerSheetLayout,
  SPARE_ROWS,
  type PeerList,
} from "../../taskpane/state/peer-sheet-plan";

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

/** The company sheet's rows: year headers, the two facts rows, then SUMMARY_ROWS. */
const HEADER_ROW = 10;
const FIRST_RESULT_ROW = 13;

/** A1 address -> the cell of a block read from A1. */
function cellAt(cells: CellInfo[][], address: string): CellInfo | undefined {
  const m = /^([A-Z]+)(\d+)$/.exec(address);
  let col = 0;
  for (const ch of m?.[1] ?? "A") col = col * 26 + ch.charCodeAt(0) - 64;
  return cells[Number(m?.[2]) - 1]?.[col - 1];
}

/** The median of numbers, computed here (the oracle of the sheet's MEDIAN). */
function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

const STANDARD_WORDS: Record<Lang, Record<string, string>> = {
  ja: { "J-GAAP": "日本基準", IFRS: "IFRS", "US-GAAP": "米国基準" },
  en: { "J-GAAP": "J-GAAP", IFRS: "IFRS", "US-GAAP": "US GAAP" },
};

/**
 * Checks every cell of a company sheet against /financials, /valuations and /prices of the company
 * its B2 holds (`code`); `built` is the company the sheet was built for (its facts rows and "—"
 * show only while B2 still holds it).
 */
async function checkCompanySheet(
  excel: ReturnType<typeof standIn>,
  sheet: string,
  code: string,
  built: string,
  lang: Lang,
): Promise<void> {
  const info = (await excel.sheets()).find((s) => s.name === sheet);
  expect(info?.used).toBeTruthy();
  const cells = await excel.read(sheet, "A1:AL300");
  const at = (address: string) => cellAt(cells, address);
  expect(broken(cells)).toEqual([]);
  expectLabelsOnly(cells);

  // Header card: code as text, the company's name (COMPANY card), the latest close and its day.
  const prices = ((await api(`/securities/${code}/prices?limit=1`))["prices"] as Json[])[0] ?? {};
  expect(at("B2")?.value).toBe(code);
  expect(String(at("B3")?.value)).not.toBe("");
  const close = prices["close"] as number;
  expect(at("B4")?.value).toBe(close);
  // A price with its own decimals, as an imported table shows it (4,355, never 4,355.0).
  expect(at("B4")?.text).toBe(close.toLocaleString("en-US", { maximumFractionDigits: 2 }));
  expect(at("B5")?.text).toBe(String(prices["date"]).replace(/-/g, "/"));
  expect(at("B6")?.numberFormat).toBe("yyyy/mm/dd hh:mm");
  expect(typeof at("B6")?.value).toBe("number");

  // Results: the latest ten fiscal years of the company in B2, each cell against its period.
  const fin = await api(`/financials?security_code=${code}&period=annual&years=30`);
  const periods = new Map(
    (fin["periods"] as Json[])
      .filter((p) => p["quarter"] == null)
      .map((p) => [String(p["fiscal_year"]), p]),
  );
  const latest = [...periods.keys()].sort().slice(-10);
  const years = latest.map((_, i) => String(at(`${letter(2 + i)}${HEADER_ROW}`)?.value));
  expect(years).toEqual(latest.map((y) => (lang === "ja" ? `${y}期` : y)));
  expect(at(`${letter(12)}${HEADER_ROW}`)?.value).toBe("LTM");
  const fy0 = periods.get(latest[latest.length - 1] ?? "") ?? {};

  // The facts rows: each year's standard and consolidation while B2 holds the built company.
  latest.forEach((fy, y) => {
    const p = periods.get(fy) ?? {};
    const std = at(`${letter(2 + y)}11`)?.value;
    const cons = at(`${letter(2 + y)}12`)?.value;
    if (code !== built) expect([fy, std, cons]).toEqual([fy, "", ""]);
    else {
      expect([fy, std]).toEqual([fy, STANDARD_WORDS[lang][String(p["accounting_standard"])]]);
      // A real boolean, as the imported table's 連結 column holds it.
      expect([fy, cons]).toEqual([fy, p["is_consolidated"]]);
      expect([fy, at(`${letter(2 + y)}12`)?.text]).toEqual([
        fy,
        p["is_consolidated"] ? "TRUE" : "FALSE",
      ]);
    }
  });

  const ratios: number[] = [];
  let dashes = 0;
  let computedYears = 0;
  SUMMARY_ROWS.forEach((row, i) => {
    const r = FIRST_RESULT_ROW + i;
    expect(at(`A${r}`)?.value).toBe(row.label[lang]);
    latest.forEach((fy, y) => {
      const p = periods.get(fy) ?? {};
      const prev = y > 0 ? (periods.get(latest[y - 1] ?? "") ?? {}) : undefined;
      const cell = at(`${letter(2 + y)}${r}`);
      const where = `${row.id} ${fy}`;
      const v = (key: string, of: Json = p) => num(of[key]);
      if (row.kind === "item") {
        const exceptions = ((p["standard_exceptions"] as Json | undefined)?.["J-GAAP"] ??
          []) as string[];
        if (
          code === built &&
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
      if (row.kind === "roeSource") {
        const computed = v("roe") === null && v("roe_computed") !== null;
        if (computed) computedYears++;
        expect([where, cell?.value]).toEqual([where, computed ? row.computedWord[lang] : ""]);
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
  const notes = cells.flat().map((c) => String(c.value));
  if (dashes > 0) expect(notes.some((t) => t.startsWith(lang === "ja" ? "—：" : "—: "))).toBe(true);
  void computedYears;

  // The LTM column: a number for sales (four quarters or the year), blank for a ratio.
  const ltm = letter(12);
  const rowOf = (id: string) => FIRST_RESULT_ROW + SUMMARY_ROWS.findIndex((r) => r.id === id);
  expect(typeof at(`${ltm}${rowOf("sales")}`)?.value).toBe("number");
  expect(at(`${ltm}${rowOf("roe")}`)?.value).toBe("");

  // The latest-half column: the newest half of /financials semiannual (H1, or H2 = full year − H1).
  const halves = (
    (await api(`/financials?security_code=${code}&period=semiannual&years=3`))["periods"] as Json[]
  )
    .slice()
    .sort((a, b) =>
      `${String(a["fiscal_year"])}${a["quarter"] === "H1" ? 1 : 2}`.localeCompare(
        `${String(b["fiscal_year"])}${b["quarter"] === "H1" ? 1 : 2}`,
      ),
    );
  const newest = halves[halves.length - 1] ?? {};
  const halfYear = String(newest["fiscal_year"]);
  const isH1 = newest["quarter"] === "H1";
  const half = letter(13);
  expect(at(`${half}${HEADER_ROW}`)?.value).toBe(
    lang === "ja" ? `${halfYear}期 ${isH1 ? "上期" : "下期"}` : `${halfYear} ${isH1 ? "H1" : "H2"}`,
  );
  const firstHalf = halves.find((p) => p["fiscal_year"] === halfYear && p["quarter"] === "H1");
  const halfSales = isH1
    ? num(newest["sales"])
    : num(newest["sales"]) !== null && num(firstHalf?.["sales"]) !== null
      ? (num(newest["sales"]) ?? 0) - (num(firstHalf?.["sales"]) ?? 0)
      : null;
  expectNumber(at(`${half}${rowOf("sales")}`), halfSales ?? "", "latest half sales");
  expect(at(`${half}${rowOf("roe")}`)?.value).toBe("");

  // Headline block: current figures on the latest close over FY0 and the latest valuation.
  const point = ((await api(`/valuations?security_code=${code}&years=1`))["history"] as Json[])[0];
  const cap = num(point?.["market_cap"]);
  const price = num(point?.["stock_price_adjusted"]);
  expectNumber(at("D3"), cap !== null && price ? (close * cap) / price : "", "headline cap");
  const eps = num(fy0["eps_adjusted"]);
  const bps = num(fy0["bps_adjusted"]);
  const dps = num(fy0["dps_adjusted"]);
  if (eps !== null && eps > 0) expectNumber(at("E3"), close / eps, "headline PER");
  else expect(at("E3")?.value).toBe("NM");
  if (bps !== null && bps > 0) expectNumber(at("F3"), close / bps, "headline PBR");
  else expect(at("F3")?.value).toBe("NM");
  expectNumber(at("G3"), dps !== null ? dps / close : "", "headline yield");

  // Valuation block: VALUATION's latest 10 years, oldest first, against /valuations.
  let vh = FIRST_RESULT_ROW + SUMMARY_ROWS.length;
  while (at(`A${vh}`)?.value !== (lang === "ja" ? "決算期" : "Fiscal year")) vh++;
  const history = ((await api(`/valuations?security_code=${code}&years=10`))["history"] as Json[])
    .slice()
    .sort((a, b) => String(a["fiscal_year"]).localeCompare(String(b["fiscal_year"])));
  history.forEach((p, i) => {
    const r = vh + 1 + i;
    const where = `valuation ${String(p["fiscal_year"])}`;
    expect([where, at(`A${r}`)?.value]).toEqual([where, p["fiscal_year"]]);
    expect([where, at(`B${r}`)?.value]).toEqual([where, cellOf(p["stock_price_adjusted"])]);
    expect([where, at(`C${r}`)?.value]).toEqual([where, cellOf(p["per"])]);
    expect([where, at(`D${r}`)?.value]).toEqual([where, cellOf(p["pbr_adjusted"])]);
    expect([where, at(`F${r}`)?.value]).toEqual([where, cellOf(p["market_cap"])]);
    const per = num(p["per"]);
    if (per !== null)
      expect([where, at(`C${r}`)?.text]).toEqual([
        where,
        `${fixed(per, 1)}${lang === "ja" ? "倍" : "x"}`,
      ]);
  });

  // Chart: the split-adjusted close by date, newest first in AK:AL, every date shown as a date.
  const year = (await api(`/securities/${code}/prices?limit=300`))["prices"] as Json[];
  const data = await excel.read(sheet, "AK8:AL12");
  expect(String(data[0]?.[0]?.value)).toContain(code);
  expect(data[2]?.[1]?.value).toBe(year[0]?.["adj_close"]);
  expect(data[4]?.[1]?.value).toBe(year[2]?.["adj_close"]);
  expect(data[2]?.[0]?.text).toBe(String(year[0]?.["date"]).replace(/-/g, "/"));
  expect(data[3]?.[0]?.text).toBe(String(year[1]?.["date"]).replace(/-/g, "/"));
  const chart = info?.charts.find((c) => c.name === `${sheet}_price`);
  expect(chart?.series).toEqual([lang === "ja" ? "終値（分割調整後）" : "Close (split-adjusted)"]);
  // Its title is the chart data's heading: the company in B2.
  expect(chart?.title).toBe(String(data[0]?.[0]?.value));

  // Sources at the foot: 出典, then the datasets' lines, prices among them, below everything else.
  const sources = cells.findIndex((r) => r[0]?.value === (lang === "ja" ? "出典" : "Sources"));
  expect(sources).toBeGreaterThan(vh + 10);
  const lines = cells.slice(sources + 1, sources + 5).map((r) => [r[0]?.value, r[1]?.formula]);
  expect(lines.map((l) => l[1])).toEqual(
    ["financials", "valuations", "prices", "company"].map((d) => `=KAISHA.ATTRIBUTION("${d}")`),
  );
  for (const r of cells.slice(sources + 1, sources + 5)) expect(String(r[1]?.value)).not.toBe("");
}

/** The comps sheet's multiple columns: one rule, NM unless the divisor is above 0. */
const MULTIPLES = ["per", "pbr_adjusted", "per_now", "pbr_now", "ev_ebitda"] as const;

/**
 * Checks every cell of a comps sheet against /peers, /valuations, /financials and /prices: figures,
 * NM, EV/EBITDA by its definition, flags, and the peer statistics against medians computed here.
 * Returns the number of NM cells among the peers.
 */
async function checkCompsSheet(
  excel: ReturnType<typeof standIn>,
  code: string,
  lang: Lang,
): Promise<number> {
  const sheet = `Kaisha_peers_${code}`;
  const cells = await excel.read(sheet, "A1:AD50");
  expect(broken(cells)).toEqual([]);
  expectLabelsOnly(cells);
  const col: Record<string, number> = {};
  COMPS_COLUMNS.forEach((c, i) => (col[c.id] = 3 + i));
  const cell = (r: number, id: string) => cells[r - 1]?.[col[id] ?? -1];
  const apiPeers = ((await api(`/peers?security_code=${code}&limit=20`))["peers"] as Json[]).slice(
    0,
    10,
  );
  const codes = [code, ...apiPeers.map((p) => String(p["security_code"]))];
  expect(cells[7]?.[0]?.value).toBe(lang === "ja" ? "証券コード" : "Security code");
  /** The meaningful values of each statistics column among the peers (the subject excluded). */
  const values: Record<string, number[]> = {};
  const add = (id: string, v: number | "NM" | "") => {
    if (typeof v === "number") (values[id] ??= []).push(v);
  };
  let nm = 0;
  let subjectYear = "";
  for (const [i, c] of codes.entries()) {
    const r = 9 + i;
    const where = `row ${r} ${c}`;
    expect([where, cells[r - 1]?.[0]?.value]).toEqual([where, c]);
    const peer = i > 0 ? apiPeers[i - 1] : undefined;
    if (peer) {
      expect([where, cells[r - 1]?.[1]?.value]).toEqual([where, peer["name"]]);
      const industry = String(peer["industry"]);
      if (lang === "ja") expect([where, cells[r - 1]?.[2]?.value]).toEqual([where, industry]);
      else expect(cells[r - 1]?.[2]?.value).not.toMatch(/[ぁ-んァ-ヶ一-龯]/);
    }
    const point =
      ((await api(`/valuations?security_code=${c}&years=1`))["history"] as Json[])[0] ?? {};
    const fy = String(point["fiscal_year"]);
    if (i === 0) subjectYear = fy;
    expect([where, cell(r, "fiscal_year")?.value]).toEqual([where, fy]);
    for (const key of ["stock_price_adjusted", "market_cap"])
      expect([where, key, cell(r, key)?.value]).toEqual([where, key, cellOf(point[key])]);
    // openapi.json ValuationHistoryPoint.dividend_yield_adjusted: percent, a fraction on the sheet.
    const yieldYe = num(point["dividend_yield_adjusted"]);
    expectNumber(cell(r, "dividend_yield_adjusted"), yieldYe === null ? "" : yieldYe / 100, where);
    const fin = await api(`/financials?security_code=${c}&period=annual&years=30`);
    const p =
      (fin["periods"] as Json[]).find((x) => x["quarter"] == null && x["fiscal_year"] === fy) ?? {};
    for (const key of [
      "sales",
      "operating_profit",
      "net_income",
      "ebitda",
      "interest_bearing_debt",
      "cash_and_equivalents",
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
    const cap = num(point["market_cap"]);
    const price = num(point["stock_price_adjusted"]);
    const debt = num(p["interest_bearing_debt"]);
    const cash = num(p["cash_and_equivalents"]);
    const ebitda = num(p["ebitda"]);
    // The definitions the sheet states, from the API's own figures.
    const capNow = close !== null && cap !== null && price ? (close * cap) / price : "";
    const ev = capNow !== "" && debt !== null && cash !== null ? capNow + debt - cash : "";
    const multiple = (value: number | null | "", divisor: number | null) =>
      value !== null && value !== "" && divisor !== null && divisor > 0 ? value : "NM";
    const expected: Record<string, number | "NM" | ""> = {
      per: multiple(num(point["per"]), eps),
      pbr_adjusted: multiple(num(point["pbr_adjusted"]), bps),
      per_now: multiple(close !== null && eps ? close / eps : null, eps),
      pbr_now: multiple(close !== null && bps ? close / bps : null, bps),
      ev_ebitda: multiple(ev !== "" && ebitda ? ev / ebitda : null, ebitda),
      market_cap_now: capNow,
      ev,
      yield_now: close !== null && dps !== null && close > 0 ? dps / close : "",
      operating_margin: op !== null && sales ? op / sales : "",
    };
    for (const [id, v] of Object.entries(expected)) {
      if (v === "NM") {
        expect([where, id, cell(r, id)?.value]).toEqual([where, id, "NM"]);
        if (i > 0) nm++;
      } else expectNumber(cell(r, id), v, `${where} ${id}`);
    }
    if (i > 0) {
      for (const id of [...MULTIPLES, "market_cap_now", "yield_now", "operating_margin"])
        add(id, expected[id] ?? "");
      add("dividend_yield_adjusted", yieldYe === null ? "" : yieldYe / 100);
      add("market_cap", cellOf(point["market_cap"]) as number | "");
    }
    // Flags: another fiscal year end (by formula), a capital tie (as /peers says).
    const flag = cell(r, "fiscal_year_flag")?.value;
    if (i === 0 || fy === subjectYear) expect([where, flag]).toEqual([where, ""]);
    else if (fy.slice(-2) !== subjectYear.slice(-2))
      expect([where, flag]).toEqual([
        where,
        lang === "ja"
          ? `決算月が異なる（${fy.slice(-2)}月）`
          : `Other year-end month (${fy.slice(-2)})`,
      ]);
    else expect(String(flag)).toContain(fy);
    const holder = ((peer?.["parent_companies"] ?? []) as Json[]).find(
      (x) => x["security_code"] === code,
    );
    const tie = cell(r, "relation")?.value;
    if (!holder) expect([where, tie]).toEqual([where, ""]);
    else
      expect([where, String(tie)]).toEqual([
        where,
        expect.stringContaining(String(holder["voting_rights_ratio"])),
      ]);
  }
  // Spare rows: empty until a code is typed; then the summary over the peers (not the subject).
  for (let s = 0; s < SPARE_ROWS; s++) {
    const r = 9 + codes.length + s;
    expect(
      cells[r - 1]
        ?.slice(0, 30)
        .map((x) => x.value)
        .filter((v) => v !== ""),
    ).toEqual([]);
  }
  const medianRow = 9 + codes.length + SPARE_ROWS;
  expect(cells[medianRow - 1]?.[1]?.value).toBe(
    lang === "ja" ? "同業中央値（対象除く）" : "Peer median (excl. subject)",
  );
  expect(cells[medianRow]?.[1]?.value).toBe(
    lang === "ja" ? "同業平均（対象除く）" : "Peer mean (excl. subject)",
  );
  for (const [id, xs] of Object.entries(values)) {
    expectNumber(cell(medianRow, id), median(xs), `median ${id}`);
    expectNumber(cell(medianRow + 1, id), xs.reduce((a, b) => a + b, 0) / xs.length, `mean ${id}`);
    expect([id, cell(medianRow + 2, id)?.value]).toEqual([id, xs.length]);
  }
  const perMedian = median(values["per_now"] ?? []);
  expect(cell(medianRow, "per_now")?.text).toBe(
    `${fixed(perMedian, 1)}${lang === "ja" ? "倍" : "x"}`,
  );
  // Sources at the foot: 出典 and each dataset's line, prices included.
  const sources = cells.findIndex((r) => r[0]?.value === (lang === "ja" ? "出典" : "Sources"));
  expect(sources).toBe(medianRow + 3);
  expect(cells.slice(sources + 1, sources + 6).map((r) => r[1]?.formula)).toEqual(
    ["peers", "financials", "valuations", "prices", "company"].map(
      (d) => `=KAISHA.ATTRIBUTION("${d}")`,
    ),
  );
  const texts = cells.flat().map((c) => String(c.value));
  expect(texts.some((t) => t.includes("EV ="))).toBe(true);
  return nm;
}

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
});

describe.each([
  ["ja", "7203", "7203"],
  ["en", "7011", "6758"],
] as const)("analyst sheets in %s (company %s, comps %s)", (lang, code, comps) => {
  let page: Page;
  let excel: ReturnType<typeof standIn>;

  beforeAll(async () => {
    ({ page, excel } = await openPane(lang));
  });

  test("company sheet: every cell against the API (relative years, facts rows, ROE rule and basis, —, derived rows, LTM, headline, chart, sources)", async () => {
    await build(page, code, "company-sheet-build");
    await excel.idle();
    await checkCompanySheet(excel, `Kaisha_${code}`, code, code, lang);
    const cells = await excel.read(`Kaisha_${code}`, "A1:N45");
    await screenshotCells(h, cells, `analyst-sheets-${lang}-company-${code}`);
  });

  // The one percent scale: FINANCIAL/VALUATION give percentages as fractions (ROE 0.077), which
  // the sheets' "0.0%" formats show as 7.7%.
  test("percent rows hold fractions shown with % (ROE, year-end dividend yield)", async () => {
    const sheet = `Kaisha_${code}`;
    const fin = await api(`/financials?security_code=${code}&period=annual&years=30`);
    const periods = (fin["periods"] as Json[]).filter((p) => p["quarter"] == null);
    const roeRow = FIRST_RESULT_ROW + SUMMARY_ROWS.findIndex((r) => r.id === "roe");
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

  // The sheet is a model of whichever company B2 holds: a December year-end company's ten years,
  // its figures, chart and sources; the build-time facts go blank rather than stay another's.
  test("company sheet: B2 changed to a December year-end company — headers, every cell and the chart follow", async () => {
    const sheet = `Kaisha_${code}`;
    await excel.enter(sheet, "B2", "2502");
    await excel.idle();
    await checkCompanySheet(excel, sheet, "2502", code, lang);
    const years = (await excel.read(sheet, "C10:L10"))[0]?.map((c) => String(c.value)) ?? [];
    expect(years.every((y) => /\/12(期)?$/.test(y))).toBe(true);
  });

  test("comps sheet: subject, peers, NM, EV/EBITDA, flags, peer statistics against the API", async () => {
    await build(page, comps, "company-peers-build");
    await excel.idle();
    const nm = await checkCompsSheet(excel, comps, lang);
    // 6758's peer 6501 has a loss year (EPS below 0): its PERs are NM, outside the statistics.
    if (comps === "6758") expect(nm).toBeGreaterThan(0);
    const cells = await excel.read(`Kaisha_peers_${comps}`, "A1:AD30");
    await screenshotCells(h, cells, `analyst-sheets-${lang}-comps-${comps}`);
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
    await excel.enter(sheet, "N10", "2026/03予");
    await excel.enter(sheet, "N13", "15000000000000");
    await excel.enter(sheet, "J4", "メモ：来期は増配見込み");
    await excel.enter(sheet, "N14", "=N13/L13-1");
    await excel.idle();
    const text = await build(page, "6758", "company-sheet-build");
    expect(text).toContain("追加したセルはそのまま");
    await excel.idle();
    const kept = await excel.read(sheet, "N13:N14");
    expect((await excel.read(sheet, "N10"))[0]?.[0]?.value).toBe("2026/03予");
    expect(kept[0]?.[0]?.value).toBe(15000000000000);
    expect(kept[1]?.[0]?.formula).toBe("=N13/L13-1");
    expect(typeof kept[1]?.[0]?.value).toBe("number");
    expect((await excel.read(sheet, "J4"))[0]?.[0]?.value).toBe("メモ：来期は増配見込み");
    // The template is whole again, still calculating.
    expect((await excel.read(sheet, "L13"))[0]?.[0]?.formula).toMatch(/KAISHA\.FINANCIAL\(/);
    expect(broken(await excel.read(sheet, "A1:N45"))).toEqual([]);
    expect((await excel.sheets()).find((s) => s.name === sheet)?.charts).toHaveLength(1);
  });

  test("comps: a code typed in a spare row brings its name and figures; a rebuild after added rows leaves no stale cell", async () => {
    await build(page, "6758", "company-peers-build");
    await excel.idle();
    const sheet = "Kaisha_peers_6758";
    expect(await checkCompsSheet(excel, "6758", "ja")).toBeGreaterThan(0);
    // README's picture of a comps sheet with NM (6501's loss year).
    await screenshotCells(h, await excel.read(sheet, "A1:N22"), "analyst-sheets-ja-comps-6758");
    const cells = await excel.read(sheet, "A9:A30");
    const spare = cells.findIndex((r) => r[0]?.value === "") + 9;
    const per = letter(COMPS_COLUMNS.findIndex((c) => c.id === "per_now") + 3);
    const medianBefore = (await excel.read(sheet, `${per}${spare + SPARE_ROWS}`))[0]?.[0]?.value;
    await excel.enter(sheet, `A${spare}`, "7203");
    await excel.enter(sheet, `A${spare + 1}`, "7011");
    await excel.idle();
    const row = (await excel.read(sheet, `A${spare}:AD${spare}`))[0] ?? [];
    // COMPANY's card names it (openapi.json Organization.name_ja).
    const edinet = (await api("/financials?security_code=7203&period=annual&years=30"))[
      "edinet_code"
    ];
    expect(row[1]?.value).toBe((await api(`/organizations/${String(edinet)}`))["name_ja"]);
    expect(row[3]?.value).toMatch(/^\d{4}\/\d{2}$/);
    const at = (id: string) => row[COMPS_COLUMNS.findIndex((c) => c.id === id) + 3]?.value;
    expect(typeof at("sales")).toBe("number");
    expect(typeof at("per_now")).toBe("number");
    expect(typeof at("ev_ebitda")).toBe("number");
    const medianAfter = (await excel.read(sheet, `${per}${spare + SPARE_ROWS}`))[0]?.[0]?.value;
    expect(typeof medianAfter).toBe("number");
    expect(medianAfter).not.toBe(medianBefore);
    // The analyst names one row themselves and writes a note below the sources.
    await excel.enter(sheet, `B${spare + 1}`, "自分で追加");
    await excel.enter(sheet, "F45", "メモ");
    const text = await build(page, "6758", "company-peers-build");
    expect(text).toContain("追加したセルはそのまま");
    await excel.idle();
    const after = await excel.read(sheet, "A1:AD60");
    expect(after[spare - 1]?.[0]?.value).toBe("7203");
    expect(after[spare]?.[1]?.value).toBe("自分で追加");
    expect(broken(after)).toEqual([]);

    // Every cell against a fresh build of the same rows (the plan the pane builds) plus the
    // analyst's own cells: nothing of the previous build is left (no second 出典, no stale median).
    const listBody = await api("/peers?security_code=6758&limit=20");
    const subject = ((await api("/securities?q=6758&limit=20"))["securities"] as Json[]).find(
      (x) => x["code"] === "6758",
    );
    const list: PeerList = {
      subject: {
        code: "6758",
        name: String(subject?.["name"]),
        industry: String(subject?.["industry"]),
      },
      peers: (listBody["peers"] as Json[]).slice(0, 10).map((p) => {
        const relation = peerRelation(p as never, "6758");
        return {
          code: String(p["security_code"]),
          name: String(p["name"]),
          industry: String(p["industry"]),
          ...(relation ? { relation } : {}),
        };
      }),
      sourceLabel: "",
    };
    const { plan } = peerSheetLayout(list, "ja", new Date(), ["7203", "7011"]);
    const expected = new Map<string, string>();
    for (const c of plan.cells) {
      if (c.address.includes(":")) continue;
      const content = c.formula ?? (c.value === undefined ? "" : String(c.value));
      if (content !== "") expected.set(c.address, content);
    }
    expected.set(`B${spare + 1}`, "自分で追加");
    expected.set("F45", "メモ");
    const stale: string[] = [];
    after.forEach((r, ri) =>
      r.forEach((c, ci) => {
        const address = `${letter(ci)}${ri + 1}`;
        const want = expected.get(address);
        const have = c.formula ?? (c.value === "" ? "" : String(c.value));
        if (address === "B4") return; // the build's time stamp
        if (want === undefined) {
          // Only a spill of a source line (ATTRIBUTION's licence note) may fill a cell the plan leaves.
          const spilled =
            c.formula === undefined && ci === 2 && /ATTRIBUTION/.test(String(r[1]?.formula));
          if (have !== "" && !spilled) stale.push(`${address}: ${have}`);
        } else if (have !== want) stale.push(`${address}: ${have} (expected ${want})`);
      }),
    );
    expect(stale).toEqual([]);
  });

  test("the pages raised no errors", () => {
    expect(h.problems.filter((p) => p.startsWith("pageerror"))).toEqual([]);
  });
});
