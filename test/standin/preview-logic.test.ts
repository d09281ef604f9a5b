// The preview page's logic without a browser: formula parsing, argument shaping, result display and
// spilling, with the CustomFunctions stand-in standing where Excel's runtime would be.
import {
  argumentValue,
  formatNumber,
  toDisplayGrid,
  toDisplayCell,
  type DisplayCell,
} from "../../standin/cell-display";
import { fromStandInCell, toStandInCell } from "../../standin/standin-engine";
import { createStandIn } from "../../standin/custom-functions-standin";
import {
  evaluate,
  type EvaluationContext,
  type FunctionMetadata,
} from "../../standin/evaluate";
import {
  FormulaSyntaxError,
  parseAddress,
  parseFormula,
  readCellInput,
  referencedCells,
} from "../../standin/formula-parser";
import { Sheet } from "../../standin/sheet";
import { callAtCursor } from "../../standin/signature-hint";

describe("preview formula parser", () => {
  test('strings, numbers, booleans and omitted arguments: =KAISHA.FINANCIALS(7203,"sales,net_income",,5,TRUE)', () => {
    expect(parseFormula('KAISHA.FINANCIALS(7203,"sales,net_income",,5,TRUE)')).toEqual({
      kind: "call",
      name: "KAISHA.FINANCIALS",
      args: [
        { kind: "number", value: 7203 },
        { kind: "string", value: "sales,net_income" },
        { kind: "omitted" },
        { kind: "number", value: 5 },
        { kind: "boolean", value: true },
      ],
    });
  });

  test("doubled quotes inside text, negative numbers, percent, trailing omitted argument", () => {
    const expr = parseFormula('kaisha.financial("7203","say ""hi""",-1, 5%,)');
    expect(expr).toEqual({
      kind: "call",
      name: "KAISHA.FINANCIAL",
      args: [
        { kind: "string", value: "7203" },
        { kind: "string", value: 'say "hi"' },
        { kind: "number", value: -1 },
        { kind: "number", value: 0.05 },
        { kind: "omitted" },
      ],
    });
  });

  test("cell references, ranges, array constants and nested DATE()", () => {
    const expr = parseFormula("KAISHA.PRICES($B$2,DATE(2024,1,31),A1:C3,{1,2;3,4})");
    expect(expr.kind === "call" && expr.args).toEqual([
      { kind: "ref", at: { row: 1, col: 1 } },
      {
        kind: "call",
        name: "DATE",
        args: [
          { kind: "number", value: 2024 },
          { kind: "number", value: 1 },
          { kind: "number", value: 31 },
        ],
      },
      { kind: "range", from: { row: 0, col: 0 }, to: { row: 2, col: 2 } },
      {
        kind: "array",
        rows: [
          [1, 2],
          [3, 4],
        ],
      },
    ]);
    expect(referencedCells(expr)).toEqual([
      { from: { row: 1, col: 1 }, to: { row: 1, col: 1 } },
      { from: { row: 0, col: 0 }, to: { row: 2, col: 2 } },
    ]);
  });

  test("formulas Excel would refuse are syntax errors with a position", () => {
    expect(() => readCellInput('=KAISHA.PRICE("7203)')).toThrow(FormulaSyntaxError);
    expect(() => readCellInput("=KAISHA.PRICE(7203")).toThrow('Missing ")"');
    expect(() => readCellInput("=KAISHA.PRICE(toyota)")).toThrow(/Unknown name "toyota"/);
    let thrown: unknown;
    try {
      readCellInput("=KAISHA.PRICE(7203))");
    } catch (err) {
      thrown = err;
    }
    // The stray second ")" is at offset 19 of what the user typed.
    expect(thrown).toBeInstanceOf(FormulaSyntaxError);
    expect((thrown as FormulaSyntaxError).position).toBe(19);
  });

  test("plain input: numbers, TRUE/FALSE and text are constants; blank is empty", () => {
    expect(readCellInput("7203")).toEqual({ kind: "constant", value: 7203 });
    expect(readCellInput("true")).toEqual({ kind: "constant", value: true });
    expect(readCellInput("トヨタ")).toEqual({ kind: "constant", value: "トヨタ" });
    expect(readCellInput("   ")).toEqual({ kind: "empty" });
    expect(parseAddress("AA10")).toEqual({ row: 9, col: 26 });
    expect(parseAddress("A0")).toBeUndefined();
  });
});

describe("preview cell display", () => {
  test("formatted numbers: dates from serials, percent, grouped and General", () => {
    expect(formatNumber(45382, "yyyy-mm-dd")).toBe("2024-03-31");
    expect(formatNumber(45382.5, "yyyy-mm-dd hh:mm")).toBe("2024-03-31 12:00");
    expect(formatNumber(0.1234, "0.0%")).toBe("12.3%");
    expect(formatNumber(1234567.891, "#,##0.00")).toBe("1,234,567.89");
    // General: Excel's 11 characters, large yen amounts in E notation (STANDIN.md "General").
    expect(formatNumber(31379507000000)).toBe("3.13795E+13");
    expect(formatNumber(2e12)).toBe("2E+12");
    expect(formatNumber(-1234567890123)).toBe("-1.2346E+12");
    expect(formatNumber(12345678901)).toBe("12345678901");
    expect(formatNumber(99999999999.6)).toBe("1E+11");
    expect(formatNumber(1234.5678)).toBe("1234.5678");
    expect(formatNumber(0.123456789012)).toBe("0.123456789");
  });

  test("a returned null shows 0 (office-js#1503); an empty string shows nothing", () => {
    expect(toDisplayCell(null)).toMatchObject({ kind: "number", value: 0, text: "0" });
    expect(toDisplayCell("")).toEqual({ kind: "empty", text: "" });
  });

  test("data-type arguments: formatted numbers and entities as objects; 'all' also plain values; empty cells null or 0", () => {
    const date: DisplayCell = {
      kind: "number",
      value: 45382,
      text: "2024-03-31",
      numberFormat: "yyyy-mm-dd",
    };
    const card = toDisplayCell({ type: "Entity", text: "大和自動車", properties: {} });
    expect(argumentValue(date, "off")).toBe(45382);
    expect(argumentValue(date, "formatted")).toEqual({
      type: "Double",
      basicValue: 45382,
      numberFormat: "yyyy-mm-dd",
    });
    expect(argumentValue(card, "formatted")).toEqual({
      type: "Entity",
      text: "大和自動車",
      properties: {},
    });
    expect(argumentValue(card, "off")).toBe("大和自動車");
    const text: DisplayCell = { kind: "text", value: "sales", text: "sales" };
    expect(argumentValue(text, "formatted")).toBe("sales");
    expect(argumentValue(text, "all")).toEqual({ type: "String", basicValue: "sales" });
    expect(argumentValue({ kind: "boolean", value: true, text: "TRUE" }, "all")).toEqual({
      type: "Boolean",
      basicValue: true,
    });
    expect(argumentValue(undefined, "formatted")).toBeNull();
    expect(argumentValue(undefined, "formatted", "zero")).toBe(0);
  });

  test("the stand-in's cells: a cell's own number format is not a data type, a formatted result is", () => {
    expect(fromStandInCell({ value: 45382, numberFormat: "yyyy-mm-dd" })).toEqual({
      kind: "number",
      value: 45382,
      text: "2024-03-31",
    });
    expect(
      fromStandInCell({ value: 45382, numberFormat: "yyyy-mm-dd", formatted: true }),
    ).toMatchObject({ numberFormat: "yyyy-mm-dd" });
    expect(toStandInCell({ kind: "error", code: "#N/A", message: "m", text: "#N/A" })).toEqual({
      value: "#N/A",
      error: "NotAvailable",
      message: "m",
    });
  });

  test("results: formatted numbers, entities, errors, ragged rows padded with #N/A", () => {
    const cf = createStandIn();
    const grid = toDisplayGrid([
      ["date", "close"],
      [{ type: "Double", basicValue: 45382, numberFormat: "yyyy-mm-dd" }, 2500],
      [new cf.Error(cf.ErrorCode.notAvailable, "No price on that day")],
    ]);
    expect(grid.map((row) => row.map((c) => c.text))).toEqual([
      ["date", "close"],
      ["2024-03-31", "2500"],
      ["#N/A", "#N/A"],
    ]);
    expect(grid[2]?.[0]).toMatchObject({ kind: "error", message: "No price on that day" });
    expect(
      toDisplayCell({
        type: "Entity",
        text: "大和自動車",
        properties: { code: { type: "String", basicValue: "7203" } },
      }),
    ).toMatchObject({
      kind: "entity",
      text: "大和自動車",
      properties: [["code", "7203"]],
    });
    expect(toDisplayGrid([])).toEqual([
      [expect.objectContaining({ kind: "error", code: "#VALUE!" })],
    ]);
  });
});

describe("preview evaluation", () => {
  const metadata = new Map<string, FunctionMetadata>([
    [
      "ECHO",
      {
        id: "ECHO",
        name: "ECHO",
        parameters: [
          { name: "value", type: "any" },
          { name: "items", type: "any", dimensionality: "matrix", optional: true },
          { name: "years", type: "number", optional: true },
        ],
        options: { cancelable: true },
      },
    ],
    ["FAIL", { id: "FAIL", name: "FAIL", parameters: [{ name: "kind", type: "string" }] }],
  ]);

  function context(calls: unknown[][], cells: Map<string, number> = new Map()): EvaluationContext {
    const cf = createStandIn();
    (globalThis as { CustomFunctions?: unknown }).CustomFunctions = cf;
    cf.associate("ECHO", (...args: unknown[]) => {
      calls.push(args);
      return [
        [args[0] ?? "none", Array.isArray(args[1]) ? (args[1] as unknown[][]).length : "scalar"],
      ];
    });
    cf.associate("FAIL", async (kind: unknown) => {
      if (kind === "cell") throw new cf.Error(cf.ErrorCode.invalidValue, "years: expected 1-30");
      throw new Error("boom");
    });
    return {
      namespace: "KAISHA",
      metadata,
      implementations: cf.registry,
      cellAt: (p) => {
        const v = cells.get(`${p.row},${p.col}`);
        return v === undefined ? undefined : { kind: "number", value: v, text: String(v) };
      },
      address: { row: 0, col: 0 },
      signal: new AbortController().signal,
    };
  }

  afterEach(() => {
    delete (globalThis as { CustomFunctions?: unknown }).CustomFunctions;
  });

  test("omitted arguments arrive as null, matrix parameters as 2-D arrays, invocation last", async () => {
    const calls: unknown[][] = [];
    const grid = await evaluate(
      parseFormula("KAISHA.ECHO(7203,A1:A2)"),
      context(
        calls,
        new Map([
          ["0,0", 1],
          ["1,0", 2],
        ]),
      ),
    );
    expect(grid?.map((r) => r.map((c) => c.text))).toEqual([["7203", "2"]]);
    expect(calls[0]?.slice(0, 3)).toEqual([7203, [[1], [2]], null]);
    expect(calls[0]?.[3]).toMatchObject({ address: "Preview!A1", isInValuePreview: false });
  });

  test("a multi-cell range to a scalar parameter is #VALUE! and the function is not called", async () => {
    const calls: unknown[][] = [];
    const cells = new Map([
      ["0,0", 1],
      ["1,0", 2],
    ]);
    const grid = await evaluate(parseFormula("KAISHA.ECHO(A1:A2)"), context(calls, cells));
    expect(grid?.[0]?.[0]).toMatchObject({ kind: "error", code: "#VALUE!" });
    expect(calls).toEqual([]);
  });

  test("value preview and data types reach the function as Excel passes them", async () => {
    const calls: unknown[][] = [];
    const ctx: EvaluationContext = {
      ...context(calls),
      cellAt: () => ({
        kind: "number",
        value: 45382,
        text: "2024-03-31",
        numberFormat: "yyyy-mm-dd",
      }),
      dataTypeArguments: "formatted",
      valuePreview: true,
      sheetName: "My sheet",
    };
    await evaluate(parseFormula("KAISHA.ECHO(B1)"), ctx);
    expect(calls[0]?.[0]).toEqual({
      type: "Double",
      basicValue: 45382,
      numberFormat: "yyyy-mm-dd",
    });
    expect(calls[0]?.[3]).toMatchObject({ address: "'My sheet'!A1", isInValuePreview: true });
  });

  test("recalculation cancels the running call: onCanceled fires when the signal aborts", async () => {
    const cf = createStandIn();
    (globalThis as { CustomFunctions?: unknown }).CustomFunctions = cf;
    let canceled = 0;
    cf.associate(
      "ECHO",
      (_a: unknown, _b: unknown, _c: unknown, invocation: { onCanceled?: () => void }) => {
        invocation.onCanceled = () => void canceled++;
        return new Promise(() => undefined); // still running
      },
    );
    const controller = new AbortController();
    void evaluate(parseFormula("KAISHA.ECHO(1)"), {
      ...context([]),
      implementations: cf.registry,
      signal: controller.signal,
    });
    // Let the call start (arguments are read first), then recalculate.
    await new Promise((resolve) => setTimeout(resolve, 0));
    controller.abort();
    expect(canceled).toBe(1);
  });

  test("CustomFunctions.Error keeps its message; a plain Error is a bare #VALUE!; unknown names are #NAME?", async () => {
    const ctx = context([]);
    expect((await evaluate(parseFormula('KAISHA.FAIL("cell")'), ctx))?.[0]?.[0]).toEqual({
      kind: "error",
      code: "#VALUE!",
      message: "years: expected 1-30",
      text: "#VALUE!",
    });
    expect((await evaluate(parseFormula('KAISHA.FAIL("plain")'), ctx))?.[0]?.[0]).toMatchObject({
      code: "#VALUE!",
      message: "",
    });
    expect((await evaluate(parseFormula("KAISHA.NOPE()"), ctx))?.[0]?.[0]).toMatchObject({
      code: "#NAME?",
    });
    expect((await evaluate(parseFormula("KAISHA.ECHO(1,2,3,4)"), ctx))?.[0]?.[0]).toMatchObject({
      code: "#VALUE!",
    });
  });

  test("a call without a required argument is made with it omitted: the function's own refusal is the cell's", async () => {
    const calls: unknown[][] = [];
    const ctx = context(calls);
    const grid = await evaluate(parseFormula("KAISHA.ECHO()"), ctx);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.slice(0, 3)).toEqual([null, null, null]);
    expect(grid?.[0]?.[0]).toMatchObject({ text: "none" });
  });

  test("a result spills from its cell; a typed value in the way gives #SPILL!", () => {
    const sheet = new Sheet();
    sheet.setInput({ row: 0, col: 0 }, "=KAISHA.ECHO(1)", readCellInput("=KAISHA.ECHO(1)"));
    sheet.setResult(
      { row: 0, col: 0 },
      toDisplayGrid([
        ["a", "b"],
        [1, 2],
      ]),
    );
    expect(sheet.valueAt({ row: 1, col: 1 })?.text).toBe("2");
    expect(sheet.at({ row: 1, col: 1 })?.spill).toBe("spilled");
    sheet.setInput({ row: 1, col: 1 }, "x", readCellInput("x"));
    expect(sheet.valueAt({ row: 0, col: 0 })).toMatchObject({ kind: "error", code: "#SPILL!" });
    expect(sheet.valueAt({ row: 0, col: 1 })).toBeUndefined();
  });
});

describe("preview argument hint", () => {
  test("finds the call and argument under the cursor, skipping commas in text, arrays and nested calls", () => {
    expect(callAtCursor('=KAISHA.FINANCIALS(7203,"sales,net_income",')).toEqual({
      name: "KAISHA.FINANCIALS",
      argIndex: 2,
    });
    expect(callAtCursor("=KAISHA.PRICES(7203,DATE(2024,1,")).toEqual({ name: "DATE", argIndex: 2 });
    expect(callAtCursor("=KAISHA.PRICES(7203,DATE(2024,1,31),")).toEqual({
      name: "KAISHA.PRICES",
      argIndex: 2,
    });
    expect(callAtCursor('=KAISHA.FINANCIALS(7203,{"a","b"},"q""x,y"')).toEqual({
      name: "KAISHA.FINANCIALS",
      argIndex: 2,
    });
    expect(callAtCursor("=KAISHA.USAGE()")).toBeUndefined();
    expect(callAtCursor("=KAISHA.FINANCIALS(7203,", 19)).toEqual({
      name: "KAISHA.FINANCIALS",
      argIndex: 0,
    });
  });
});
