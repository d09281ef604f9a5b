// taskpane/excel/import-store: definitions in the hidden KaishaImports sheet, never the key.

jest.mock("office-addin-manifest", () => ({ OfficeApp: { Excel: "excel", Outlook: "outlook" } }));

import { block, closeWorkbook, openWorkbook } from "./standin-workbook";
import { readImportDefinitions, saveImportDefinition } from "../../taskpane/excel/import-store";
import type { ImportDefinition } from "../../taskpane/state/import-definition";

afterEach(closeWorkbook);

const def: ImportDefinition = {
  v: 1,
  dataset: "financials",
  params: { company: "7203", period: "annual", years: "10", unit: "million_jpy" },
  lang: "ja",
  tableName: "Kaisha_financials_7203",
  createdAt: "2026-11-21T00:00:00.000Z",
};

test("saveImportDefinition: creates the hidden sheet with a header and stores the definition JSON", async () => {
  const excel = await openWorkbook({ sheets: [{ name: "Sheet1" }] });
  await saveImportDefinition(def, new Date("2026-11-21T01:02:03Z"));
  expect(excel.sheetNames()).toEqual(["Sheet1", "KaishaImports"]);
  expect(excel.visibility("KaishaImports")).toBe("Hidden");
  expect(excel.values("KaishaImports", "A1:C1")).toEqual([["table", "definition", "updated_at"]]);
  const row = excel.values("KaishaImports", "A2:C2")[0] as string[];
  expect(row[0]).toBe("Kaisha_financials_7203");
  expect(JSON.parse(String(row[1]))).toEqual(def);
  expect(row[2]).toBe("2026-11-21T01:02:03.000Z");
});

test("saveImportDefinition: replaces the row of the same table", async () => {
  const excel = await openWorkbook({
    sheets: [
      {
        name: "KaishaImports",
        cells: block("A1", [
          ["table", "definition", "updated_at"],
          ["Other", "{}", "x"],
          ["Kaisha_financials_7203", "{}", "x"],
        ]),
      },
    ],
  });
  await saveImportDefinition(def);
  expect(excel.values("KaishaImports", "A3:C3")[0]?.[0]).toBe("Kaisha_financials_7203");
  expect(JSON.parse(String(excel.values("KaishaImports", "B3")[0]?.[0]))).toEqual(def);
  expect(excel.values("KaishaImports", "A4")).toEqual([[""]]);
  expect(excel.sheetNames()).toEqual(["KaishaImports"]);
});

test("saveImportDefinition: refuses a parameter that looks like an API key", async () => {
  expect.assertions(1);
  await openWorkbook({ sheets: [{ name: "Sheet1" }] });
  const leaky = { ...def, params: { ...def.params, q: "kaisakey_" + "a".repeat(43) } };
  await expect(saveImportDefinition(leaky)).rejects.toThrow(/credential/);
});

test("readImportDefinitions: returns readable definitions and skips broken rows", async () => {
  await openWorkbook({
    sheets: [
      {
        name: "KaishaImports",
        cells: block("A1", [
          ["table", "definition", "updated_at"],
          ["Kaisha_financials_7203", JSON.stringify(def), "x"],
          ["Broken", "not json", "x"],
        ]),
      },
    ],
  });
  expect(await readImportDefinitions()).toEqual([def]);
});

test("readImportDefinitions: no sheet, no definitions", async () => {
  await openWorkbook({ sheets: [{ name: "Sheet1" }] });
  expect(await readImportDefinitions()).toEqual([]);
});
