// The builder's cell writes: into an empty cell or the KAISHA cell it was opened on, never over what the analyst typed.

jest.mock("office-addin-manifest", () => ({ OfficeApp: { Excel: "excel", Outlook: "outlook" } }));

import { FINANCIAL, PROFIT, SALES, salesCellWorkbook } from "./sales-cell-workbook";
import { closeWorkbook, openWorkbook } from "./standin-workbook";
import { insertFormulaIfEmpty, writeBackFormula } from "../../taskpane/excel/formula-cell";
import { recalculateAddresses } from "../../taskpane/excel/reenter-formulas";

afterEach(() => closeWorkbook());

test("write-back replaces the KAISHA formula the builder was opened on", async () => {
  const fake = await salesCellWorkbook();
  expect(await writeBackFormula("Sheet1!H10", PROFIT)).toEqual({
    written: true,
    address: "Sheet1!H10",
  });
  expect(fake.cell("Sheet1", "H10")).toMatchObject({ formula: PROFIT, format: "#,##0,," });
});

test("write-back: a note typed over the cell before Update is not replaced; the pane is told what is there", async () => {
  const fake = await salesCellWorkbook();
  fake.enter("Sheet1", "H10", "my note");
  expect(await writeBackFormula("Sheet1!H10", PROFIT)).toEqual({
    written: false,
    address: "Sheet1!H10",
    content: "my note",
  });
  expect(fake.cell("Sheet1", "H10")).toEqual({
    formula: "my note",
    value: "my note",
    format: "#,##0,,",
  });
});

test("write-back: a number typed between the read and the write goes back at once and the pane asks", async () => {
  const fake = await salesCellWorkbook();
  fake.afterNextSync(() => fake.enter("Sheet1", "H10", "42"));
  expect(await writeBackFormula("Sheet1!H10", PROFIT)).toEqual({
    written: false,
    address: "Sheet1!H10",
    content: "42",
  });
  expect(fake.cell("Sheet1", "H10")).toEqual({ formula: 42, value: 42, format: "#,##0,," });
});

test("write-back: the cell's format changing with its calculation between the read and the write is not typing; the edit is written", async () => {
  // Read while the cell recalculates (#BUSY!, no format of its result yet), written once it has its
  // value: a formatted number's format reads back then. Nobody typed, so Update writes.
  let answer: (value: unknown) => void = () => undefined;
  const fake = await openWorkbook({
    sheets: [{ name: "Sheet1" }],
    functions: { FINANCIAL: () => new Promise((resolve) => (answer = resolve)) },
  });
  fake.enter("Sheet1", "H10", SALES);
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(fake.cell("Sheet1", "H10")).toEqual({
    formula: SALES,
    value: "#BUSY!",
    format: "General",
  });
  let calculated: unknown;
  fake.afterNextSync(async () => {
    answer({ type: "Double", basicValue: FINANCIAL["sales"], numberFormat: "#,##0,," });
    await fake.whenIdle();
    calculated = fake.cell("Sheet1", "H10");
  });
  expect(await writeBackFormula("Sheet1!H10", PROFIT)).toEqual({
    written: true,
    address: "Sheet1!H10",
  });
  // Between the read and the write, the calculation ended in a formatted number.
  expect(calculated).toEqual({ formula: SALES, value: FINANCIAL["sales"], format: "#,##0,," });
  expect(fake.cell("Sheet1", "H10").formula).toBe(PROFIT);
});

test.each([
  ["lower case, inside Excel's IFERROR", '=iferror(kaisha.financial(7203,"sales"),0)'],
  ["a formula around a KAISHA call", '=A1*KAISHA.FINANCIAL(7203,"sales")'],
])("write-back replaces a KAISHA formula however it is written: %s", async (_, held) => {
  const fake = await salesCellWorkbook();
  fake.enter("Sheet1", "H10", held);
  await fake.whenIdle();
  expect(await writeBackFormula("Sheet1!H10", PROFIT)).toEqual({
    written: true,
    address: "Sheet1!H10",
  });
  expect(fake.cell("Sheet1", "H10").formula).toBe(PROFIT);
});

test.each([
  ["text typed with an apostrophe", "'" + SALES, SALES],
  ["a formula that only quotes a KAISHA call", '="KAISHA.PRICE(7203)"', '="KAISHA.PRICE(7203)"'],
])(
  "write-back: text that reads like a KAISHA formula is not replaced (%s); the pane asks",
  async (_, typed, content) => {
    const fake = await salesCellWorkbook();
    fake.enter("Sheet1", "H10", typed);
    await fake.whenIdle();
    const before = fake.cell("Sheet1", "H10");
    expect(before.value).toBe(typed.startsWith("'") ? SALES : "KAISHA.PRICE(7203)");
    expect(await writeBackFormula("Sheet1!H10", PROFIT)).toEqual({
      written: false,
      address: "Sheet1!H10",
      content,
    });
    expect(fake.cell("Sheet1", "H10")).toEqual(before);
  },
);

test("insert: an empty active cell gets the formula; one the analyst typed into meanwhile keeps their text", async () => {
  const fake = await salesCellWorkbook();
  expect(await insertFormulaIfEmpty(SALES)).toEqual({ written: true, address: "Sheet1!B2" });
  expect(fake.cell("Sheet1", "B2").formula).toBe(SALES);

  const again = await salesCellWorkbook();
  again.afterNextSync(() => again.enter("Sheet1", "B2", "'=A1"));
  expect(await insertFormulaIfEmpty(SALES)).toEqual({
    written: false,
    address: "Sheet1!B2",
    content: "=A1",
  });
  expect(again.cell("Sheet1", "B2")).toEqual({ formula: "=A1", value: "=A1", format: "General" });
});

test("write-back while a revalidation re-enters the same cell and the analyst types: the pane asks, the note stays", async () => {
  // The pane's two writers over existing cells, the builder and the background recalculation
  // (reenter-formulas.ts), each guard against typing; interleaved, the recalculation's restore could
  // land over the builder's write, which then reported a formula the cell no longer held. They run
  // one after the other (run.ts runCellWrites): the recalculation reads, writes, restores (3 syncs),
  // then the builder reads and writes. A note typed after any of its first 3 syncs came before the
  // builder's write: the builder asks. After the 4th, the builder's write was first.
  for (const typedAfterSync of [1, 2, 3, 4]) {
    const fake = await salesCellWorkbook();
    let syncs = 0;
    const typing = () => {
      syncs += 1;
      if (syncs === typedAfterSync) fake.enter("Sheet1", "H10", "my note");
      else fake.afterNextSync(typing);
    };
    fake.afterNextSync(typing);
    const recalculation = recalculateAddresses(["Sheet1!H10"]);
    const written = await writeBackFormula("Sheet1!H10", PROFIT);
    await recalculation;
    expect(fake.cell("Sheet1", "H10")).toEqual({
      formula: "my note",
      value: "my note",
      format: "#,##0,,",
    });
    expect(written).toEqual(
      typedAfterSync <= 3
        ? { written: false, address: "Sheet1!H10", content: "my note" }
        : { written: true, address: "Sheet1!H10" },
    );
  }
});
