// guarded-write: the analyst's typing between any two of the pane's batches ends in the cell, newest entry last.

jest.mock("office-addin-manifest", () => ({ OfficeApp: { Excel: "excel", Outlook: "outlook" } }));

import { closeWorkbook, type StandInWorkbook } from "./standin-workbook";
import { PROFIT, salesCellWorkbook } from "./sales-cell-workbook";
import { writeBackFormula } from "../../taskpane/excel/formula-cell";
import { recalculateAddresses } from "../../taskpane/excel/reenter-formulas";

afterEach(() => closeWorkbook());

/** Types `entries[k]` right after the pane's sync number k + 1 (undefined: no typing then). */
function typeAfterSyncs(fake: StandInWorkbook, entries: readonly (string | undefined)[]): void {
  let syncs = 0;
  const next = () => {
    const entry = entries[syncs];
    syncs += 1;
    if (entry !== undefined) fake.enter("Sheet1", "H10", entry);
    if (syncs < entries.length) fake.afterNextSync(next);
  };
  fake.afterNextSync(next);
}

const syncs = (fake: StandInWorkbook) => fake.syncs();

test("write-back: typing after each sync in turn ends with the newest entry in the cell, reported to the pane", async () => {
  // Syncs: 1 read, 2 write, 3 put back. Each case types after the syncs listed.
  const cases: { entries: (string | undefined)[]; cell: unknown; syncs: number }[] = [
    // after the read: the write goes over it, the put-back restores it
    { entries: ["42"], cell: 42, syncs: 3 },
    // after the read and again after the write: the put-back wrote 42 over "newer", so "newer" goes back
    { entries: ["42", "newer"], cell: "newer", syncs: 4 },
    // and once more after that put-back: the newest ("newest") goes back in turn
    { entries: ["42", "newer", "newest"], cell: "newest", syncs: 5 },
    // after the write only: the write stood; the entry is the analyst's, over it, and stays
    { entries: [undefined, "later"], cell: "later", syncs: 2 },
  ];
  for (const c of cases) {
    const fake = await salesCellWorkbook();
    typeAfterSyncs(fake, c.entries);
    const result = await writeBackFormula("Sheet1!H10", PROFIT);
    expect(fake.cell("Sheet1", "H10")).toEqual({
      formula: c.cell,
      value: c.cell,
      format: "#,##0,,",
    });
    expect(result).toEqual(
      c.entries[0] === undefined
        ? { written: true, address: "Sheet1!H10" }
        : { written: false, address: "Sheet1!H10", content: String(c.cell) },
    );
    expect(syncs(fake)).toBe(c.syncs);
  }
});

test("write-back: a formula typed after the put-back's batch was queued stays a formula; text that looks like one stays text", async () => {
  const fake = await salesCellWorkbook();
  typeAfterSyncs(fake, ["'=A1", "=B4*2"]);
  await writeBackFormula("Sheet1!H10", PROFIT);
  expect(fake.cell("Sheet1", "H10")).toMatchObject({ formula: "=B4*2", format: "#,##0,," });

  const again = await salesCellWorkbook();
  typeAfterSyncs(again, ["=B4*2", "'=A1"]);
  await writeBackFormula("Sheet1!H10", PROFIT);
  expect(again.cell("Sheet1", "H10")).toEqual({ formula: "=A1", value: "=A1", format: "#,##0,," });
});

test("revalidation: typing after each sync in turn is never written over by the re-entry's put-back", async () => {
  for (const entries of [["1"], ["1", "2"], ["1", "2", "3"], [undefined, "2"]]) {
    const fake = await salesCellWorkbook();
    typeAfterSyncs(fake, entries);
    const reentered = await recalculateAddresses(["Sheet1!H10"]);
    const newest = Number(entries[entries.length - 1]);
    expect(fake.cell("Sheet1", "H10")).toEqual({
      formula: newest,
      value: newest,
      format: "#,##0,,",
    });
    expect(reentered).toBe(entries[0] === undefined ? 1 : 0);
  }
});
