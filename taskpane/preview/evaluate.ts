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
  /** Aborted when the formula is replaced or recalculated: wired to invocation.onCanceled. */
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
/** An argument's value before it is shaped for a parameter. */
type ArgValue =
  | { kind: "scalar"; value: Value }
  | { kind: "matrix"; rows: Value[][] }
  | { kind: "error"; cell: DisplayCell };

/** Excel's own worksheet functions the preview understands (enough to write dates and lists). */
const BUILTINS: Record<string, (args: Value[]) => string | number | boolean | null> = {
  /** DATE(year, month, day) -> the date serial, as Excel computes it (month/day overflow rolls). */
  DATE: ([y, m, d]) => {
    if (typeof y !== "number" || typeof m !== "number" || typeof d !== "number")
      throw new TypeError("DATE needs numbers");
    const ms = Date.UTC(y, m - 1, d);
    return Math.round((ms - Date.UTC(1899, 11, 30)) / 86_400_000);
  },
};

/** 'My sheet'!A1 needs quotes; Sheet1!A1 does not (Excel's address text). */
function quoteSheet(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_.]*$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`;
}

class EvaluationError extends Error {
  constructor(readonly cell: DisplayCell) {
    super(cell.kind === "error" ? cell.message : "error");
  }
}

function fail(code: string, message: string): never {
  throw new EvaluationError(errorCell(code, message));
}

function readRange(from: CellPosition, to: CellPosition, ctx: EvaluationContext): ArgValue {
  const rows: Value[][] = [];
  for (let r = from.row; r <= to.row; r++) {
    const row: Value[] = [];
    for (let c = from.col; c <= to.col; c++) {
      const cell = ctx.cellAt({ row: r, col: c });
      // Excel does not call a custom function whose argument holds an error: it shows that error.
      if (cell?.kind === "error") return { kind: "error", cell };
      row.push(argumentValue(cell, ctx.dataTypeArguments, ctx.emptyArgument));
    }
    rows.push(row);
  }
  return { kind: "matrix", rows };
}

async function argValue(expr: Expr, ctx: EvaluationContext): Promise<ArgValue> {
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
        : { kind: "scalar", value: argumentValue(cell, ctx.dataTypeArguments, ctx.emptyArgument) };
    }
    case "range":
      return readRange(expr.from, expr.to, ctx);
    case "call": {
      const grid = await evaluateCall(expr, ctx);
      const first = grid[0]?.[0] ?? EMPTY_CELL;
      // A chained function's result reaches the outer one as Excel would pass it from a cell.
      const pass = (c: DisplayCell) => argumentValue(c, ctx.dataTypeArguments, ctx.emptyArgument);
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

function builtin(name: string, args: ArgValue[]): DisplayCell[][] {
  const fn = BUILTINS[name];
  if (!fn) return [[errorCell("#NAME?", `Unknown function ${name}`)]];
  const values = args.map((a) => {
    if (a.kind === "error") throw new EvaluationError(a.cell);
    if (a.kind === "matrix") return fail("#VALUE!", `${name} takes single values`);
    // Excel's own functions read the basic value of a data type.
    const v = a.value;
    return v !== null && typeof v === "object" ? ((v["basicValue"] as Value) ?? null) : v;
  });
  try {
    return toDisplayGrid(fn(values));
  } catch {
    return [[errorCell("#VALUE!", `${name}: invalid arguments`)]];
  }
}

/** Reads a thrown value the way Excel shows it: CustomFunctions.Error keeps its code and message. */
export function thrownToCell(err: unknown): DisplayCell {
  if (err instanceof EvaluationError) return err.cell;
  const grid = toDisplayGrid(err);
  const cell = grid[0]?.[0];
  // A plain Error becomes a bare #VALUE! in Excel (REFERENCE): no message is shown.
  return cell?.kind === "error" ? cell : errorCell("#VALUE!");
}

async function evaluateCall(
  expr: Extract<Expr, { kind: "call" }>,
  ctx: EvaluationContext,
): Promise<DisplayCell[][]> {
  const prefix = `${ctx.namespace}.`;
  if (!expr.name.startsWith(prefix)) {
    const args = await Promise.all(expr.args.map((a) => argValue(a, ctx)));
    return builtin(expr.name, args);
  }
  const id = expr.name.slice(prefix.length);
  const meta = ctx.metadata.get(id);
  const impl = ctx.implementations.get(id);
  if (!meta || !impl) return [[errorCell("#NAME?", `Unknown function ${expr.name}`)]];

  const params = meta.parameters;
  const repeating = params.length > 0 && params[params.length - 1]?.repeating === true;
  if (!repeating && expr.args.length > params.length) {
    return [[errorCell("#VALUE!", `${expr.name} takes at most ${params.length} arguments`)]];
  }
  // Excel refuses a formula with too few arguments; an omitted one (",,") still counts as given.
  const required = params.filter((p) => !p.optional && !p.repeating).length;
  if (expr.args.length < required) {
    return [[errorCell("#VALUE!", `${expr.name} needs at least ${required} argument(s)`)]];
  }

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

  const options = meta.options ?? {};
  const wantsInvocation =
    options.cancelable ||
    options.requiresAddress ||
    options.stream ||
    options.requiresParameterAddresses;
  return new Promise<DisplayCell[][]>((resolve) => {
    let settled = false;
    const settle = (cells: DisplayCell[][]) => {
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
      ctx.signal.addEventListener("abort", () => {
        const onCanceled = invocation["onCanceled"];
        if (typeof onCanceled === "function") onCanceled();
      });
      args.push(invocation);
    }
    let returned: unknown;
    try {
      returned = impl(...args);
    } catch (err) {
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
 * @example await evaluate(parseFormula('KAISHA.PRICE(7203)'), ctx) // [[{kind: "number", ...}]]
 */
export async function evaluate(expr: Expr, ctx: EvaluationContext): Promise<DisplayCell[][]> {
  try {
    if (expr.kind === "call") return await evaluateCall(expr, ctx);
    const value = await argValue(expr, ctx);
    if (value.kind === "error") return [[value.cell]];
    return value.kind === "scalar" ? toDisplayGrid(value.value) : toDisplayGrid(value.rows);
  } catch (err) {
    return [[thrownToCell(err)]];
  }
}
