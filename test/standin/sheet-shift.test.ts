// Inserting and deleting rows and columns in the stand-in (standin/sheet-shift.ts): cells, tables
// and column formats move, references follow (not inside text), a range shrinks around deleted
// lines and a reference to a deleted cell is #REF!.
import { installExcelStandIn, type StandInHooks } from "../../standin/install";

/* eslint-disable @typescript-eslint/no-explicit-any -- the stand-in's Excel objects, untyped here */
const g = globalThis as unknown as Record<string, unknown> & {
  Excel?: { run(batch: (ctx: any) => Promise<void>): Promise<void> };
};

afterEach(() => {
  for (const key of ["Excel", "__excelStandIn", "CustomFunctions", "Office"]) delete g[key];
});

const formula = (excel: StandInHooks, sheet: string, address: string): unknown =>
  excel.read(sheet, address)[0]?.[0]?.formula;
const value = (excel: StandInHooks, sheet: string, address: string): unknown =>
  excel.read(sheet, address)[0]?.[0]?.value;

async function workbook(): Promise<StandInHooks> {
  const excel = installExcelStandIn(g, {});
  await g.Excel!.run(async (ctx) => {
    const sheet = ctx.workbook.worksheets.getItem("Sheet1");
    sheet.getRange("C:C").numberFormat = [["0.00"]];
    sheet.tables.add("Sheet1!E1:F3", true);
    await ctx.sync();
  });
  for (const [address, text] of [
    ["A1", "1"],
    ["A2", "2"],
    ["A3", "3"],
    ["B1", "=SUM(A1:A3)"],
    ["B2", '=A2&"A2"'],
    ["C1", "4.5"],
    ["D1", "=A3*10"],
  ])
    excel.enter("Sheet1", address ?? "", text ?? "");
  await excel.whenIdle();
  return excel;
}

test("inserted columns move cells, column formats and tables; references follow", async () => {
  const excel = await workbook();
  excel.insertColumns("Sheet1", "A", 2);
  await excel.whenIdle();
  expect(formula(excel, "Sheet1", "D1")).toBe("=SUM(C1:C3)");
  expect(value(excel, "Sheet1", "D1")).toBe(6);
  // Text in quotes is not a reference.
  expect(formula(excel, "Sheet1", "D2")).toBe('=C2&"A2"');
  expect(formula(excel, "Sheet1", "F1")).toBe("=C3*10");
  expect(value(excel, "Sheet1", "F1")).toBe(30);
  expect(excel.read("Sheet1", "E1")[0]?.[0]?.text).toBe("4.50");
  expect(excel.sheets()[0]?.tables).toEqual([{ name: "Table1", address: "G1:H3" }]);
});

test("deleted rows shrink a range and leave #REF! where a single reference pointed", async () => {
  const excel = await workbook();
  excel.deleteRows("Sheet1", 3, 1);
  await excel.whenIdle();
  expect(formula(excel, "Sheet1", "B1")).toBe("=SUM(A1:A2)");
  expect(value(excel, "Sheet1", "B1")).toBe(3);
  expect(formula(excel, "Sheet1", "D1")).toBe("=#REF!*10");
  expect(excel.sheets()[0]?.tables).toEqual([{ name: "Table1", address: "E1:F2" }]);
});
