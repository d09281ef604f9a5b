// Rebuilding a comps or company sheet over the Excel stand-in: what the previous build wrote and the
// analyst left alone is gone, whatever rows were added; what the analyst typed stays.

jest.mock("office-addin-manifest", () => ({ OfficeApp: { Excel: "excel", Outlook: "outlook" } }));

import {
  installExcelStandIn,
  uninstallExcelStandIn,
  type StandInHooks,
} from "./excel-standin-node";
import { buildCompanySheet } from "../../taskpane/excel/company-sheet";
import { codesOnSheet, peerSheetLayout, type PeerList } from "../../taskpane/state/peer-sheet-plan";
import { companySheetLayout } from "../../taskpane/state/company-sheet-plan";

afterEach(uninstallExcelStandIn);

const NOW = new Date("2026-11-24T03:00:00Z");

const LIST: PeerList = {
  subject: { code: "7203", name: "大和自動車", industry: "輸送用機器" },
  peers: [{ code: "7267", name: "本郷技研", industry: "輸送用機器" }],
  sourceLabel: "IRBANK",
};

/**
 * Every cell of the sheet that holds something, as its formula (or value) text. No KAISHA function
 * is registered in Node, so nothing spills: each cell is one the build or the analyst wrote.
 */
function contents(excel: StandInHooks, sheet: string): Record<string, string> {
  const out: Record<string, string> = {};
  excel.read(sheet, "A1:AL300").forEach((row, r) =>
    row.forEach((cell, c) => {
      const text =
        typeof cell.formula === "string"
          ? cell.formula
          : cell.value === ""
            ? ""
            : String(cell.value);
      if (text !== "") out[`${letter(c)}${r + 1}`] = text;
    }),
  );
  return out;
}

function letter(i: number): string {
  let n = i + 1;
  let s = "";
  while (n > 0) {
    s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

function readCodes(excel: StandInHooks, sheet: string): string[] {
  return codesOnSheet(excel.read(sheet, "A9:B60").map((r) => r.map((c) => c.value)));
}

test("comps: a rebuild after codes were typed leaves no cell of the previous build (no second 出典) and keeps the analyst's cells", async () => {
  const excel = installExcelStandIn();
  const sheet = "Kaisha_peers_7203";
  const first = peerSheetLayout(LIST, "ja", NOW);
  await buildCompanySheet(first.plan);
  // The analyst types codes into both spare rows, a name over one name formula, and a note below.
  const spare = first.layout.firstPeerRow + 1;
  excel.enter(sheet, `A${spare}`, "9433");
  excel.enter(sheet, `A${spare + 1}`, "6501");
  excel.enter(sheet, `B${spare + 1}`, "自分で入力した名前");
  const note = `E${first.layout.sourcesRow + 8}`;
  excel.enter(sheet, note, "メモ");
  const kept = readCodes(excel, sheet);
  expect(kept).toEqual(["7267", "9433", "6501"]);
  const again = peerSheetLayout(LIST, "ja", NOW, kept);
  expect(again.layout.medianRow).toBe(first.layout.medianRow + 2);
  await buildCompanySheet(again.plan);
  const rebuilt = contents(excel, sheet);

  // The same build on a fresh workbook, plus what the analyst typed.
  uninstallExcelStandIn();
  const fresh = installExcelStandIn();
  await buildCompanySheet(again.plan);
  const expected = contents(fresh, sheet);
  expected[`B${spare + 1}`] = "自分で入力した名前";
  expected[note] = "メモ";
  // The stamp is the same NOW: every cell must match.
  expect(rebuilt).toEqual(expected);
  expect(Object.values(rebuilt).filter((t) => t === "出典")).toHaveLength(1);
  expect(
    Object.values(rebuilt).filter((t) => t === '=KAISHA.ATTRIBUTION("financials")'),
  ).toHaveLength(1);
});

test("company sheet: a rebuild with fewer years leaves nothing of the wider build, keeps the analyst's edits", async () => {
  const excel = installExcelStandIn();
  const sheet = "Kaisha_7203";
  const year = (fiscalYear: string) => ({ fiscalYear, standard: "IFRS", jgaapExceptions: [] });
  const wide = companySheetLayout("7203", ["2022/03", "2023/03", "2024/03"].map(year), "en", NOW);
  await buildCompanySheet(wide.plan);
  const sales = wide.rows.rows["sales"];
  // The analyst's own formula over a template cell (the wide build's LTM; the narrow build's
  // columns end at E: its year, LTM, the latest half).
  excel.enter(sheet, `F${sales}`, "=C11*2");
  excel.enter(sheet, "K3", "note");
  const narrow = companySheetLayout("7203", ["2024/03"].map(year), "en", NOW);
  await buildCompanySheet(narrow.plan);
  const rebuilt = contents(excel, sheet);
  uninstallExcelStandIn();
  const fresh = installExcelStandIn();
  await buildCompanySheet(narrow.plan);
  const expected = contents(fresh, sheet);
  expected[`F${sales}`] = "=C11*2";
  expected["K3"] = "note";
  expect(rebuilt).toEqual(expected);
});

test("company sheet: what the analyst typed into the latest-half column (their forecast column on older builds) stays on a rebuild", async () => {
  const excel = installExcelStandIn();
  const sheet = "Kaisha_7203";
  const year = (fiscalYear: string) => ({ fiscalYear, standard: "IFRS", jgaapExceptions: [] });
  const plan = companySheetLayout("7203", ["2024/03"].map(year), "ja", NOW);
  await buildCompanySheet(plan.plan);
  const half = plan.rows.halfColumn;
  const sales = plan.rows.rows["sales"];
  excel.enter(sheet, `${half}10`, "2025/03予");
  excel.enter(sheet, `${half}${sales}`, "=C13*1.1");
  await buildCompanySheet(plan.plan);
  const rebuilt = contents(excel, sheet);
  expect(rebuilt[`${half}10`]).toBe("2025/03予");
  expect(rebuilt[`${half}${sales}`]).toBe("=C13*1.1");
  // The cells the analyst left alone are the template's again.
  expect(rebuilt[`${half}${plan.rows.rows["operating_profit"]}`]).toBe(
    '=IFNA(KAISHA.FINANCIAL($B$2,"operating_profit","FH0"),"")',
  );
});
