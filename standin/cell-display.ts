// Turns what a custom function returns into grid cells the preview can show: numbers with their
// number format (dates from serials), text, booleans, entity cards, and cell errors with messages.
import { format } from "numfmt";

/** One shown cell. `text` is what the grid displays; `error` carries code and message. */
export type DisplayCell =
  | { kind: "empty"; text: "" }
  | { kind: "number"; value: number; text: string; numberFormat?: string }
  | { kind: "text"; value: string; text: string }
  | { kind: "boolean"; value: boolean; text: string }
  | { kind: "entity"; text: string; properties: [string, string][]; raw?: object }
  | { kind: "error"; code: string; message: string; text: string };

export const EMPTY_CELL: DisplayCell = { kind: "empty", text: "" };

/** The characters a General cell shows in a standard-width column (see STANDIN.md, "General"). */
const GENERAL_WIDTH = 11;

/** "1.23457e+11" -> "1.23457E+11", exponent at least two digits, mantissa without trailing zeros. */
function scientific(value: number, digits: number): string {
  const [mantissa = "0", exponent = "0"] = value.toExponential(digits).split("e");
  const m = mantissa.includes(".") ? mantissa.replace(/\.?0+$/, "") : mantissa;
  const e = Number(exponent);
  return `${m}E${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
}

/** The most precise E notation that fits the General width. */
function fitScientific(value: number): string {
  for (let digits = GENERAL_WIDTH; digits > 0; digits--) {
    const text = scientific(value, digits);
    if (text.length <= GENERAL_WIDTH) return text;
  }
  return scientific(value, 0);
}

/**
 * Excel's General format in a standard-width column: at most 11 characters, no thousands
 * separators; integers of 12 or more digits (large yen amounts) and tiny fractions switch to E
 * notation (31379507000000 -> "3.13795E+13"); other decimals are rounded to fit.
 */
function formatGeneral(value: number): string {
  if (value === 0) return "0";
  const abs = Math.abs(value);
  const sign = value < 0 ? 1 : 0;
  const intDigits = abs >= 1 ? Math.floor(Math.log10(abs)) + 1 : 1;
  if (intDigits + sign > GENERAL_WIDTH || abs < 1e-9) return fitScientific(value);
  // Decimals that fit after the integer digits, the sign and the point.
  const room = Math.max(0, GENERAL_WIDTH - sign - intDigits - 1);
  const fixed = value.toFixed(Math.min(room, 20));
  const trimmed = fixed.includes(".") ? fixed.replace(/\.?0+$/, "") : fixed;
  // Rounded away entirely (0.0000001234) or up past the width (99999999999.6): E notation.
  if (trimmed === "0" || trimmed === "-0" || trimmed.length > GENERAL_WIDTH)
    return fitScientific(value);
  return trimmed;
}

/**
 * Formats a number with an Excel number format code as Excel shows it in a cell, by numfmt (a
 * maintained implementation of Excel's format codes: sections, percent, literal text, `_x` and
 * `[...]`, thousands scaling by trailing commas, dates from 1900-system serials). A plain General
 * code is the cell's width rule rather than a code (`formatGeneral`: numfmt's General keeps six
 * significant digits whatever the sign, where an 11-character cell gives a negative one fewer).
 * STANDIN.md "Number formats" lists what the stand-in relies on; its examples are checked by
 * test/standin/number-format-rows.test.ts.
 * @example formatNumber(45382, "yyyy-mm-dd") // "2024-03-31"
 * @example formatNumber(0.0368, "0.00%") // "3.68%"
 * @example formatNumber(3.68, '0.00"%"') // "3.68%"
 */
export function formatNumber(value: number, numberFormat?: string): string {
  const code = numberFormat ?? "General";
  if (/^\s*general\s*$/i.test(code)) return formatGeneral(value);
  // A non-breaking space where a format code asks for one (`_)`) is a plain space in our text.
  return format(code, value, { nbsp: false });
}

/** The shape of `CustomFunctions.Error` (the stand-in's or a host's). */
function isCellErrorLike(value: unknown): value is { code: string; message?: string } {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { code?: unknown }).code === "string" &&
    /^#[A-Z0-9/!?]+/.test((value as { code: string }).code) &&
    !("type" in value)
  );
}

/**
 * A stand-in cell (install.ts `read`) as Excel shows it: numbers by their number format,
 * booleans as TRUE/FALSE, an error by its code (`#VALUE!`, `#N/A`), never by the error type name
 * (`Value`, `NotAvailable`) the stand-in keeps beside it for valuesAsJson.
 * @example standInCellText({ value: "#N/A", error: "NotAvailable" }) // { text: "#N/A", kind: "error" }
 */
export function standInCellText(cell: { value: unknown; numberFormat?: string; error?: string }): {
  text: string;
  kind: "error" | "empty" | "number" | "boolean" | "text";
} {
  const v = cell.value;
  if (cell.error) {
    const code = typeof v === "string" && v.startsWith("#") ? v : errorCodeOf(cell.error);
    return { text: code, kind: "error" };
  }
  if (v === null || v === undefined || v === "") return { text: "", kind: "empty" };
  if (typeof v === "number") return { text: formatNumber(v, cell.numberFormat), kind: "number" };
  if (typeof v === "boolean") return { text: v ? "TRUE" : "FALSE", kind: "boolean" };
  const text = String(v);
  return { text, kind: text.startsWith("#") ? "error" : "text" };
}

/** Excel's error type names (valuesAsJson `errorType`) and the codes a cell shows for them. */
const ERROR_CODES: Record<string, string> = {
  NotAvailable: "#N/A",
  Value: "#VALUE!",
  Name: "#NAME?",
  Ref: "#REF!",
  Num: "#NUM!",
  Div0: "#DIV/0!",
  Null: "#NULL!",
  Spill: "#SPILL!",
  Busy: "#BUSY!",
  Calc: "#CALC!",
};

function errorCodeOf(errorType: string): string {
  return ERROR_CODES[errorType] ?? "#VALUE!";
}

/** A cell error as the grid shows it. */
export function errorCell(code: string, message = ""): DisplayCell {
  return { kind: "error", code, message, text: code };
}

function propertyText(value: unknown): string {
  if (typeof value !== "object" || value === null) return String(value ?? "");
  const v = value as { type?: string; basicValue?: unknown; numberFormat?: string; text?: string };
  if (v.type === "Double" && typeof v.basicValue === "number")
    return formatNumber(v.basicValue, v.numberFormat);
  if (v.type === "Entity") return v.text ?? "";
  return String(v.basicValue ?? "");
}

/** One returned value -> a display cell. Unknown shapes are shown as text rather than dropped. */
export function toDisplayCell(value: unknown): DisplayCell {
  // STANDIN.md "null and empty": Excel shows a returned null as 0 (office-js#1503, by design);
  // "" is the empty-looking value.
  if (value === null || value === undefined) return { kind: "number", value: 0, text: "0" };
  if (typeof value === "number") {
    return Number.isFinite(value)
      ? { kind: "number", value, text: formatNumber(value) }
      : errorCell("#NUM!");
  }
  if (typeof value === "string")
    return value === "" ? EMPTY_CELL : { kind: "text", value, text: value };
  if (typeof value === "boolean") return { kind: "boolean", value, text: value ? "TRUE" : "FALSE" };
  if (isCellErrorLike(value)) return errorCell(value.code, value.message ?? "");
  if (typeof value === "object") {
    const v = value as {
      type?: string;
      basicValue?: unknown;
      numberFormat?: string;
      text?: string;
      properties?: object;
    };
    if (v.type === "Double" && typeof v.basicValue === "number") {
      const cell: DisplayCell = {
        kind: "number",
        value: v.basicValue,
        text: formatNumber(v.basicValue, v.numberFormat),
      };
      return v.numberFormat ? { ...cell, numberFormat: v.numberFormat } : cell;
    }
    if (v.type === "String" && typeof v.basicValue === "string") return toDisplayCell(v.basicValue);
    if (v.type === "Boolean" && typeof v.basicValue === "boolean")
      return toDisplayCell(v.basicValue);
    if (v.type === "Entity") {
      const properties = Object.entries(v.properties ?? {}).map(
        ([k, p]) => [k, propertyText(p)] as [string, string],
      );
      return { kind: "entity", text: v.text ?? "", properties, raw: v };
    }
  }
  return { kind: "text", value: String(value), text: String(value) };
}

/**
 * A function result -> a rectangle of display cells. A scalar becomes 1x1; ragged rows are padded
 * with #N/A like Excel does; an empty array is #VALUE! ("the function returned nothing").
 */
export function toDisplayGrid(result: unknown): DisplayCell[][] {
  if (!Array.isArray(result)) return [[toDisplayCell(result)]];
  if (result.length === 0) return [[errorCell("#VALUE!", "The function returned an empty array")]];
  const rows = result.map((row: unknown) => (Array.isArray(row) ? row : [row]));
  const width = Math.max(...rows.map((r) => r.length));
  if (width === 0) return [[errorCell("#VALUE!", "The function returned an empty array")]];
  return rows.map((row) =>
    Array.from({ length: width }, (_, i) =>
      i < row.length ? toDisplayCell(row[i]) : errorCell("#N/A"),
    ),
  );
}

/** The plain value a cell reference passes to a function (Excel passes the underlying number). */
export function referenceValue(cell: DisplayCell | undefined): string | number | boolean | null {
  if (!cell) return null;
  switch (cell.kind) {
    case "number":
    case "text":
    case "boolean":
      return cell.value;
    case "entity":
      return cell.text;
    case "error":
    case "empty":
      return null;
  }
}

/**
 * How a referenced cell reaches an `any` parameter when functions.json has
 * allowCustomDataForDataTypeAny and the host has CustomFunctionsRuntime 1.4 (STANDIN.md):
 * "off" plain values; "formatted" formatted numbers and entities as their data-type objects
 * (what Microsoft documents); "all" every non-empty cell as an object (String, Boolean, Double).
 */
export type DataTypeArguments = "off" | "formatted" | "all";

/** A value as a custom function receives it: plain, or an Excel data-type object. */
export type ArgumentValue = string | number | boolean | null | Record<string, unknown>;

/**
 * The value a reference passes, by the host's data-type mode. An empty cell passes null (Excel on
 * the web) or 0 (Excel on Windows), per `empty`.
 */
export function argumentValue(
  cell: DisplayCell | undefined,
  mode: DataTypeArguments = "off",
  empty: "null" | "zero" = "null",
): ArgumentValue {
  if (!cell || cell.kind === "empty") return empty === "zero" ? 0 : null;
  if (mode === "off") return referenceValue(cell);
  switch (cell.kind) {
    case "number": {
      const formatted = cell.numberFormat !== undefined && !/^general$/i.test(cell.numberFormat);
      if (formatted)
        return { type: "Double", basicValue: cell.value, numberFormat: cell.numberFormat };
      return mode === "all" ? { type: "Double", basicValue: cell.value } : cell.value;
    }
    case "entity":
      return (
        (cell.raw as Record<string, unknown> | undefined) ?? {
          type: "Entity",
          text: cell.text,
          properties: {},
        }
      );
    case "text":
      return mode === "all" ? { type: "String", basicValue: cell.value } : cell.value;
    case "boolean":
      return mode === "all" ? { type: "Boolean", basicValue: cell.value } : cell.value;
    case "error":
      return null;
  }
}
