// Excel's own worksheet functions and operators that the preview and the e2e stand-in calculate
// (the ones the pane's sheets write: IF, IFERROR, ISNUMBER, MEDIAN, AVERAGE, INDEX, arithmetic…),
// each with its documented Excel behaviour (STANDIN.md "Worksheet functions and operators").
import { errorCell, type ArgumentValue, type DisplayCell } from "./cell-display";
import type { BinaryOperator } from "./formula-parser";

/** An argument's value before it is shaped for a parameter. */
export type ArgValue =
  | { kind: "scalar"; value: ArgumentValue }
  | { kind: "matrix"; rows: ArgumentValue[][] }
  | { kind: "error"; cell: DisplayCell };

/** One argument of a worksheet function, evaluated only when the function asks (IF is lazy). */
export interface LazyArg {
  /** a cell reference or range (aggregates skip text and logical values in references). */
  reference: boolean;
  /** an omitted argument (`IF(a,,b)`). */
  omitted: boolean;
  value(): Promise<ArgValue>;
}

type Plain = string | number | boolean | null;

class WorksheetError extends Error {
  constructor(readonly cell: DisplayCell) {
    super(cell.kind === "error" ? cell.message : "error");
  }
}

function fail(code: string, message = ""): never {
  throw new WorksheetError(errorCell(code, message));
}

/** A data type reaches Excel's own functions as its basic value (an entity as its text). */
function plain(value: ArgumentValue): Plain {
  if (value === null || typeof value !== "object") return value;
  if (value["type"] === "Entity") return typeof value["text"] === "string" ? value["text"] : "";
  const basic = value["basicValue"];
  return typeof basic === "string" || typeof basic === "number" || typeof basic === "boolean"
    ? basic
    : null;
}

async function scalarOf(arg: LazyArg | undefined, name: string): Promise<ArgumentValue> {
  if (!arg || arg.omitted) return null;
  const v = await arg.value();
  if (v.kind === "error") throw new WorksheetError(v.cell);
  if (v.kind === "scalar") return v.value;
  if (v.rows.length === 1 && v.rows[0]?.length === 1) return v.rows[0][0] ?? null;
  return fail("#VALUE!", `${name}: a range where one value is expected`);
}

/**
 * A value as a number in arithmetic: an empty cell is 0, TRUE is 1, numeric text is read, other
 * text is #VALUE! (Microsoft Support, "Calculation operators and precedence in Excel": ="1"+"2" is
 * 3; ="" + 1 and ="a"+1 are #VALUE!).
 */
function toNumber(value: ArgumentValue): number {
  const v = plain(value);
  if (v === null) return 0;
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  const t = v.trim();
  if (t !== "" && Number.isFinite(Number(t))) return Number(t);
  return fail("#VALUE!", `"${v}" is not a number`);
}

/** A value as text for `&` (numbers unformatted, TRUE/FALSE, an empty cell as ""). */
function toText(value: ArgumentValue): string {
  const v = plain(value);
  if (v === null) return "";
  if (typeof v === "boolean") return v ? "TRUE" : "FALSE";
  return String(v);
}

/** A condition: numbers are TRUE unless 0, TRUE/FALSE text is read, other text is #VALUE! (IF). */
function toBoolean(value: ArgumentValue): boolean {
  const v = plain(value);
  if (v === null) return false;
  if (typeof v === "boolean") return v;
  if (typeof v === "number") return v !== 0;
  if (/^true$/i.test(v)) return true;
  if (/^false$/i.test(v)) return false;
  return fail("#VALUE!", `"${v}" is not TRUE or FALSE`);
}

/**
 * Excel's comparison: numbers sort before text and text before logical values; text compares
 * without case; an empty cell compares as 0 with a number and as "" with text (Microsoft Support,
 * "Calculation operators and precedence in Excel", comparison operators).
 */
function compare(a: ArgumentValue, b: ArgumentValue): number {
  let x = plain(a);
  let y = plain(b);
  if (x === null) x = typeof y === "string" ? "" : typeof y === "boolean" ? false : 0;
  if (y === null) y = typeof x === "string" ? "" : typeof x === "boolean" ? false : 0;
  const rank = (v: Plain) => (typeof v === "number" ? 0 : typeof v === "string" ? 1 : 2);
  if (rank(x) !== rank(y)) return rank(x) - rank(y);
  if (typeof x === "string" && typeof y === "string") {
    const p = x.toLowerCase();
    const q = y.toLowerCase();
    return p < q ? -1 : p > q ? 1 : 0;
  }
  const p = Number(x);
  const q = Number(y);
  return p < q ? -1 : p > q ? 1 : 0;
}

/** Applies a binary operator to two values (errors in the operands were raised before). */
export function applyOperator(op: BinaryOperator, a: ArgumentValue, b: ArgumentValue): Plain {
  switch (op) {
    case "&":
      return toText(a) + toText(b);
    case "=":
      return compare(a, b) === 0;
    case "<>":
      return compare(a, b) !== 0;
    case "<":
      return compare(a, b) < 0;
    case ">":
      return compare(a, b) > 0;
    case "<=":
      return compare(a, b) <= 0;
    case ">=":
      return compare(a, b) >= 0;
    default:
      break;
  }
  const x = toNumber(a);
  const y = toNumber(b);
  switch (op) {
    case "+":
      return x + y;
    case "-":
      return x - y;
    case "*":
      return x * y;
    case "/":
      return y === 0 ? fail("#DIV/0!", "Division by zero") : x / y;
    default: {
      const r = x ** y;
      return Number.isFinite(r) ? r : fail("#NUM!");
    }
  }
}

/** Negation (`-A1`): the operand as a number. */
export function negate(value: ArgumentValue): number {
  return -toNumber(value);
}

/**
 * The numbers an aggregate (SUM, AVERAGE, MEDIAN, MIN, MAX, COUNT) reads: in references and
 * arrays only numbers count (text, logical values and empty cells are ignored); typed as an
 * argument, logical values and numeric text count too and other text is #VALUE! (Microsoft
 * Support, AVERAGE and MEDIAN: "If a range or cell reference argument contains text, logical
 * values, or empty cells, those values are ignored"). An error anywhere is the result.
 */
async function numbersOf(args: readonly LazyArg[]): Promise<number[]> {
  const out: number[] = [];
  for (const arg of args) {
    if (arg.omitted) continue;
    const v = await arg.value();
    if (v.kind === "error") throw new WorksheetError(v.cell);
    if (v.kind === "matrix") {
      for (const x of v.rows.flat()) {
        const p = plain(x);
        if (typeof p === "number") out.push(p);
      }
    } else if (arg.reference) {
      const p = plain(v.value);
      if (typeof p === "number") out.push(p);
    } else if (plain(v.value) !== null) out.push(toNumber(v.value));
  }
  return out;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

function isBlankValue(v: ArgValue): boolean {
  return v.kind === "scalar" && v.value === null;
}

type WorksheetFunction = (args: readonly LazyArg[], name: string) => Promise<ArgValue>;

const scalar = (value: ArgumentValue): ArgValue => ({ kind: "scalar", value });

/** A function's result as a value (a scalar-valued helper). */
function valued(fn: (args: readonly LazyArg[], name: string) => Promise<Plain>): WorksheetFunction {
  return async (args, name) => scalar(await fn(args, name));
}

/** The worksheet functions, each as Microsoft Support documents it. */
const FUNCTIONS: Record<string, WorksheetFunction> = {
  /** DATE(year, month, day): the date serial; month/day overflow rolls (Support: DATE). */
  DATE: valued(async (args, name) => {
    const [y, m, d] = await Promise.all(args.map((a) => scalarOf(a, name).then(toNumber)));
    if (y === undefined || m === undefined || d === undefined) return fail("#VALUE!");
    const ms = Date.UTC(y, m - 1, d);
    return Math.round((ms - Date.UTC(1899, 11, 30)) / 86_400_000);
  }),
  /** HYPERLINK(link, [friendly_name]): shows the friendly name, else the link (Support: HYPERLINK). */
  HYPERLINK: valued(async (args, name) => {
    const link = toText(await scalarOf(args[0], name));
    return args[1] && !args[1].omitted ? toText(await scalarOf(args[1], name)) : link;
  }),
  /**
   * IF(test, [if_true], [if_false]): only the chosen branch is calculated; an omitted if_false is
   * FALSE, an omitted if_true is 0 (Support: IF).
   */
  IF: async (args, name) => {
    const test = toBoolean(await scalarOf(args[0], name));
    const branch = test ? args[1] : args[2];
    if (!branch) return scalar(test ? 0 : false);
    if (branch.omitted) return scalar(0);
    return branch.value();
  },
  /** IFERROR(value, value_if_error): any error gives the second value (Support: IFERROR). */
  IFERROR: async (args) => {
    const v = args[0] ? await args[0].value() : scalar(null);
    if (v.kind !== "error") return v;
    return args[1] && !args[1].omitted ? args[1].value() : scalar("");
  },
  /** IFNA(value, value_if_na): only #N/A gives the second value (Support: IFNA). */
  IFNA: async (args) => {
    const v = args[0] ? await args[0].value() : scalar(null);
    if (v.kind === "error" && v.cell.kind === "error" && v.cell.code === "#N/A")
      return args[1] && !args[1].omitted ? args[1].value() : scalar("");
    return v;
  },
  /** ISNUMBER(value): TRUE for a number, never an error (Support: IS functions). */
  ISNUMBER: async (args) => {
    const v = args[0] ? await args[0].value() : scalar(null);
    return scalar(v.kind === "scalar" && typeof plain(v.value) === "number");
  },
  ISTEXT: async (args) => {
    const v = args[0] ? await args[0].value() : scalar(null);
    return scalar(v.kind === "scalar" && typeof plain(v.value) === "string");
  },
  /** ISBLANK(value): TRUE only for an empty cell ("" returned by a formula is not blank). */
  ISBLANK: async (args) => scalar(args[0] ? isBlankValue(await args[0].value()) : true),
  ISERROR: async (args) => scalar(args[0] ? (await args[0].value()).kind === "error" : false),
  AND: valued(async (args) => {
    const values = await numbersOrLogicals(args);
    return values.every(Boolean);
  }),
  OR: valued(async (args) => {
    const values = await numbersOrLogicals(args);
    return values.some(Boolean);
  }),
  NOT: valued(async (args, name) => !toBoolean(await scalarOf(args[0], name))),
  SUM: valued(async (args) => (await numbersOf(args)).reduce((a, b) => a + b, 0)),
  COUNT: valued(async (args) => (await numbersOf(args)).length),
  /** AVERAGE: #DIV/0! when no number is given (Support: AVERAGE). */
  AVERAGE: valued(async (args) => {
    const xs = await numbersOf(args);
    return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : fail("#DIV/0!", "No numbers");
  }),
  /** MEDIAN: the middle number, the mean of the two middle ones for an even count (Support: MEDIAN). */
  MEDIAN: valued(async (args) => {
    const xs = await numbersOf(args);
    return xs.length ? median(xs) : fail("#NUM!", "No numbers");
  }),
  MIN: valued(async (args) => {
    const xs = await numbersOf(args);
    return xs.length ? Math.min(...xs) : 0;
  }),
  MAX: valued(async (args) => {
    const xs = await numbersOf(args);
    return xs.length ? Math.max(...xs) : 0;
  }),
  ABS: valued(async (args, name) => Math.abs(toNumber(await scalarOf(args[0], name)))),
  /**
   * RIGHT(text, [num_chars]): the last num_chars characters (1 when omitted, all when more than
   * the length; below 0 is #VALUE!) of the value as text (Support: RIGHT, RIGHTB).
   */
  RIGHT: valued(async (args, name) => {
    const text = toText(await scalarOf(args[0], name));
    const given = args[1] && !args[1].omitted;
    const n = given ? Math.trunc(toNumber(await scalarOf(args[1], name))) : 1;
    if (n < 0) return fail("#VALUE!", "num_chars is below 0");
    return n === 0 ? "" : text.slice(-n);
  }),
  /** INDEX(array, row_num, [column_num]): 1-based; outside the array is #REF! (Support: INDEX). */
  INDEX: async (args, name) => {
    const arr = args[0] ? await args[0].value() : scalar(null);
    if (arr.kind === "error") return arr;
    const rows = arr.kind === "matrix" ? arr.rows : [[arr.value]];
    const r = Math.trunc(toNumber(await scalarOf(args[1], name)));
    const c = args[2] ? Math.trunc(toNumber(await scalarOf(args[2], name))) : 1;
    // A one-row array takes its single index as the column (Support: INDEX, array form).
    const [row, col] = rows.length === 1 && !args[2] ? [1, r] : [r, c];
    const v = row < 1 || col < 1 ? undefined : rows[row - 1]?.[col - 1];
    return v === undefined ? fail("#REF!", "Outside the array") : scalar(v);
  },
};

/** AND/OR: logical values and numbers (0 is FALSE); text and empty cells in references ignored. */
async function numbersOrLogicals(args: readonly LazyArg[]): Promise<boolean[]> {
  const out: boolean[] = [];
  for (const arg of args) {
    const v = await arg.value();
    if (v.kind === "error") throw new WorksheetError(v.cell);
    const values = v.kind === "matrix" ? v.rows.flat() : [v.value];
    for (const x of values) {
      const p = plain(x);
      if (typeof p === "boolean") out.push(p);
      else if (typeof p === "number") out.push(p !== 0);
      else if (typeof p === "string" && !arg.reference && v.kind === "scalar")
        out.push(toBoolean(p));
    }
  }
  if (out.length === 0) fail("#VALUE!", "No logical values");
  return out;
}

/**
 * Calls a worksheet function; every failure is an error value, never a rejection.
 * @example await callWorksheetFunction("MEDIAN", args) // { kind: "scalar", value: 12.5 }
 */
export async function callWorksheetFunction(
  name: string,
  args: readonly LazyArg[],
): Promise<ArgValue> {
  const fn = FUNCTIONS[name];
  if (!fn) return { kind: "error", cell: errorCell("#NAME?", `Unknown function ${name}`) };
  try {
    return await fn(args, name);
  } catch (err) {
    if (err instanceof WorksheetError) return { kind: "error", cell: err.cell };
    throw err;
  }
}

/** Runs an operator's arithmetic, turning its Excel error into an error value. */
export function operate(work: () => Plain): ArgValue {
  try {
    return scalar(work());
  } catch (err) {
    if (err instanceof WorksheetError) return { kind: "error", cell: err.cell };
    throw err;
  }
}
