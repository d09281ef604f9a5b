// Evaluates a parsed formula the way Excel calls a custom function: arguments shaped by the metadata
// (scalar or matrix, omitted -> null), an invocation object where the function asks for one, and every
// outcome (value, 2-D array, CustomFunctions.Error, thrown Error, streamed result) turned into cells.
import {
  argumentValue,
  EMPTY_CELL,
  errorCell,
  toDisplayGrid,
  type ArgumentValue,
  type DataTypeArguments,
  type DisplayCell,
} from "./cell-display";
import { cellAddress, type CellPosition, type Expr } from "./formula-parser";
import {
  applyOperator,
  callWorksheetFunction,
  negate,
  operate,
  type ArgValue,
  type LazyArg,
} from "./worksheet-functions";

/** The parts of functions.json the preview needs. */
export interface FunctionMetadata {
  id: string;
  name: string;
  description?: string;
  helpUrl?: string;
  parameters: {
    name: string;
    description?: string;
    type?: string;
    dimensionality?: string;
    optional?: boolean;
    repeating?: boolean;
  }[];
  result?: { type?: string; dimensionality?: string };
  options?: {
    cancelable?: boolean;
    requiresAddress?: boolean;
    requiresParameterAddresses?: boolean;
    stream?: boolean;
    volatile?: boolean;
  };
}

export type Implementation = (...args: unknown[]) => unknown;

export interface EvaluationContext {
  /** Functions by id (upper case) with their metadata; `namespace` prefixes their names ("KAISHA"). */
  namespace: string;
  metadata: ReadonlyMap<string, FunctionMetadata>;
  implementations: ReadonlyMap<string, Implementation>;
  /** The value shown in a cell (spilled values included). */
  cellAt(at: CellPosition): DisplayCell | undefined;
  /** Where the formula lives (for invocation.address). */
  address: CellPosition;
  /**
   * Aborted when the formula is replaced, cleared or recalculated: a call already running gets
   * invocation.onCanceled; a call not yet started is not made, and evaluate resolves to null.
   */
  signal: AbortSignal;
  /** A streaming function delivered a newer result. */
  onStreamUpdate?: (cells: DisplayCell[][]) => void;
  /** How referenced cells reach `any` parameters (STANDIN.md "Data-type arguments"); default off. */
  dataTypeArguments?: DataTypeArguments;
  /** What an empty referenced cell passes (STANDIN.md "null and empty"); default null. */
  emptyArgument?: "null" | "zero";
  /** invocation.isInValuePreview: the formula is still being typed (STANDIN.md "Value preview"). */
  valuePreview?: boolean;
  /** The sheet name in invocation.address (default "Preview"). */
  sheetName?: string;
}

type Value = ArgumentValue;

/** 'My sheet'!A1 needs quotes; Sheet1!A1 does not (Excel's address text). */
function quoteSheet(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_.]*$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`;
}

class EvaluationError extends Error {
  constructor(readonly cell: DisplayCell) {
    super(cell.kind === "error" ? cell.message : "error");
  }
}

/**
 * A superseded calculation reached a custom function's call: the call is not made (STANDIN.md
 * "Cancellation"). Not an Excel error: it passes through IFERROR and the like to `evaluate`.
 */
class CanceledCalculation extends Error {
  constructor() {
    super("calculation canceled before the call");
  }
}

function fail(code: string, message: string): never {
  throw new EvaluationError(errorCell(code, message));
}

/**
 * How a referenced cell is read: for a custom function, by the host's data-type mode; for Excel's
 * own functions and operators, as the plain value (an empty cell is empty, not 0).
 */
type ReadMode = "custom" | "worksheet";

function readCell(cell: DisplayCell | undefined, ctx: EvaluationContext, mode: ReadMode): Value {
  return mode === "custom"
    ? argumentValue(cell, ctx.dataTypeArguments, ctx.emptyArgument)
    : argumentValue(cell, "off", "null");
}

function readRange(
  from: CellPosition,
  to: CellPosition,
  ctx: EvaluationContext,
  mode: ReadMode,
): ArgValue {
  const rows: Value[][] = [];
  for (let r = from.row; r <= to.row; r++) {
    const row: Value[] = [];
    for (let c = from.col; c <= to.col; c++) {
      const cell = ctx.cellAt({ row: r, col: c });
      // Excel does not call a custom function whose argument holds an error: it shows that error.
      if (cell?.kind === "error") return { kind: "error", cell };
      row.push(readCell(cell, ctx, mode));
    }
    rows.push(row);
  }
  return { kind: "matrix", rows };
}

function isKaishaCall(expr: Expr, ctx: EvaluationContext): boolean {
  return expr.kind === "call" && expr.name.startsWith(`${ctx.namespace}.`);
}

/** A scalar operand of an operator: errors stop there, a 1x1 range is its value. */
async function operand(expr: Expr, ctx: EvaluationContext): Promise<ArgValue> {
  const v = await argValue(expr, ctx, "worksheet");
  if (v.kind === "error") return v;
  if (v.kind === "scalar") return { kind: "scalar", value: v.value };
  if (v.rows.length === 1 && v.rows[0]?.length === 1)
    return { kind: "scalar", value: v.rows[0][0] ?? null };
  // Implicit intersection is not imitated (STANDIN.md): a range in arithmetic is #VALUE!.
  return { kind: "error", cell: errorCell("#VALUE!", "A range where one value is expected") };
}

async function argValue(
  expr: Expr,
  ctx: EvaluationContext,
  mode: ReadMode = "custom",
): Promise<ArgValue> {
  switch (expr.kind) {
    case "string":
    case "number":
    case "boolean":
      return { kind: "scalar", value: expr.value };
    case "omitted":
      return { kind: "scalar", value: null };
    case "array":
      return { kind: "matrix", rows: expr.rows };
    case "ref": {
      const cell = ctx.cellAt(expr.at);
      return cell?.kind === "error"
        ? { kind: "error", cell }
        : { kind: "scalar", value: readCell(cell, ctx, mode) };
    }
    case "range":
      return readRange(expr.from, expr.to, ctx, mode);
    case "unary": {
      const v = await operand(expr.arg, ctx);
      if (v.kind !== "scalar") return v;
      return operate(() => (expr.op === "-" ? negate(v.value) : negate(negate(v.value))));
    }
    case "binary": {
      // Excel evaluates both operands; the left one's error wins.
      const [a, b] = await Promise.all([operand(expr.left, ctx), operand(expr.right, ctx)]);
      if (a.kind !== "scalar") return a;
      if (b.kind !== "scalar") return b;
      return operate(() => applyOperator(expr.op, a.value, b.value));
    }
    case "call": {
      if (!isKaishaCall(expr, ctx)) return worksheetCall(expr, ctx);
      const grid = await evaluateCall(expr, ctx);
      const first = grid[0]?.[0] ?? EMPTY_CELL;
      // A chained function's result reaches the outer one as Excel would pass it from a cell; a
      // returned "" stays the text "" (IF(…,KAISHA.FINANCIAL(…)) of a null shows empty, not 0).
      const pass = (c: DisplayCell) =>
        c.kind === "empty" ? "" : argumentValue(c, ctx.dataTypeArguments, ctx.emptyArgument);
      if (grid.length === 1 && grid[0]?.length === 1) {
        return first.kind === "error"
          ? { kind: "error", cell: first }
          : { kind: "scalar", value: pass(first) };
      }
      const bad = grid.flat().find((c) => c.kind === "error");
      if (bad) return { kind: "error", cell: bad };
      return { kind: "matrix", rows: grid.map((row) => row.map(pass)) };
    }
  }
}

/** Shapes an argument for one parameter: matrix parameters get 2-D arrays, scalars a single value. */
function shapeFor(
  param: FunctionMetadata["parameters"][number] | undefined,
  arg: ArgValue,
  name: string,
): unknown {
  if (arg.kind === "error") throw new EvaluationError(arg.cell);
  const matrix = param?.dimensionality === "matrix";
  if (matrix) return arg.kind === "matrix" ? arg.rows : [[arg.value]];
  if (arg.kind === "scalar") return arg.value;
  if (arg.rows.length === 1 && arg.rows[0]?.length === 1) return arg.rows[0][0] ?? null;
  return fail("#VALUE!", `${name}: argument ${param?.name ?? "?"} takes one value, not a range`);
}

/** One of Excel's own functions (worksheet-functions.ts): arguments evaluated when it asks. */
function worksheetCall(
  expr: Extract<Expr, { kind: "call" }>,
  ctx: EvaluationContext,
): Promise<ArgValue> {
  const args: LazyArg[] = expr.args.map((a) => ({
    reference: a.kind === "ref" || a.kind === "range",
    omitted: a.kind === "omitted",
    value: () => argValue(a, ctx, "worksheet"),
  }));
  return callWorksheetFunction(expr.name, args);
}

/** A worksheet value as the cells it shows (a range result spills, as a dynamic array does). */
function toGrid(v: ArgValue): DisplayCell[][] {
  if (v.kind === "error") return [[v.cell]];
  return v.kind === "scalar" ? toDisplayGrid(v.value) : toDisplayGrid(v.rows);
}

/** Reads a thrown value the way Excel shows it: CustomFunctions.Error keeps its code and message. */
function thrownToCell(err: unknown): DisplayCell {
  if (err instanceof EvaluationError) return err.cell;
  const grid = toDisplayGrid(err);
  const cell = grid[0]?.[0];
  // A plain Error becomes a bare #VALUE! in Excel: no message is shown.
  return cell?.kind === "error" ? cell : errorCell("#VALUE!");
}

async function evaluateCall(
  expr: Extract<Expr, { kind: "call" }>,
  ctx: EvaluationContext,
): Promise<DisplayCell[][]> {
  const prefix = `${ctx.namespace}.`;
  if (!expr.name.startsWith(prefix)) return toGrid(await worksheetCall(expr, ctx));
  const id = expr.name.slice(prefix.length);
  const meta = ctx.metadata.get(id);
  const impl = ctx.implementations.get(id);
  if (!meta || !impl) return [[errorCell("#NAME?", `Unknown function ${expr.name}`)]];

  const params = meta.parameters;
  const repeating = params.length > 0 && params[params.length - 1]?.repeating === true;
  if (!repeating && expr.args.length > params.length) {
    return [[errorCell("#VALUE!", `${expr.name} takes at most ${params.length} arguments`)]];
  }
  // A required argument left out reaches the function as an omitted one (null), so the function's
  // own #VALUE! says what is missing, in the user's language, and records it for the Problems list
  // (STANDIN.md "Too few arguments"; office-js#710: Excel shows #VALUE! for such a custom call).

  const values = await Promise.all(expr.args.map((a) => argValue(a, ctx)));
  const args: unknown[] = [];
  for (let i = 0; i < params.length; i++) {
    const param = params[i];
    if (param?.repeating) {
      args.push(values.slice(i).map((v) => shapeFor(param, v, expr.name)));
      break;
    }
    const value = values[i];
    args.push(value === undefined ? null : shapeFor(param, value, expr.name));
  }

  // STANDIN.md "Cancellation": Excel does not call a function for a calculation superseded before
  // its call (the cell re-entered or cleared, a newer calculation of it). The check and the abort
  // listener below are in the same turn as the call, so no cancellation falls between them.
  if (ctx.signal.aborted) throw new CanceledCalculation();
  const options = meta.options ?? {};
  const wantsInvocation =
    options.cancelable ||
    options.requiresAddress ||
    options.stream ||
    options.requiresParameterAddresses;
  return new Promise<DisplayCell[][]>((resolve) => {
    // onCanceled is for a call still running: Microsoft's "Cancel a function" cancels a function's
    // execution. A call that returned has none; a streaming one runs until it is cancelled.
    let cancel = () => {};
    const stopListening = () => ctx.signal.removeEventListener("abort", cancel);
    let settled = false;
    const settle = (cells: DisplayCell[][]) => {
      if (!options.stream) stopListening();
      if (!settled) {
        settled = true;
        resolve(cells);
      } else ctx.onStreamUpdate?.(cells);
    };
    if (wantsInvocation) {
      const invocation: Record<string, unknown> = {
        functionName: expr.name,
        address: `${quoteSheet(ctx.sheetName ?? "Preview")}!${cellAddress(ctx.address)}`,
        isInValuePreview: ctx.valuePreview === true,
        setResult: (value: unknown) => settle(toDisplayGrid(value)),
      };
      if (options.requiresParameterAddresses)
        invocation["parameterAddresses"] = expr.args.map(() => "");
      cancel = () => {
        const onCanceled = invocation["onCanceled"];
        if (typeof onCanceled === "function") onCanceled();
      };
      ctx.signal.addEventListener("abort", cancel, { once: true });
      args.push(invocation);
    }
    let returned: unknown;
    try {
      returned = impl(...args);
    } catch (err) {
      stopListening(); // a function that threw is not running, streaming or not
      settle([[thrownToCell(err)]]);
      return;
    }
    if (options.stream) return; // results arrive through invocation.setResult
    Promise.resolve(returned).then(
      (value) => settle(toDisplayGrid(value)),
      (err: unknown) => settle([[thrownToCell(err)]]),
    );
  });
}

/**
 * Evaluates a formula's expression to a rectangle of cells. Never rejects: every failure is a cell.
 * Resolves to null when `ctx.signal` was aborted before a custom function the formula needs was
 * called: a superseded calculation has no result (the caller keeps the newer one's).
 * @example await evaluate(parseFormula('KAISHA.PRICE(7203)'), ctx) // [[{kind: "number", ...}]]
 */
export async function evaluate(
  expr: Expr,
  ctx: EvaluationContext,
): Promise<DisplayCell[][] | null> {
  try {
    if (isKaishaCall(expr, ctx) && expr.kind === "call") return await evaluateCall(expr, ctx);
    return toGrid(await argValue(expr, ctx, "worksheet"));
  } catch (err) {
    if (err instanceof CanceledCalculation) return null;
    return [[thrownToCell(err)]];
  }
}
