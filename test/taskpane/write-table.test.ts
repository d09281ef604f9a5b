// taskpane/excel/write-table: header, blocks with formats before values, links, table, caption.

jest.mock("office-addin-manifest", () => ({ OfficeApp: { Excel: "excel", Outlook: "outlook" } }));

import { closeWorkbook, openWorkbook } from "./standin-workbook";
import { blockRows, writeTable, TargetNotEmptyError } from "../../taskpane/excel/write-table";
import { shapeTable } from "../../taskpane/state/table-data";
import { attribution, pricesTable } from "./prices-table-fixture";

afterEach(closeWorkbook);

test("writeTable: header at the active cell, dates as serials with yyyy/mm/dd, table and caption below", async () => {
  const fake = await openWorkbook({ sheets: [{ name: "Sheet1" }], selection: "Sheet1!B2" });
  const written = await writeTable(pricesTable(2), {
    name: "Kaisha_prices_7203",
    caption: "出典: IRBANK",
  });

  expect(written).toEqual({
    name: "Kaisha_prices_7203",
    sheet: "Sheet1",
    address: "B2:D4",
    rows: 2,
  });
  expect(fake.values("Sheet1", "B2:D2")).toEqual([["日付", "終値（円）", "出来高（株）"]]);
  // 2026-01-01 is serial 46023
  expect(fake.values("Sheet1", "B3:D4")).toEqual([
    [46023, 1000, 5000],
    [46024, 1001, 5000],
  ]);
  expect(fake.formats("Sheet1", "B3:D4")[0]).toEqual(["yyyy/mm/dd", "#,##0", "#,##0"]);
  expect(fake.tables("Sheet1")).toEqual([{ name: "Kaisha_prices_7203", address: "B2:D4" }]);
  expect(fake.values("Sheet1", "B6")).toEqual([["出典: IRBANK"]]);
  expect(fake.italic("Sheet1", "B6")).toBe(true);
});

test("writeTable: large tables are written in blocks, one sync each, with progress", async () => {
  const fake = await openWorkbook({ sheets: [{ name: "Sheet1" }], selection: "Sheet1!A1" });
  const progress: number[] = [];
  const step = blockRows(3);
  expect(step).toBe(5000);
  await writeTable(pricesTable(12_000), {
    name: "T",
    caption: "c",
    onProgress: (n) => progress.push(n),
  });
  expect(progress).toEqual([5000, 10000, 12000]);
  // One block per sync: the header and 5,000 rows, 5,000, then the last 2,000 (and the caption's).
  expect(fake.syncs()).toBeGreaterThanOrEqual(3);
  expect(fake.values("Sheet1", "A2:C2")).toEqual([[46023, 1000, 5000]]);
  // Closes count up from 1,000: every row landed where its block put it.
  expect(fake.values("Sheet1", "B5001:B5002")).toEqual([[5999], [6000]]);
  expect(fake.values("Sheet1", "B10001:B10002")).toEqual([[10999], [11000]]);
  expect(fake.values("Sheet1", "B12001:B12002")).toEqual([[12999], [""]]);
});

test("writeTable: http(s) links become HYPERLINK formulas, every string cell is Text", async () => {
  const fake = await openWorkbook({ sheets: [{ name: "S" }], selection: "S!A1" });
  const table = shapeTable(
    [
      {
        doc_id: "S100ABCD",
        security_code: "0001",
        source_url: "https://disclosure.example/S100ABCD",
        title: "有価証券報告書",
      },
    ],
    [],
    attribution,
    { lang: "en", scale: "jpy" },
  );
  await writeTable(table, { name: "D", caption: "c" });
  expect(fake.formats("S", "A2:D2")).toEqual([["@", "@", "General", "@"]]);
  // One write of the block: text cells are Text, so only the HYPERLINK the add-in built is a formula.
  expect(fake.formulas("S", "A2:D2")).toEqual([
    [
      "S100ABCD",
      "0001",
      '=HYPERLINK("https://disclosure.example/S100ABCD","Page")',
      "有価証券報告書",
    ],
  ]);
});

test("writeTable: refuses to overwrite cells that hold data", async () => {
  expect.assertions(2);
  await openWorkbook({
    sheets: [{ name: "Sheet1", cells: { B3: { value: "memo" } } }],
    selection: "Sheet1!A1",
  });
  try {
    await writeTable(pricesTable(2), { name: "T", caption: "c" });
  } catch (err) {
    expect(err).toBeInstanceOf(TargetNotEmptyError);
    expect((err as TargetNotEmptyError).address).toBe("Sheet1!B3");
  }
});

test("writeTable: replace deletes the old table and clears its area before writing at the same place", async () => {
  const fake = await openWorkbook({
    sheets: [{ name: "Data" }],
    tables: [{ name: "Kaisha_prices_7203", address: "Data!C5:E9" }],
  });
  const written = await writeTable(pricesTable(3), {
    name: "Kaisha_prices_7203",
    caption: "c",
    replace: true,
  });
  expect(fake.log).toContain("delete table Kaisha_prices_7203");
  expect(fake.log).toContain("clear Data!C5:E11 All");
  expect(written.address).toBe("C5:E8");
  expect(fake.values("Data", "C6:E8")[0]?.[1]).toBe(1000);
  expect(fake.tables("Data")).toEqual([{ name: "Kaisha_prices_7203", address: "C5:E8" }]);
});

test("writeTable: a refresh that no longer fits keeps the old table and its rows", async () => {
  expect.assertions(4);
  // The old table C5:E9 owns C5:E11 (header, 4 rows, blank, caption); 10 rows need C5:E17.
  const fake = await openWorkbook({
    sheets: [{ name: "Data", cells: { D15: { value: "memo" } } }],
    tables: [{ name: "Kaisha_prices_7203", address: "Data!C5:E9" }],
  });
  try {
    await writeTable(pricesTable(10), {
      name: "Kaisha_prices_7203",
      caption: "c",
      replace: true,
    });
  } catch (err) {
    expect(err).toBeInstanceOf(TargetNotEmptyError);
    expect((err as TargetNotEmptyError).address).toBe("Data!D15");
    expect(fake.log).not.toContain("delete table Kaisha_prices_7203");
    expect(fake.log.filter((l) => l.startsWith("clear"))).toEqual([]);
  }
});

test("writeTable: a refresh with a new column refuses to write over the analyst's cells beside the table", async () => {
  expect.assertions(3);
  // The old table C5:D9 has two columns; the refresh has three, and the analyst typed in E6.
  const fake = await openWorkbook({
    sheets: [{ name: "Data", cells: { E6: { value: "memo" } } }],
    tables: [{ name: "Kaisha_prices_7203", address: "Data!C5:D9" }],
  });
  try {
    await writeTable(pricesTable(4), { name: "Kaisha_prices_7203", caption: "c", replace: true });
  } catch (err) {
    expect((err as TargetNotEmptyError).address).toBe("Data!E6");
    expect(fake.log).not.toContain("delete table Kaisha_prices_7203");
    expect(fake.log.filter((l) => l.startsWith("clear"))).toEqual([]);
  }
});

test("writeTable: a refresh clears only the old table's own columns, never the cells beside it", async () => {
  const fake = await openWorkbook({
    sheets: [{ name: "Data", cells: { H6: { value: "beside" } } }],
    tables: [{ name: "Kaisha_prices_7203", address: "Data!C5:G9" }],
  });
  await writeTable(pricesTable(3), { name: "Kaisha_prices_7203", caption: "c", replace: true });
  // Five old columns (C:G) are the table's; H onwards stays untouched.
  expect(fake.log).toContain("clear Data!C5:G11 All");
  expect(fake.values("Data", "H6")).toEqual([["beside"]]);
});
