// The Excel stand-in's formula engine: the preview page's parser and evaluator (one implementation of
// how Excel calls a custom function), over the stand-in's workbook cells. See STANDIN.md.
import {
  errorCell,
  formatNumber,
  toDisplayCell,
  type DataTypeArguments,
  type DisplayCell,
} from "./cell-display";
import { evaluate, type FunctionMetadata, type Implementation } from "./evaluate";
import { FormulaSyntaxError, readCellInput, type CellPosition } from "./formula-parser";

/** A cell as the stand-in's workbook stores a value (test/e2e reads this shape). */
export interface StandInCell {
  value: unknown;
  /** A number format that came with a formatted-number result (a data type), or the cell's own. */
  numberFormat?: string;
  /** True when numberFormat belongs to the value (a FormattedNumber data type), not the cell. */
  formatted?: boolean;
  /** Excel's error type name ("NotAvailable", "Value", …) when the value is an error code. */
  error?: string;
  message?: string;
  /** The entity object behind a card cell. */
  entity?: object;
}

const ERROR_TYPES: Record<string, string> = {
  "#N/A": "NotAvailable",
  "#VALUE!": "Value",
  "#NAME?": "Name",
  "#REF!": "Ref",
  "#NUM!": "Num",
  "#DIV/0!": "Div0",
  "#NULL!": "Null",
  "#SPILL!": "Spill",
  "#BUSY!": "Busy",
  "#CALC!": "Calc",
};

/** Excel's error type name for a code ("#N/A" -> "NotAvailable"). */
function errorTypeOf(code: string): string {
  return ERROR_TYPES[code] ?? "Value";
}

/** A display cell (what the engine computes) -> the stand-in's stored cell. */
export function toStandInCell(cell: DisplayCell): StandInCell {
  switch (cell.kind) {
    case "empty":
      return { value: "" };
    case "number":
      return cell.numberFormat !== undefined
        ? { value: cell.value, numberFormat: cell.numberFormat, formatted: true }
        : { value: cell.value };
    case "text":
    case "boolean":
      return { value: cell.value };
    case "entity":
      return cell.raw ? { value: cell.text, entity: cell.raw } : { value: cell.text };
    case "error": {
      const out: StandInCell = { value: cell.code, error: errorTypeOf(cell.code) };
      if (cell.message) out.message = cell.message;
      return out;
    }
  }
}

/** The stand-in's stored cell -> what a reference to it reads. */
export function fromStandInCell(cell: StandInCell | undefined): DisplayCell | undefined {
  if (!cell) return undefined;
  const v = cell.value;
  if (cell.error) return errorCell(String(v), cell.message ?? "");
  if (cell.entity) return toDisplayCell(cell.entity);
  if (typeof v === "number") {
    // Only a formatted-number value is a data type; a cell's own number format is not passed.
    const text = formatNumber(v, cell.numberFormat);
    return cell.formatted && cell.numberFormat !== undefined
      ? { kind: "number", value: v, text, numberFormat: cell.numberFormat }
      : { kind: "number", value: v, text };
  }
  if (typeof v === "boolean") return { kind: "boolean", value: v, text: v ? "TRUE" : "FALSE" };
  if (v === "" || v === null || v === undefined) return { kind: "empty", text: "" };
  return { kind: "text", value: String(v), text: String(v) };
}

export interface StandInFormula {
  /** The formula text as written in the cell ("=KAISHA.PRICE(7203)"). */
  formula: string;
  at: CellPosition;
  sheetName: string;
  metadata: ReadonlyMap<string, FunctionMetadata>;
  implementations: ReadonlyMap<string, Implementation>;
  /** What the formula's sheet shows at a position. */
  cellAt(at: CellPosition): StandInCell | undefined;
  signal: AbortSignal;
  dataTypeArguments: DataTypeArguments;
  emptyArgument: "null" | "zero";
  valuePreview?: boolean;
  onStreamUpdate?: (cells: StandInCell[][]) => void;
}

/**
 * Evaluates a cell's formula with the shared engine. Never rejects: every failure is a cell, and a
 * formula Excel would refuse to enter is #NAME?. Null when `signal` was aborted before a function
 * the formula needs was called (the engine's `evaluate`): the calculation has no result.
 * @example await evaluateStandInFormula({ formula: "=KAISHA.PRICE(7203)", ... }) // [[{ value: 2500 }]]
 */
export async function evaluateStandInFormula(f: StandInFormula): Promise<StandInCell[][] | null> {
  let input;
  try {
    input = readCellInput(f.formula);
  } catch (err) {
    if (err instanceof FormulaSyntaxError) return [[{ value: "#NAME?", error: "Name" }]];
    throw err;
  }
  if (input.kind !== "formula") return [[{ value: "#VALUE!", error: "Value" }]];
  const grid = await evaluate(input.expr, {
    namespace: "KAISHA",
    metadata: f.metadata,
    implementations: f.implementations,
    cellAt: (at) => fromStandInCell(f.cellAt(at)),
    address: f.at,
    sheetName: f.sheetName,
    signal: f.signal,
    dataTypeArguments: f.dataTypeArguments,
    emptyArgument: f.emptyArgument,
    valuePreview: f.valuePreview === true,
    ...(f.onStreamUpdate
      ? {
          onStreamUpdate: (cells: DisplayCell[][]) =>
            f.onStreamUpdate?.(cells.map((row) => row.map(toStandInCell))),
        }
      : {}),
  });
  return grid && grid.map((row) => row.map(toStandInCell));
}
