// Re-entering KAISHA formulas (revalidation and Problems Retry) never leaves the analyst's own content overwritten.

jest.mock("office-addin-manifest", () => ({ OfficeApp: { Excel: "excel", Outlook: "outlook" } }));

import {
  closeWorkbook,
  openWorkbook,
  type CellSpec,
  type StandInWorkbook,
} from "./standin-workbook";
import { recalculateAddresses, reenterFormulas } from "../../taskpane/excel/reenter-formulas";
import { splitAddress } from "../../taskpane/excel/cell-address";

afterEach(() => closeWorkbook());

const SALES = '=KAISHA.FINANCIAL(7203,"sales")';
const PRICE = "=KAISHA.PRICE(6758)";
/** B2 and B3 as the workbook starts: net sales in exact yen, shown in millions. */
const SALES_CELL = { formula: SALES, value: 45_095_325_000_000, format: "#,##0,," };

/** A cell as the workbook starts: what it shows, its formula (if any) and its format. */
function cell(value: unknown, formula?: string, format = "General"): CellSpec {
  return formula === undefined ? { value, format } : { formula, value, format };
}

/** A cell as the user sees it: formula bar content, value, number format. */
function shown(fake: StandInWorkbook, address: string) {
  return fake.cell("Sheet 1", address);
}

/** What the KAISHA functions give here: the values the cells showed. */
const functions = {
  FINANCIAL: () => 45_095_325_000_000,
  PRICE: (code: unknown) => (Number(code) === 7203 ? 2890 : 3120),
};

function workbook(cells?: Record<string, CellSpec>) {
  return openWorkbook({
    sheets: [
      {
        name: "Sheet 1",
        cells: cells ?? {
          B2: cell(45_095_325_000_000, SALES, "#,##0,,"),
          B3: cell(45_095_325_000_000, SALES, "#,##0,,"),
          B4: cell(3120, PRICE, "#,##0"),
          B5: cell(3120, PRICE, "#,##0"),
          B6: cell(3120, PRICE, "@"),
          B7: cell(3120, PRICE),
          C2: cell(5),
        },
      },
    ],
    functions,
  });
}

const ALL = ["B2", "B3", "B4", "B5", "B6", "B7", "C2"].map((a) => `'Sheet 1'!${a}`);

test("addresses Excel passes split into sheet and cell, quoted names included", () => {
  expect(splitAddress("Sheet1!B2")).toEqual(["Sheet1", "B2"]);
  expect(splitAddress("'Sheet 1'!C3")).toEqual(["Sheet 1", "C3"]);
  expect(splitAddress("'It''s'!A1")).toEqual(["It's", "A1"]);
  expect(splitAddress("B2")).toBeUndefined();
});

test("revalidation: untouched KAISHA cells are re-entered, a plain number is not touched", async () => {
  const fake = await workbook();
  expect(await recalculateAddresses(ALL)).toBe(6);
  await fake.whenIdle();
  expect(shown(fake, "B2")).toEqual(SALES_CELL);
  expect(shown(fake, "B6")).toEqual({ formula: PRICE, value: 3120, format: "@" });
  expect(shown(fake, "C2")).toEqual({ formula: 5, value: 5, format: "General" });
  // read, write; nothing to put back
  expect(fake.syncs()).toBe(2);
});

test("revalidation: cells the analyst typed over between the read and the write end with what they typed, formats intact", async () => {
  const fake = await workbook();
  fake.afterNextSync(() => {
    fake.enter("Sheet 1", "B3", "42"); // a number
    fake.enter("Sheet 1", "B4", "後で確認"); // text
    fake.enter("Sheet 1", "B5", "=C2*1248"); // their own formula
    fake.enter("Sheet 1", "B6", "=KAISHA.PRICE(7203)"); // text in a Text cell
    fake.enter("Sheet 1", "B7", "'=A1+1"); // text escaped with an apostrophe in a General cell
  });
  expect(await recalculateAddresses(ALL)).toBe(1);
  await fake.whenIdle();
  expect(shown(fake, "B2")).toEqual(SALES_CELL);
  expect(shown(fake, "B3")).toEqual({ formula: 42, value: 42, format: "#,##0,," });
  expect(shown(fake, "B4")).toEqual({ formula: "後で確認", value: "後で確認", format: "#,##0" });
  expect(shown(fake, "B5")).toEqual({ formula: "=C2*1248", value: 6240, format: "#,##0" });
  expect(shown(fake, "B6")).toEqual({
    formula: "=KAISHA.PRICE(7203)",
    value: "=KAISHA.PRICE(7203)",
    format: "@",
  });
  expect(shown(fake, "B7")).toEqual({ formula: "=A1+1", value: "=A1+1", format: "General" });
  expect(shown(fake, "C2")).toEqual({ formula: 5, value: 5, format: "General" });
  // read, write, put the analyst's content back
  expect(fake.syncs()).toBe(3);
});

test("revalidation: a cell emptied by the analyst between the batches stays empty", async () => {
  const fake = await workbook();
  fake.afterNextSync(() => fake.enter("Sheet 1", "B2", ""));
  expect(await recalculateAddresses(["'Sheet 1'!B2", "'Sheet 1'!B3"])).toBe(1);
  expect(shown(fake, "B2")).toEqual({ formula: "", value: "", format: "#,##0,," });
  expect(shown(fake, "B3")).toEqual(SALES_CELL);
});

test("revalidation: a KAISHA cell already typed over before the read is left as it is", async () => {
  const fake = await workbook();
  fake.enter("Sheet 1", "B3", "100");
  expect(await recalculateAddresses(["'Sheet 1'!B2", "'Sheet 1'!B3"])).toBe(1);
  expect(shown(fake, "B3")).toEqual({ formula: 100, value: 100, format: "#,##0,," });
  expect(fake.syncs()).toBe(2);
});

test("Retry: only cells still holding the formula the scan found are re-entered", async () => {
  const fake = await workbook();
  const scanned = ["B2", "B3", "B4", "B5"].map((address) => ({
    sheet: "Sheet 1",
    address,
    formula: shown(fake, address).formula as string,
  }));
  // After the scan: a number typed over the #N/A, and a formula whose arguments were fixed.
  fake.enter("Sheet 1", "B3", "7");
  fake.enter("Sheet 1", "B4", "=KAISHA.PRICE(7203)");
  // And between Retry's read and its write: text typed over another.
  fake.afterNextSync(() => fake.enter("Sheet 1", "B5", "確認中"));
  expect(await reenterFormulas(scanned)).toBe(1);
  await fake.whenIdle();
  expect(shown(fake, "B2")).toEqual(SALES_CELL);
  expect(shown(fake, "B3")).toEqual({ formula: 7, value: 7, format: "#,##0,," });
  expect(shown(fake, "B4")).toEqual({
    formula: "=KAISHA.PRICE(7203)",
    value: 2890,
    format: "#,##0",
  });
  expect(shown(fake, "B5")).toEqual({ formula: "確認中", value: "確認中", format: "#,##0" });
});

test("Retry: nothing still holds its formula -> nothing is written", async () => {
  const fake = await workbook();
  fake.enter("Sheet 1", "B2", "1");
  const n = await reenterFormulas([{ sheet: "Sheet 1", address: "B2", formula: SALES }]);
  expect(n).toBe(0);
  expect(shown(fake, "B2")).toEqual({ formula: 1, value: 1, format: "#,##0,," });
  expect(fake.syncs()).toBe(1);
});

test("cells are re-entered in batches of 500, one Excel.run after another", async () => {
  const cells: Record<string, CellSpec> = {};
  for (let row = 1; row <= 1200; row++) cells[`D${row}`] = cell(1, PRICE);
  const fake = await workbook(cells);
  const addresses = Object.keys(cells).map((a) => `'Sheet 1'!${a}`);
  let running = 0;
  let most = 0;
  const run = (globalThis as unknown as { Excel: { run: (b: unknown) => Promise<unknown> } }).Excel
    .run;
  (globalThis as unknown as { Excel: { run: (b: unknown) => Promise<unknown> } }).Excel.run =
    async (batch) => {
      running += 1;
      most = Math.max(most, running);
      try {
        return await run(batch);
      } finally {
        running -= 1;
      }
    };
  expect(await recalculateAddresses(addresses)).toBe(1200);
  // three runs (500, 500, 200), each a read and a write
  expect(fake.syncs()).toBe(6);
  expect(most).toBe(1);
});
