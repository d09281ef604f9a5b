// Each cell's last error, recorded by the functions for the Problems list: one entry per cell
// however its address is written, bounded, set on failure and cleared when the cell answers.
import { financial } from "../../functions/financial-cell";
import { run } from "../../functions/run";
import {
  cellErrors,
  cellKey,
  clearCellError,
  getCellError,
  MAX_CELL_ERRORS,
  recordCellError,
  resetCellErrors,
} from "../../src/cell-errors";
import { cellError, invocation, resetSession, useSandbox } from "./harness";

jest.setTimeout(60_000);
afterAll(resetSession);
beforeEach(resetCellErrors);

describe("the registry", () => {
  test("finds a cell whether its sheet is quoted, its references absolute or its case different", () => {
    recordCellError("Sheet1!B2", "#N/A", "Company not found", 1000);
    expect(getCellError("'Sheet1'!$B$2")).toEqual({
      code: "#N/A",
      message: "Company not found",
      at: 1000,
    });
    expect(getCellError("sheet1!b2")?.message).toBe("Company not found");
    expect(getCellError("Sheet1!B3")).toBeUndefined();
    expect(getCellError("Sheet2!B2")).toBeUndefined();
  });

  test("sheet names with spaces and apostrophes, and a spilled range's first cell", () => {
    recordCellError("'Q1 ''24'!$C$5", "#VALUE!", "years: 1-30", 1);
    expect(getCellError("'Q1 ''24'!C5:E9")?.code).toBe("#VALUE!");
    expect(cellKey("'Q1 ''24'!C5")).toBe("q1 '24!C5");
  });

  test("an address without a sheet or not a cell is neither recorded nor found", () => {
    recordCellError("B2", "#N/A", "x", 1);
    recordCellError("Sheet1!Total", "#N/A", "x", 1);
    expect(cellErrors().size).toBe(0);
    expect(getCellError("B2")).toBeUndefined();
  });

  test("a later error for the cell replaces the earlier one; a value clears it", () => {
    recordCellError("Sheet1!A1", "#N/A", "first", 1);
    recordCellError("Sheet1!$A$1", "#VALUE!", "second", 2);
    expect(cellErrors().size).toBe(1);
    expect(getCellError("Sheet1!A1")).toEqual({ code: "#VALUE!", message: "second", at: 2 });
    clearCellError("'Sheet1'!A1");
    expect(getCellError("Sheet1!A1")).toBeUndefined();
  });

  test(`keeps at most ${MAX_CELL_ERRORS} cells, dropping the longest-unchanged first`, () => {
    for (let i = 1; i <= MAX_CELL_ERRORS; i++) recordCellError(`Sheet1!A${i}`, "#N/A", `m${i}`, i);
    // Re-recording A1 makes it the newest, so A2 is the one to go.
    recordCellError("Sheet1!A1", "#N/A", "again", MAX_CELL_ERRORS + 1);
    recordCellError("Sheet2!A1", "#N/A", "new", MAX_CELL_ERRORS + 2);
    expect(cellErrors().size).toBe(MAX_CELL_ERRORS);
    expect(getCellError("Sheet1!A2")).toBeUndefined();
    expect(getCellError("Sheet1!A1")?.message).toBe("again");
    expect(getCellError("Sheet2!A1")?.message).toBe("new");
    expect(getCellError(`Sheet1!A${MAX_CELL_ERRORS}`)?.message).toBe(`m${MAX_CELL_ERRORS}`);
  });

  test("cellErrors() is a snapshot: changing it does not change the registry", () => {
    recordCellError("Sheet1!A1", "#N/A", "x", 1);
    (cellErrors() as Map<string, unknown>).clear();
    expect(getCellError("Sheet1!A1")?.message).toBe("x");
  });
});

describe("functions record the error their cell shows", () => {
  test("an unknown company: the cell's #N/A and its message are recorded under its address", async () => {
    useSandbox();
    const err = await cellError(
      financial("9999", "sales", 0, null, null, null, invocation({ address: "Sheet1!A70" })),
    );
    expect(err.code).toBe("#N/A");
    expect(getCellError("Sheet1!A70")).toMatchObject({ code: "#N/A", message: err.message });
    expect(err.message).toMatch(/9999/);
  });

  test("recorded in the user's language", async () => {
    useSandbox({ lang: "ja" });
    const err = await cellError(
      financial("9999", "sales", 0, null, null, null, invocation({ address: "'売上 表'!$B$2" })),
    );
    expect(getCellError("'売上 表'!B2")?.message).toBe(err.message);
    expect(err.message).toMatch(/[ぁ-んァ-ヶ一-龠]/);
  });

  test("an argument the user must fix is recorded as #VALUE!", async () => {
    useSandbox();
    const err = await cellError(
      financial("7203", "sales", 0, "weekly", null, null, invocation({ address: "Sheet1!C3" })),
    );
    expect(err.code).toBe("#VALUE!");
    expect(getCellError("Sheet1!C3")).toMatchObject({ code: "#VALUE!", message: err.message });
  });

  test("when the cell later answers with a value, its recorded error is cleared", async () => {
    useSandbox();
    await cellError(
      financial("9999", "sales", 0, null, null, null, invocation({ address: "Sheet1!A70" })),
    );
    expect(getCellError("Sheet1!A70")).toBeDefined();
    const value = await financial(
      "7203",
      "sales",
      0,
      null,
      null,
      null,
      invocation({ address: "Sheet1!A70" }),
    );
    expect(typeof value).toBe("number");
    expect(getCellError("Sheet1!A70")).toBeUndefined();
  });

  test("a value preview neither records nor clears: the cell does not keep its answer", async () => {
    useSandbox();
    recordCellError("Sheet1!D4", "#N/A", "earlier failure", 1);
    // Nothing is cached for 6758 yet, so the preview fails (cache-only) without touching D4's record.
    await cellError(
      financial(
        "6758",
        "sales",
        0,
        null,
        null,
        null,
        invocation({ address: "Sheet1!D4", isInValuePreview: true }),
      ),
    );
    expect(getCellError("Sheet1!D4")?.message).toBe("earlier failure");
    await cellError(
      financial(
        "9999",
        "sales",
        0,
        null,
        null,
        null,
        invocation({ address: "Sheet1!E5", isInValuePreview: true }),
      ),
    );
    expect(getCellError("Sheet1!E5")).toBeUndefined();
  });

  test("a canceled call does not overwrite what the cell's newer call recorded", async () => {
    useSandbox();
    const older = invocation({ address: "Sheet1!F6" });
    let release: () => void = () => undefined;
    const slow = run(older, async (ctx) => {
      await new Promise<void>((resolve) => (release = resolve));
      ctx.signal.throwIfAborted();
      return 1;
    });
    older.onCanceled?.();
    recordCellError("Sheet1!F6", "#N/A", "newer call's message", 2);
    release();
    await cellError(slow);
    expect(getCellError("Sheet1!F6")?.message).toBe("newer call's message");
  });

  test("a call without an address (no @requiresAddress) records nothing", async () => {
    useSandbox();
    await cellError(financial("9999", "sales", 0, null, null, null, invocation()));
    expect(cellErrors().size).toBe(0);
  });
});

describe("clearing by any spelling of the address", () => {
  const spellings = [
    ["Sheet1!B2", "'Sheet1'!$B$2"],
    ["'Sheet 1'!C10", "'sheet 1'!c10"],
    ["'My ''Q'' sheet'!B2:C3", "'MY ''q'' SHEET'!$B$2"],
    ["Data!AB12", "data!$ab$12:ac13"],
    ["'日本語'!B2", "'日本語'!$B$2"],
  ];
  test.each(spellings)("recorded as %s, cleared as %s", (recorded, cleared) => {
    resetCellErrors();
    recordCellError(recorded, "#N/A", "x", 1);
    recordCellError("Other!A1", "#N/A", "y", 1);
    clearCellError(cleared);
    expect(getCellError(recorded)).toBeUndefined();
    expect(getCellError("Other!A1")).toBeDefined();
  });

  test("the same reference on two sheets: each value clears its own sheet's error only", () => {
    resetCellErrors();
    recordCellError("'シート 1'!B2", "#N/A", "one", 1);
    recordCellError("Sheet2!$B$2", "#N/A", "two", 1);
    clearCellError("'シート 1'!$b$2");
    expect(getCellError("'シート 1'!B2")).toBeUndefined();
    expect(getCellError("Sheet2!B2")?.message).toBe("two");
    clearCellError("'Sheet2'!B2:C4");
    expect(cellErrors().size).toBe(0);
  });

  test("an address that is no cell, or another cell, clears nothing", () => {
    resetCellErrors();
    recordCellError("Sheet1!B2", "#N/A", "x", 1);
    for (const other of ["Sheet1!B20", "Sheet2!B2", "Sheet1!B", "B2", "Sheet1!B02", " Sheet1!B2x"])
      clearCellError(other);
    expect(getCellError("Sheet1!B2")).toBeDefined();
  });
});
