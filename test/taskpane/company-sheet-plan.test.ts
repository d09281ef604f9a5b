// The company and comps sheet templates: which cells are formulas the add-in built and which are
// text, read against the sandbox's answers; a rebuild writes only the template's cells.

jest.mock("office-addin-manifest", () => ({ OfficeApp: { Excel: "excel", Outlook: "outlook" } }));

import fs from "node:fs";
import path from "node:path";
import { installFakeExcel, uninstallFakeExcel } from "./fake-excel";
import { sandboxClient } from "./sandbox-client";
import { buildCompanySheet } from "../../taskpane/excel/company-sheet";
import {
  companyFiscalYears,
  companySheetLayout,
  JGAAP_ONLY_ITEMS,
  SUMMARY_ROWS,
} from "../../taskpane/state/company-sheet-plan";
import {
  codesOnSheet,
  companyPeers,
  industryName,
  peerSheetLayout,
} from "../../taskpane/state/peer-sheet-plan";
import { FIELD_DICTIONARY } from "../../src/contract";
import type { SheetCell } from "../../taskpane/excel/company-sheet";

afterEach(uninstallFakeExcel);

const NOW = new Date("2026-11-24T03:00:00Z");
const at = (cells: SheetCell[], address: string) => cells.find((c) => c.address === address);

/** Every API key of the datasets the sheets show: none may be a cell's visible text. */
const API_KEYS = new Set(
  [...FIELD_DICTIONARY.financials, ...FIELD_DICTIONARY.valuations].map((f) => f.key),
);

test("JGAAP_ONLY_ITEMS are exactly the items openapi.json marks J-GAAP only", () => {
  const doc = JSON.parse(
    fs.readFileSync(path.join(__dirname, "../../src/contract/openapi.json"), "utf8"),
  ) as { components: { schemas: Record<string, { properties: Record<string, unknown> }> } };
  const props = doc.components.schemas["FinancialsPeriod"]?.properties ?? {};
  const marked = Object.entries(props)
    .filter(([, v]) => JSON.stringify(v).includes("J-GAAP only"))
    .map(([k]) => k);
  expect([...JGAAP_ONLY_ITEMS].sort()).toEqual(marked.sort());
});

test("company sheet: one /financials request gives the years and each year's accounting standard", async () => {
  const { client, requests } = sandboxClient();
  const years = await companyFiscalYears(client, "2502", 12);
  expect(years).toHaveLength(12);
  expect(years.map((y) => y.fiscalYear)).toEqual([...years.map((y) => y.fiscalYear)].sort());
  // 2502 moved from J-GAAP to IFRS (sandbox): both standards appear.
  expect(new Set(years.map((y) => y.standard))).toEqual(new Set(["J-GAAP", "IFRS"]));
  expect(requests()).toHaveLength(1);
});

test("company sheet: 経常利益 is a FINANCIAL cell in J-GAAP years and a right-aligned — with a note in IFRS years", async () => {
  const { client } = sandboxClient();
  const years = await companyFiscalYears(client, "2502", 12);
  const { plan, rows } = companySheetLayout("2502", years, "ja", NOW);
  const row = rows.rows["ordinary_income"];
  years.forEach((y, i) => {
    const cell = at(plan.cells, `${String.fromCharCode(67 + i)}${row}`);
    if (y.standard === "J-GAAP") expect(cell?.formula).toMatch(/"ordinary_income"/);
    else expect(cell).toMatchObject({ value: "—", alignRight: true });
  });
  expect(plan.cells.some((c) => String(c.value).startsWith("—：その期の会計基準にない項目"))).toBe(
    true,
  );
});

test("company sheet: per-share rows read the split-adjusted fields; ROE is roe ?? roe_computed; money keeps yen", () => {
  const years = ["2023/03", "2024/03"].map((fiscalYear) => ({
    fiscalYear,
    standard: "IFRS",
    jgaapExceptions: [],
  }));
  const { plan, rows } = companySheetLayout("7203", years, "en", NOW);
  const r = rows.rows;
  expect(at(plan.cells, `D${r["eps_adjusted"]}`)?.formula).toBe(
    '=KAISHA.FINANCIAL($B$2,"eps_adjusted",D$10,"annual")',
  );
  expect(at(plan.cells, `C${r["dps_adjusted"]}`)?.formula).toContain('"dps_adjusted"');
  expect(at(plan.cells, `C${r["bps_adjusted"]}`)?.formula).toContain('"bps_adjusted"');
  expect(at(plan.cells, `C${r["roe"]}`)?.formula).toBe(
    '=IF(ISNUMBER(KAISHA.FINANCIAL($B$2,"roe",C$10,"annual")),KAISHA.FINANCIAL($B$2,"roe",C$10,"annual"),KAISHA.FINANCIAL($B$2,"roe_computed",C$10,"annual"))',
  );
  // Money: exact yen in the cell, millions by the number format.
  expect(at(plan.cells, `C${r["sales"]}`)).toMatchObject({
    formula: '=KAISHA.FINANCIAL($B$2,"sales",C$10,"annual")',
    numberFormat: "#,##0,,",
  });
  // English column headers are plain YYYY/MM; the oldest year has no growth cell.
  expect(at(plan.cells, "C10")?.value).toBe("2023/03");
  expect(at(plan.cells, `C${r["sales_growth"]}`)).toBeUndefined();
  expect(at(plan.cells, `D${r["sales_growth"]}`)?.formula).toBe(
    `=IF(AND(ISNUMBER(D${r["sales"]}),ISNUMBER(C${r["sales"]})),IF(C${r["sales"]}>0,D${r["sales"]}/C${r["sales"]}-1,""),"")`,
  );
  expect(at(plan.cells, `D${r["payout"]}`)?.numberFormat).toBe("0.0%");
  expect(() => companySheetLayout("7203", [], "en", NOW)).toThrow(RangeError);
});

test("company sheet: labels only (no API key is a cell's text), in the sheet's language", () => {
  const years = [{ fiscalYear: "2024/03", standard: "J-GAAP", jgaapExceptions: [] }];
  for (const lang of ["ja", "en"] as const) {
    const { plan } = companySheetLayout("7203", years, lang, NOW);
    const texts = plan.cells.flatMap((c) => (typeof c.value === "string" ? [c.value] : []));
    expect(texts.filter((v) => API_KEYS.has(v))).toEqual([]);
    const labels = SUMMARY_ROWS.map((r) => r.label[lang]);
    expect(texts).toEqual(expect.arrayContaining(labels));
  }
});

test("comps sheet: subject row first, peers, spare rows, then median and mean over the peers", async () => {
  const { client } = sandboxClient();
  const list = await companyPeers(client, "7203");
  expect(list.subject.name).not.toBe("");
  expect(list.peers.length).toBeGreaterThan(0);
  const { plan, layout } = peerSheetLayout(list, "en", NOW);
  const A = (r: number) => at(plan.cells, `A${r}`);
  expect(A(layout.subjectRow)).toMatchObject({ value: "7203", numberFormat: "@", bold: true });
  list.peers.forEach((p, i) => expect(A(layout.firstPeerRow + i)?.value).toBe(p.code));
  // Spare rows: an empty code cell whose row formulas wait for a code.
  expect(A(layout.lastPeerRow)?.value).toBeUndefined();
  const per = layout.column["per_now"];
  expect(at(plan.cells, `${per}${layout.lastPeerRow}`)?.formula).toContain(`${layout.lastPeerRow}`);
  expect(at(plan.cells, `${per}${layout.medianRow}`)?.formula).toBe(
    `=IFERROR(MEDIAN(${per}${layout.firstPeerRow}:${per}${layout.lastPeerRow}),"")`,
  );
  expect(at(plan.cells, `${per}${layout.meanRow}`)?.formula).toContain("AVERAGE(");
  // Every FINANCIAL of a row reads the fiscal year its VALUATION spill shows.
  const fy = layout.column["fiscal_year"];
  const sales = at(plan.cells, `${layout.column["sales"]}${layout.subjectRow}`)?.formula;
  expect(sales).toBe(`=IF($A9="","",KAISHA.FINANCIAL($A9,"sales",$${fy}9,"annual"))`);
  // Industry names in English on an English sheet.
  const industry = at(plan.cells, `C${layout.subjectRow}`)?.value;
  expect(industry).toBe(industryName(list.subject.industry, "en"));
  expect(industry).not.toBe(list.subject.industry);
});

test("rebuilding a sheet writes only the template's cells: nothing is cleared, the chart is replaced by name", async () => {
  const fake = installFakeExcel({ sheets: [{ name: "Sheet1" }, { name: "Kaisha_7203" }] });
  const years = [{ fiscalYear: "2024/03", standard: "J-GAAP", jgaapExceptions: [] }];
  const { plan } = companySheetLayout("7203", years, "ja", NOW);
  const built = await buildCompanySheet(plan);
  expect(built).toEqual({ sheet: "Kaisha_7203", rebuilt: true });
  expect(fake.sheetsAdded).toEqual([]);
  expect(fake.log.filter((l) => l.startsWith("clear"))).toEqual([]);
  expect(fake.range("Kaisha_7203", "B2").values).toEqual([["7203"]]);
  expect(fake.charts).toHaveLength(1);
  expect(fake.charts[0]?.chart.name).toBe("Kaisha_7203_price");
  expect(fake.charts[0]?.chart.axes.categoryAxis.reversePlotOrder).toBe(true);
});

test("a rebuild with fewer years clears the old columns' template cells, never a cell the analyst changed", async () => {
  const two = ["2023/03", "2024/03"].map((fiscalYear) => ({
    fiscalYear,
    standard: "J-GAAP",
    jgaapExceptions: [],
  }));
  const before = companySheetLayout("7203", two, "ja", NOW);
  const block = before.plan.leftovers?.block ?? "";
  expect(block).toBe(`C10:AF${10 + SUMMARY_ROWS.length}`);
  // What the sheet holds: the two-year build, with the analyst's own formula in D12.
  const rows = 1 + SUMMARY_ROWS.length;
  const formulas = Array.from({ length: rows }, (_, r) =>
    Array.from({ length: 30 }, (_, c) => {
      const address = `${String.fromCharCode(67 + c)}${10 + r}`;
      if (address === "D12") return "=D11*2";
      const cell = before.plan.cells.find((x) => x.address === address);
      return cell?.formula ?? cell?.value ?? "";
    }),
  );
  const fake = installFakeExcel({
    sheets: [
      { name: "Kaisha_7203", cells: { [block]: { address: block, values: formulas, formulas } } },
    ],
  });
  const after = companySheetLayout("7203", two.slice(1), "ja", NOW);
  await buildCompanySheet(after.plan);
  const cleared = fake.log.filter((l) => l.startsWith("clear")).sort();
  expect(cleared).toContain("clear Kaisha_7203!D10 Contents"); // the old year header
  expect(cleared).toContain("clear Kaisha_7203!D11 Contents"); // its sales FINANCIAL cell
  expect(cleared).not.toContain("clear Kaisha_7203!D12 Contents"); // the analyst's formula
  expect(cleared.every((l) => /!D\d+ Contents$/.test(l))).toBe(true);
});

test("comps rebuild: codes the analyst added stay as rows after the peers; the old median row is cleared", () => {
  const list = {
    subject: { code: "7203", name: "大和自動車", industry: "輸送用機器" },
    peers: [{ code: "7267", name: "本郷技研", industry: "輸送用機器" }],
    sourceLabel: "IRBANK",
  };
  // The sheet as an earlier build left it: subject, one peer, a code the analyst typed, median.
  const kept = codesOnSheet([
    ["7203", "大和自動車"],
    ["7267", "本郷技研"],
    ["9433", ""],
    ["", ""],
    ["", "中央値"],
    ["1111", ""],
  ]);
  expect(kept).toEqual(["7267", "9433"]);
  const { plan, layout } = peerSheetLayout(list, "ja", NOW, kept);
  const A = (r: number) => plan.cells.find((c) => c.address === `A${r}`);
  expect(A(layout.firstPeerRow)?.value).toBe("7267");
  expect(A(layout.firstPeerRow + 1)?.value).toBe("9433");
  // The analyst's row: only its code is written, its name cell is theirs.
  expect(plan.cells.find((c) => c.address === `B${layout.firstPeerRow + 1}`)).toBeUndefined();
  // Spare rows format the code cell as text and never write a value over what is there.
  expect(A(layout.lastPeerRow)).toEqual({ address: `A${layout.lastPeerRow}`, numberFormat: "@" });
  const owned = plan.leftovers?.owned;
  expect(owned?.("B14", "中央値")).toBe(true);
  expect(owned?.("R14", '=IFERROR(MEDIAN(R10:R13),"")')).toBe(true);
  expect(owned?.("B14", "my note")).toBe(false);
  expect(owned?.("R14", "=R12*2")).toBe(false);
});
