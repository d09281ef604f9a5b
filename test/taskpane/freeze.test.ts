// taskpane/excel/freeze: Freeze values records provenance; Restore formulas puts them back.

jest.mock("office-addin-manifest", () => ({ OfficeApp: { Excel: "excel", Outlook: "outlook" } }));

import { installFakeExcel, uninstallFakeExcel } from "./fake-excel";
import { freezeFormulas, restoreFormulas, PROVENANCE_HEADER } from "../../taskpane/excel/freeze";

afterEach(uninstallFakeExcel);

const NOW = new Date("2026-11-21T03:00:00Z"); // 12:00 JST

test("freezeFormulas(selection): writes values over a spilled formula and records it on KaishaProvenance", async () => {
  const fake = installFakeExcel({
    sheets: [
      {
        name: "Model",
        spills: {
          B2: {
            address: "Model!B2:C3",
            values: [
              ["fiscal_year", "per"],
              ["2025/03", 12.5],
            ],
          },
        },
      },
    ],
    selection: {
      address: "Model!A2:B2",
      values: [["x", "fiscal_year"]],
      formulas: [["x", '=KAISHA.VALUATION("7203","fiscal_year,per")']],
    },
  });
  const result = await freezeFormulas("selection", "KAISHA / api.irbank.net", NOW);
  expect(result).toEqual({ frozen: 1, cells: ["Model!B2"] });
  // The whole spill range gets its own values, which replaces the formula.
  expect(fake.range("Model", "Model!B2:C3").values).toEqual([
    ["fiscal_year", "per"],
    ["2025/03", 12.5],
  ]);
  expect(fake.sheetsAdded).toEqual(["KaishaProvenance"]);
  expect(fake.range("KaishaProvenance", "A1:G1").values).toEqual([[...PROVENANCE_HEADER]]);
  const record = fake.range("KaishaProvenance", "A2:G2");
  expect(record.numberFormat[0][1]).toBe("@"); // the formula is kept as text
  expect(record.values[0]).toEqual([
    "Model!B2",
    '=KAISHA.VALUATION("7203","fiscal_year,per")',
    "B2:C3",
    expect.closeTo(46347.5, 5), // 2026-11-21 12:00 JST
    "KAISHA / api.irbank.net",
    "frozen",
    "",
  ]);
});

test("freezeFormulas: a scope without KAISHA formulas changes nothing", async () => {
  const fake = installFakeExcel({
    sheets: [{ name: "S" }],
    selection: { address: "S!A1", values: [[3]], formulas: [["=1+2"]] },
  });
  expect(await freezeFormulas("selection", "KAISHA", NOW)).toEqual({ frozen: 0, cells: [] });
  expect(fake.sheetsAdded).toEqual([]);
});

test("restoreFormulas(sheet): clears the frozen values, re-enters the formula, marks the record restored", async () => {
  const fake = installFakeExcel({
    active: "Model",
    sheets: [
      { name: "Model" },
      {
        name: "KaishaProvenance",
        used: {
          address: "KaishaProvenance!A1:G3",
          values: [
            [...PROVENANCE_HEADER],
            ["Model!B2", '=KAISHA.VALUATION("7203")', "B2:C3", 46347.5, "KAISHA", "frozen", ""],
            ["Other!A1", '=KAISHA.PRICE("7203")', "A1", 46347.5, "KAISHA", "frozen", ""],
          ],
        },
      },
    ],
  });
  const result = await restoreFormulas("sheet", NOW);
  expect(result).toEqual({ frozen: 1, cells: ["Model!B2"] });
  expect(fake.log).toContain("clear Model!B2:C3 Contents");
  expect(fake.range("Model", "B2").formulas).toEqual([['=KAISHA.VALUATION("7203")']]);
  expect(fake.range("KaishaProvenance", "F2:G2").values).toEqual([
    ["restored", expect.closeTo(46347.5, 5)],
  ]);
  // The other sheet's record is untouched.
  expect(fake.range("KaishaProvenance", "F3:G3")).toBeUndefined();
});

test("freezeFormulas: cells inside a spill range are the anchor's output, recorded once", async () => {
  const formula = '=KAISHA.VALUATION("7203","fiscal_year,per")';
  installFakeExcel({
    sheets: [
      {
        name: "Model",
        spills: {
          B2: {
            address: "Model!B2:C3",
            values: [
              ["fiscal_year", "per"],
              ["2025/03", 12.5],
            ],
          },
        },
      },
    ],
    selection: {
      address: "Model!B2:C3",
      values: [
        ["fiscal_year", "per"],
        ["2025/03", 12.5],
      ],
      // Some hosts report the anchor's formula on spilled cells too.
      formulas: [
        [formula, formula],
        [formula, formula],
      ],
    },
  });
  const result = await freezeFormulas("selection", "KAISHA", NOW);
  expect(result).toEqual({ frozen: 1, cells: ["Model!B2"] });
});
