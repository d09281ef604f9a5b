// The company and comps sheet templates: which cells are formulas the add-in built and which are
// text, read against the sandbox's answers; a rebuild writes only the template's cells.

jest.mock("office-addin-manifest", () => ({ OfficeApp: { Excel: "excel", Outlook: "outlook" } }));

import fs from "node:fs";
import path from "node:path";
import { block as cellBlock, closeWorkbook, openWorkbook } from "./standin-workbook";
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
  peerRelation,
  peerSheetLayout,
} from "../../taskpane/state/peer-sheet-plan";
import { FIELD_DICTIONARY } from "../../src/contract";
import type { SheetCell } from "../../taskpane/excel/company-sheet";
import { AddinFormula } from "../../taskpane/excel/addin-formula";
import { DISPLAY_FORMATS } from "../../src/excel/display-formats";
import { numberFormatFor } from "../../src/excel/number-formats";
import { labelJa } from "../../src/excel/labels";

afterEach(closeWorkbook);

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

test("company sheet: 経常利益 is a FINANCIAL cell in J-GAAP years and — where the facts row names another standard, with a note", async () => {
  const { client } = sandboxClient();
  const years = await companyFiscalYears(client, "2502", 12);
  const { plan, rows } = companySheetLayout("2502", years, "ja", NOW);
  const row = rows.rows["ordinary_income"];
  const std = rows.rows["standard"];
  years.forEach((y, i) => {
    const c = String.fromCharCode(67 + i);
    const cell = at(plan.cells, `${c}${row}`);
    const fin = `KAISHA.FINANCIAL($B$2,"ordinary_income",${c}$10,"annual")`;
    if (y.standard === "J-GAAP") expect(cell?.formula).toBe(`=IF(${c}$10="","",${fin})`);
    else
      expect(cell).toMatchObject({
        formula: `=IF(OR(${c}$${std}="",${c}$${std}="日本基準"),IF(${c}$10="","",${fin}),"—")`,
        alignRight: true,
      });
    // The facts row: the year's standard while B2 and the header are still that company and year.
    const word = y.standard === "J-GAAP" ? "日本基準" : y.standard;
    expect(at(plan.cells, `${c}${std}`)?.formula).toBe(
      `=IF(AND($B$2="2502",${c}$10="${y.fiscalYear}期"),"${word}","")`,
    );
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
    '=IF(D$10="","",KAISHA.FINANCIAL($B$2,"eps_adjusted",D$10,"annual"))',
  );
  expect(at(plan.cells, `C${r["dps_adjusted"]}`)?.formula).toContain('"dps_adjusted"');
  expect(at(plan.cells, `C${r["bps_adjusted"]}`)?.formula).toContain('"bps_adjusted"');
  expect(at(plan.cells, `C${r["roe"]}`)?.formula).toBe(
    '=IF(C$10="","",IF(ISNUMBER(KAISHA.FINANCIAL($B$2,"roe",C$10,"annual")),KAISHA.FINANCIAL($B$2,"roe",C$10,"annual"),KAISHA.FINANCIAL($B$2,"roe_computed",C$10,"annual")))',
  );
  // The fallback is said where it applies.
  expect(at(plan.cells, `C${r["roe_source"]}`)?.formula).toBe(
    '=IF(C$10="","",IF(AND(NOT(ISNUMBER(KAISHA.FINANCIAL($B$2,"roe",C$10,"annual"))),ISNUMBER(KAISHA.FINANCIAL($B$2,"roe_computed",C$10,"annual"))),"computed",""))',
  );
  // Money: exact yen in the cell, millions by the number format.
  expect(at(plan.cells, `C${r["sales"]}`)).toMatchObject({
    formula: '=IF(C$10="","",KAISHA.FINANCIAL($B$2,"sales",C$10,"annual"))',
    numberFormat: "#,##0,,",
  });
  // Headers follow B2: FY-1 and FY0 of whichever company it holds (plain YYYY/MM in English).
  expect(at(plan.cells, "C10")?.formula).toBe(
    '=IFERROR(INDEX(KAISHA.FINANCIALS($B$2,"sales","annual",2,,,"periods_down",0,"desc"),2,1),"")',
  );
  expect(at(plan.cells, "D10")?.formula).toBe(
    '=IFERROR(INDEX(KAISHA.FINANCIALS($B$2,"sales","annual",2,,,"periods_down",0,"desc"),1,1),"")',
  );
  // The LTM column right of the newest year: flows and stocks by LTM, nothing for a ratio.
  expect(at(plan.cells, "E10")?.value).toBe("LTM");
  expect(at(plan.cells, `E${r["sales"]}`)?.formula).toBe(
    '=IFNA(KAISHA.FINANCIAL($B$2,"sales","LTM"),"")',
  );
  expect(at(plan.cells, `E${r["roe"]}`)).toBeUndefined();
  expect(at(plan.cells, `E${r["sales_growth"]}`)).toBeUndefined();
  expect(at(plan.cells, `E${r["operating_margin"]}`)?.formula).toContain(`E${r["sales"]}`);
  // The oldest year has no growth cell.
  expect(at(plan.cells, `C${r["sales_growth"]}`)).toBeUndefined();
  expect(at(plan.cells, `D${r["sales_growth"]}`)?.formula).toBe(
    `=IF(AND(ISNUMBER(D${r["sales"]}),ISNUMBER(C${r["sales"]})),IF(C${r["sales"]}>0,D${r["sales"]}/C${r["sales"]}-1,""),"")`,
  );
  expect(at(plan.cells, `D${r["payout"]}`)?.numberFormat).toBe("0.0%");
  expect(() => companySheetLayout("7203", [], "en", NOW)).toThrow(RangeError);
});

test("company sheet: a headline block of current figures, NM by the divisor; chart data dated; sources at the foot", () => {
  const years = ["2023/03", "2024/03"].map((fiscalYear) => ({
    fiscalYear,
    standard: "IFRS",
    consolidated: true,
    jgaapExceptions: [],
  }));
  const { plan, rows } = companySheetLayout("7203", years, "ja", NOW);
  expect(["D2", "E2", "F2", "G2"].map((a) => at(plan.cells, a)?.value)).toEqual([
    "時価総額（現在、百万円）",
    "PER（現在株価）",
    "PBR（現在株価）",
    "配当利回り（現在株価）",
  ]);
  const eps = 'KAISHA.FINANCIAL($B$2,"eps_adjusted","FY0","annual")';
  expect(at(plan.cells, "E3")?.formula).toBe(
    `=IF(AND(ISNUMBER($B$4),ISNUMBER(${eps})),IF(${eps}>0,$B$4/${eps},"NM"),"NM")`,
  );
  expect(at(plan.cells, "E3")?.numberFormat).toBe('0.0"倍"');
  // The anchor of the PRICES spill keeps the date format (a General anchor showed a serial).
  expect(at(plan.cells, "AK10")).toMatchObject({ numberFormat: "yyyy/mm/dd" });
  expect(at(plan.cells, "AK8")?.formula).toBe('=$B$2&" の株価（チャート用、直近1年）"');
  // The title shows that heading (a formula): it names whichever company B2 holds.
  expect(plan.chart?.title).not.toContain("7203");
  expect(plan.chart?.titleFormula).toBe("=Kaisha_7203!$AK$8");
  // 出典 at the foot, below the chart, with prices among the sources.
  expect(at(plan.cells, `A${rows.sourcesRow}`)?.value).toBe("出典");
  const foot = plan.cells.filter((c) => parseInt(c.address.slice(1), 10) > rows.sourcesRow);
  expect(foot.map((c) => c.formula ?? c.value)).toEqual([
    "財務",
    '=KAISHA.ATTRIBUTION("financials")',
    "バリュエーション",
    '=KAISHA.ATTRIBUTION("valuations")',
    "株価",
    '=KAISHA.ATTRIBUTION("prices")',
    "企業情報",
    '=KAISHA.ATTRIBUTION("company")',
  ]);
  const chartBottom = Number(/\d+$/.exec(plan.chart?.to ?? "")?.[0]);
  expect(rows.sourcesRow).toBeGreaterThan(chartBottom);
  expect(at(plan.cells, `C${rows.rows["consolidated"]}`)?.formula).toBe(
    '=IF(AND($B$2="7203",C$10="2023/03期"),TRUE,"")',
  );
});

test("every formula of both sheets is one the builders may write (AddinFormula.sheet)", async () => {
  const { client } = sandboxClient();
  const years = await companyFiscalYears(client, "7203", 10);
  const list = await companyPeers(client, "7203");
  for (const lang of ["ja", "en"] as const) {
    const plans = [
      companySheetLayout("7203", years, lang, NOW).plan,
      peerSheetLayout(list, lang, NOW, ["9999"]).plan,
    ];
    for (const plan of plans)
      for (const c of plan.cells)
        if (c.formula !== undefined)
          expect(() => AddinFormula.sheet(c.formula ?? "")).not.toThrow();
  }
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
  const fake = await openWorkbook({ sheets: [{ name: "Sheet1" }, { name: "Kaisha_7203" }] });
  const years = [{ fiscalYear: "2024/03", standard: "J-GAAP", jgaapExceptions: [] }];
  const { plan } = companySheetLayout("7203", years, "ja", NOW);
  const built = await buildCompanySheet(plan);
  expect(built).toEqual({ sheet: "Kaisha_7203", rebuilt: true });
  // Only the hidden record of what the build wrote is added.
  expect(fake.sheetNames()).toEqual(["Sheet1", "Kaisha_7203", "KaishaSheetBuilds"]);
  expect(fake.log.filter((l) => l.startsWith("clear Kaisha_7203"))).toEqual([]);
  expect(fake.values("Kaisha_7203", "B2")).toEqual([["7203"]]);
  const charts = fake.charts("Kaisha_7203");
  expect(charts).toHaveLength(1);
  expect(charts[0]?.name).toBe("Kaisha_7203_price");
  expect(charts[0]?.reversed).toBe(true);
  expect(charts[0]?.titleFormula).toBe("Kaisha_7203!$AK$8");
});

test("a sheet built before builds were recorded: the old columns' template cells are cleared, never a cell the analyst changed", async () => {
  const four = ["2021/03", "2022/03", "2023/03", "2024/03"];
  const block = `C10:AG${12 + SUMMARY_ROWS.length}`;
  const after = companySheetLayout(
    "7203",
    [{ fiscalYear: "2024/03", standard: "J-GAAP", jgaapExceptions: [] }],
    "ja",
    NOW,
  );
  expect(after.plan.leftovers?.block).toBe(block);
  // What an earlier template left: fixed year headers and FINANCIAL cells in C:F, the analyst's
  // own formula in F12 (this build's own columns end at E: its year, LTM, the latest half).
  const formulas = Array.from({ length: 3 + SUMMARY_ROWS.length }, (_, r) =>
    Array.from({ length: 31 }, (_, c) => {
      if (c > 3) return "";
      const col = "CDEF"[c];
      if (r === 0) return `${four[c]}期`;
      if (r === 2 && col === "F") return "=F11*2";
      return `=KAISHA.FINANCIAL($B$2,"sales",${col}$10,"annual")`;
    }),
  );
  const fake = await openWorkbook({
    sheets: [{ name: "Kaisha_7203", cells: cellBlock("C10", formulas, formulas) }],
  });
  await buildCompanySheet(after.plan);
  const cleared = fake.log.filter((l) => l.startsWith("clear Kaisha_7203")).sort();
  expect(cleared).toContain("clear Kaisha_7203!F10 Contents"); // an old year header
  expect(cleared).toContain("clear Kaisha_7203!F11 Contents"); // its FINANCIAL cell
  expect(cleared).not.toContain("clear Kaisha_7203!F12 Contents"); // the analyst's formula
  // Only template-shaped cells go: nothing outside the earlier build's C:F.
  expect(cleared.filter((l) => !/![C-F]\d+ Contents$/.test(l))).toEqual([]);
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
  // The analyst's row: its code, and a name formula that never replaces a name they typed.
  expect(plan.cells.find((c) => c.address === `B${layout.firstPeerRow + 1}`)).toEqual({
    address: `B${layout.firstPeerRow + 1}`,
    formula: `=IF($A11="","",IFERROR(INDEX(KAISHA.COMPANY($A11),2,1),KAISHA.COMPANY($A11)))`,
    keepEdits: true,
  });
  // Spare rows format the code cell as text and never write a value over what is there.
  expect(A(layout.lastPeerRow)).toEqual({ address: `A${layout.lastPeerRow}`, numberFormat: "@" });
  const owned = plan.leftovers?.owned;
  expect(owned?.("B14", "中央値")).toBe(true);
  expect(owned?.("A17", "出典: IRBANK")).toBe(true);
  expect(owned?.("A18", '=KAISHA.ATTRIBUTION("financials")')).toBe(true);
  expect(owned?.("R14", '=IFERROR(MEDIAN(R10:R13),"")')).toBe(true);
  expect(owned?.("B14", "my note")).toBe(false);
  expect(owned?.("R14", "=R12*2")).toBe(false);
});

test("comps: every multiple column follows one rule (NM unless the divisor is above 0), and the statistics skip NM", async () => {
  const { client } = sandboxClient();
  const list = await companyPeers(client, "6758");
  const { plan, layout } = peerSheetLayout(list, "ja", NOW);
  const c = layout.column;
  const r = layout.firstPeerRow;
  const f = (id: string) => at(plan.cells, `${c[id]}${r}`);
  const v = (i: number) =>
    `INDEX(KAISHA.VALUATION($A${r},"stock_price_adjusted,per,pbr_adjusted,dividend_yield_adjusted,market_cap",1,0),1,${i})`;
  const nm = (value: string, inputs: string[], divisor: string) =>
    `=IF($A${r}="","",IF(AND(${[...inputs, divisor].map((x) => `ISNUMBER(${x})`).join(",")}),IF(${divisor}>0,${value},"NM"),"NM"))`;
  // Year-end PER and PBR: the API's multiple, NM when that year's EPS / BPS is not above 0.
  expect(f("per")?.formula).toBe(nm(v(3), [v(3)], `${c["eps_adjusted"]}${r}`));
  expect(f("pbr_adjusted")?.formula).toBe(nm(v(4), [v(4)], `${c["bps_adjusted"]}${r}`));
  const cell = (id: string) => `${c[id]}${r}`;
  expect(f("per_now")?.formula).toBe(
    nm(`${cell("close")}/${cell("eps_adjusted")}`, [cell("close")], cell("eps_adjusted")),
  );
  expect(f("pbr_now")?.formula).toBe(
    nm(`${cell("close")}/${cell("bps_adjusted")}`, [cell("close")], cell("bps_adjusted")),
  );
  expect(f("ev_ebitda")?.formula).toBe(
    nm(`${cell("ev")}/${cell("ebitda")}`, [cell("ev")], cell("ebitda")),
  );
  for (const id of ["per", "pbr_adjusted", "per_now", "pbr_now", "ev_ebitda"])
    expect(f(id)?.alignRight).toBe(true);
  // EV from the row's current market cap, debt and cash; current market cap from the close.
  expect(f("ev")?.formula).toBe(
    `=IF(AND(ISNUMBER(${cell("market_cap_now")}),ISNUMBER(${cell("interest_bearing_debt")}),ISNUMBER(${cell("cash_and_equivalents")})),${cell("market_cap_now")}+${cell("interest_bearing_debt")}-${cell("cash_and_equivalents")},"")`,
  );
  expect(f("market_cap_now")?.formula).toBe(
    `=IF(AND(ISNUMBER(${cell("close")}),ISNUMBER(${cell("market_cap")}),ISNUMBER(${cell("stock_price_adjusted")})),IF(${cell("stock_price_adjusted")}>0,${cell("close")}*${cell("market_cap")}/${cell("stock_price_adjusted")},""),"")`,
  );
  expect(f("ebitda")?.formula).toContain('"ebitda"');
  // The summary rows say what they cover and run over the peers' rows only.
  expect(at(plan.cells, `B${layout.medianRow}`)?.value).toBe("同業中央値（対象除く）");
  expect(at(plan.cells, `B${layout.meanRow}`)?.value).toBe("同業平均（対象除く）");
  expect(at(plan.cells, `B${layout.countRow}`)?.value).toBe("集計社数（対象除く）");
  for (const id of ["per", "pbr_adjusted", "per_now", "pbr_now", "ev_ebitda", "market_cap_now"])
    expect(at(plan.cells, `${c[id]}${layout.medianRow}`)?.formula).toBe(
      `=IFERROR(MEDIAN(${c[id]}${r}:${c[id]}${layout.lastPeerRow}),"")`,
    );
  // The definitions are on the sheet.
  const texts = plan.cells.map((x) => String(x.value ?? ""));
  expect(
    texts.some((t) => t.includes("EV = 時価総額（現在）＋ 有利子負債 － 現金及び現金同等物")),
  ).toBe(true);
  expect(texts.some((t) => t.startsWith("NM："))).toBe(true);
});

test("comps: a peer the subject holds is flagged from /peers; another fiscal year end by a formula", async () => {
  const { client } = sandboxClient();
  const list = await companyPeers(client, "7203");
  // The sandbox's 7269 discloses 7203 as an other related company with 20.0% of votes.
  expect(list.peers.find((p) => p.code === "7269")?.relation).toEqual({ kind: "related", pct: 20 });
  for (const lang of ["ja", "en"] as const) {
    const { plan, layout } = peerSheetLayout(list, lang, NOW);
    const row = layout.firstPeerRow + list.peers.findIndex((p) => p.code === "7269");
    expect(at(plan.cells, `${layout.column["relation"]}${row}`)?.value).toBe(
      lang === "ja"
        ? "対象企業の関係会社（議決権 20.0%）"
        : "Affiliate of the subject (20.0% of votes)",
    );
    const other = layout.firstPeerRow + list.peers.findIndex((p) => p.code !== "7269");
    expect(at(plan.cells, `${layout.column["relation"]}${other}`)).toBeUndefined();
    const fy = layout.column["fiscal_year"];
    const flag = at(plan.cells, `${layout.column["fiscal_year_flag"]}${row}`)?.formula ?? "";
    expect(flag).toContain(`RIGHT($${fy}${row},2)<>RIGHT($${fy}$9,2)`);
    expect(flag).toContain(lang === "ja" ? "決算月が異なる（" : "Other year-end month (");
  }
  // capital_relationship, when the API fills it, says who holds whom.
  const peer = {
    capital_relationship: {
      type: "counterparty_owns_target",
      ownership_pct: 35.5,
      parent_security_code: null,
    },
    parent_companies: [],
  };
  expect(peerRelation(peer as never, "7203")).toEqual({ kind: "parent", pct: 35.5 });
  const sub = {
    capital_relationship: null,
    parent_companies: [
      {
        name: "x",
        security_code: "6501",
        party_type: "親会社",
        voting_rights_ratio: 51.2,
        fiscal_period_end: "2026-03-31",
      },
    ],
  };
  expect(peerRelation(sub as never, "6501")).toEqual({ kind: "subsidiary", pct: 51.2 });
  expect(peerRelation(sub as never, "7203")).toBeUndefined();
});

test("comps: spare rows name a typed code by KAISHA.COMPANY; the foot lists 出典 and every dataset", async () => {
  const { client } = sandboxClient();
  const list = await companyPeers(client, "7203");
  const { plan, layout } = peerSheetLayout(list, "en", NOW);
  const r = layout.lastPeerRow;
  expect(at(plan.cells, `B${r}`)).toMatchObject({
    formula: `=IF($A${r}="","",IFERROR(INDEX(KAISHA.COMPANY($A${r}),2,1),KAISHA.COMPANY($A${r})))`,
    keepEdits: true,
  });
  expect(at(plan.cells, `A${layout.sourcesRow}`)?.value).toBe("Sources");
  const lines = [1, 2, 3, 4, 5].map((i) => at(plan.cells, `B${layout.sourcesRow + i}`)?.formula);
  expect(lines).toEqual(
    ["peers", "financials", "valuations", "prices", "company"].map(
      (d) => `=KAISHA.ATTRIBUTION("${d}")`,
    ),
  );
});

test("company sheet: a fact the contract does not list is never written; a quote in a label cannot end a formula's string", () => {
  const years = [
    { fiscalYear: '2024/03"&WEBSERVICE("x")&"', standard: "J-GAAP", jgaapExceptions: [] },
    { fiscalYear: "2025/03", standard: '=WEBSERVICE("x")', jgaapExceptions: [] },
  ];
  const { plan, rows } = companySheetLayout("7203", years, "en", NOW);
  const std = rows.rows["standard"];
  expect(at(plan.cells, `C${std}`)?.formula).toBe(
    '=IF(AND($B$2="7203",C$10="2024/03""&WEBSERVICE(""x"")&"""),"J-GAAP","")',
  );
  expect(at(plan.cells, `D${std}`)).toBeUndefined();
  for (const c of plan.cells)
    if (c.formula !== undefined) expect(() => AddinFormula.sheet(c.formula ?? "")).not.toThrow();
});

test("both sheets: a price shows as imports and function cells do (4,355 and 2,845.5, never 4,355.0), dates as DISPLAY_FORMATS", async () => {
  const { client } = sandboxClient();
  const years = await companyFiscalYears(client, "7203", 3);
  const company = companySheetLayout("7203", years, "ja", NOW).plan.cells;
  const list = await companyPeers(client, "7203");
  const { plan, layout } = peerSheetLayout(list, "ja", NOW);
  // A sheet format over a price cell would hide the function's own (numberFormatFor, the imports'
  // format: a price with its own decimals); no cell or block over a price carries one.
  const formatsOver = (cells: SheetCell[], column: string, row: number) =>
    cells
      .filter((c) => c.numberFormat !== undefined)
      .filter((c) => {
        const [from, to = from] = c.address.split(":") as [string, string?];
        const col = (a: string) => /^[A-Z]+/.exec(a)?.[0] ?? "";
        const num = (a: string) => Number(/\d+$/.exec(a)?.[0]);
        return (
          col(from) <= column &&
          column <= col(to) &&
          col(from).length === column.length &&
          num(from) <= row &&
          row <= num(to)
        );
      })
      .map((c) => c.numberFormat);
  expect(at(company, "B4")?.formula).toBe("=KAISHA.PRICE($B$2)");
  expect(formatsOver(company, "B", 4)).toEqual([]);
  const priceLabel = company.find((c) => c.value === "株価（期末、分割調整後、円）");
  const priceCol = /^[A-Z]+/.exec(priceLabel?.address ?? "")?.[0] ?? "?";
  const priceRow = Number(/\d+$/.exec(priceLabel?.address ?? "")?.[0]);
  expect(formatsOver(company, priceCol, priceRow + 1)).toEqual([]);
  for (const id of ["close", "stock_price_adjusted"]) {
    const letter = layout.column[id] ?? "?";
    expect(formatsOver(plan.cells, letter, layout.firstPeerRow)).toEqual([]);
  }
  // Dates: the add-in's one table.
  expect(at(company, "B5")?.numberFormat).toBe(DISPLAY_FORMATS.date);
  expect(at(company, "B6")?.numberFormat).toBe(DISPLAY_FORMATS.dateTime);
  expect(numberFormatFor("jpy", 4355)).toBe("#,##0");
  expect(numberFormatFor("jpy", 2845.5)).toBe("#,##0.0");
});

test("company sheet: 連結 is a real boolean under the imported table's own header (TRUE/FALSE, not 連結/単体 text)", async () => {
  const { client } = sandboxClient();
  const years = await companyFiscalYears(client, "7203", 3);
  expect(years.every((y) => typeof y.consolidated === "boolean")).toBe(true);
  const { plan, rows } = companySheetLayout("7203", years, "ja", NOW);
  const row = rows.rows["consolidated"];
  expect(at(plan.cells, `A${row}`)?.value).toBe(labelJa("is_consolidated"));
  years.forEach((y, i) => {
    const c = String.fromCharCode(67 + i);
    expect(at(plan.cells, `${c}${row}`)?.formula).toMatch(
      new RegExp(`,${y.consolidated ? "TRUE" : "FALSE"},""\\)$`),
    );
  });
});

test("company sheet: a latest-half column right of LTM, its header the half FH0 reads, following B2", async () => {
  const { client } = sandboxClient();
  const years = await companyFiscalYears(client, "7203", 10);
  for (const lang of ["ja", "en"] as const) {
    const { plan, rows } = companySheetLayout("7203", years, lang, NOW);
    const half = rows.halfColumn;
    expect(half).toBe(String.fromCharCode(rows.ltmColumn.charCodeAt(0) + 1));
    const latest = `KAISHA.FINANCIALS($B$2,"sales","semiannual",1,,,"periods_down",0,"desc")`;
    expect(at(plan.cells, `${half}10`)?.formula).toBe(
      lang === "ja"
        ? `=IFERROR(INDEX(${latest},1,1)&"期 "&IF(INDEX(${latest},1,2)="H1","上期","下期"),"")`
        : `=IFERROR(INDEX(${latest},1,1)&IF(INDEX(${latest},1,2)="H1"," H1"," H2"),"")`,
    );
    const r = rows.rows;
    // Flows and stocks by FH0; a margin over the column's own cells; no ratio, no growth.
    expect(at(plan.cells, `${half}${r["sales"]}`)?.formula).toBe(
      '=IFNA(KAISHA.FINANCIAL($B$2,"sales","FH0"),"")',
    );
    expect(at(plan.cells, `${half}${r["operating_margin"]}`)?.formula).toContain(
      `${half}${r["sales"]}`,
    );
    expect(at(plan.cells, `${half}${r["roe"]}`)).toBeUndefined();
    expect(
      plan.cells.some((c) =>
        String(c.value).startsWith(lang === "ja" ? "最新の半期" : "Latest half"),
      ),
    ).toBe(true);
  }
});
