// Turns what a custom function returns into grid cells the preview can show: numbers with their
// number format (dates from serials), text, booleans, entity cards, and cell errors with messages.

/** One shown cell. `text` is what the grid displays; `error` carries code and message. */
export type DisplayCell =
  | { kind: "empty"; text: "" }
  | { kind: "number"; value: number; text: string; numberFormat?: string }
  | { kind: "text"; value: string; text: string }
  | { kind: "boolean"; value: boolean; text: string }
  | { kind: "entity"; text: string; properties: [string, string][]; raw?: object }
  | { kind: "error"; code: string; message: string; text: string };

export const EMPTY_CELL: DisplayCell = { kind: "empty", text: "" };

/** 1899-12-30: Excel's day 0 in the 1900 date system (serial 60 being the phantom 1900-02-29). */
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
const DAY_MS = 86_400_000;

function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}

/**
 * Formats a serial with a date format such as `yyyy-mm-dd`, `yyyy/mm/dd` or `yyyy-mm-dd hh:mm`.
 * Calendar arithmetic in UTC so that no time zone moves the day.
 */
export function formatSerialDate(serial: number, numberFormat: string): string {
  const ms = EXCEL_EPOCH_MS + Math.round(serial * DAY_MS);
  const d = new Date(ms);
  const parts: Record<string, string> = {
    yyyy: String(d.getUTCFullYear()),
    mm: pad(d.getUTCMonth() + 1),
    dd: pad(d.getUTCDate()),
    hh: pad(d.getUTCHours()),
    ss: pad(d.getUTCSeconds()),
  };
  const minutes = pad(d.getUTCMinutes());
  // "mm" after "hh" is minutes, as in Excel's format codes.
  return numberFormat
    .replace(/hh:mm/gi, `${parts["hh"]}:${minutes}`)
    .replace(/yyyy/gi, parts["yyyy"] ?? "")
    .replace(/mm/gi, parts["mm"] ?? "")
    .replace(/dd/gi, parts["dd"] ?? "")
    .replace(/ss/gi, parts["ss"] ?? "");
}

function isDateFormat(numberFormat: string): boolean {
  const unquoted = codeOnly(numberFormat);
  return /y|d/i.test(unquoted) && !/[#0]/.test(unquoted);
}

/** One piece of a format section: a code run (digits, dates, %) or literal text. */
interface FormatPiece {
  literal: boolean;
  text: string;
}

/**
 * A format section split into code and literal text (STANDIN.md "Number formats"): text in double
 * quotes and a character after `\` are shown as they are, `_x` is a space as wide as x, `[...]`
 * (colour, condition) and `*x` (fill) show nothing. Only code outside them formats the value, so a
 * quoted `"%"` is a percent sign and never multiplies by 100.
 */
function formatPieces(section: string): FormatPiece[] {
  const out: FormatPiece[] = [];
  const push = (literal: boolean, text: string): void => {
    const last = out[out.length - 1];
    if (last !== undefined && last.literal === literal) last.text += text;
    else out.push({ literal, text });
  };
  for (let i = 0; i < section.length; i++) {
    const ch = section[i] as string;
    if (ch === '"') {
      const end = section.indexOf('"', i + 1);
      const stop = end === -1 ? section.length : end;
      push(true, section.slice(i + 1, stop));
      i = stop;
    } else if (ch === "\\") {
      push(true, section[i + 1] ?? "");
      i++;
    } else if (ch === "_") {
      push(true, " ");
      i++;
    } else if (ch === "*") {
      i++;
    } else if (ch === "[") {
      const end = section.indexOf("]", i + 1);
      i = end === -1 ? section.length : end;
    } else {
      push(false, ch);
    }
  }
  return out;
}

/** The code of a format section without its literal text (for what the code asks of the value). */
function codeOnly(section: string): string {
  return formatPieces(section)
    .filter((p) => !p.literal)
    .map((p) => p.text)
    .join("");
}

/** Decimal places written in a format section's code such as `#,##0.00` (2) or `0.0%` (1). */
function decimalsOf(code: string): number {
  const m = /\.([0#?]+)/.exec(code);
  return m?.[1]?.length ?? 0;
}

/** The characters a General cell shows in a standard-width column (see STANDIN.md, "General"). */
export const GENERAL_WIDTH = 11;

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
export function formatGeneral(value: number): string {
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
 * Formats a number with an Excel number format (the subset KAISHA functions use: dates, percent,
 * `#,##0`, `0.00`, General, with literal text such as a stale marker `" (stale)"`). The first
 * section of a multi-section format is used. Excel's rules (STANDIN.md "Number formats"): each
 * `%` in the code multiplies by 100 and shows a percent sign; a `%` inside quotes (or after `\`)
 * is only text; `,` between digit placeholders groups thousands.
 * @example formatNumber(45382, "yyyy-mm-dd") // "2024-03-31"
 * @example formatNumber(0.0368, "0.00%") // "3.68%"
 * @example formatNumber(3.68, '0.00"%"') // "3.68%"
 */
export function formatNumber(value: number, numberFormat?: string): string {
  const format = firstSection(numberFormat ?? "General");
  const pieces = formatPieces(format);
  const code = pieces
    .filter((p) => !p.literal)
    .map((p) => p.text)
    .join("");
  if (/^\s*general\s*$/i.test(code) || code.trim() === "" || format === "@") {
    // General with a note after it (a stale value's `General" (stale)"`): the number, then the note.
    const literal = pieces.filter((p) => p.literal).map((p) => p.text);
    return formatGeneral(value) + literal.join("");
  }
  if (isDateFormat(format))
    return pieces.map((p) => (p.literal ? p.text : formatSerialDate(value, p.text))).join("");
  const percents = (code.match(/%/g) ?? []).length;
  // A comma right after the last digit placeholder divides by 1,000 per comma (Microsoft Support,
  // "Review guidelines for customizing a number format": "#,##0,," shows 12,200,000 as 12).
  const scaleCommas = /[0#?.](,+)[^0#?]*$/.exec(code)?.[1]?.length ?? 0;
  const scaled = (value * 100 ** percents) / 1000 ** scaleCommas;
  const grouped = /[0#?],[0#?]/.test(code);
  const number = Math.abs(scaled).toLocaleString("en-US", {
    minimumFractionDigits: decimalsOf(code),
    maximumFractionDigits: decimalsOf(code),
    useGrouping: grouped,
  });
  // The digits go where the code's first digit placeholder run is; code characters other than
  // placeholders (%, $, spaces, signs) are shown where they stand.
  let placed = false;
  const text = pieces
    .map((p) => {
      if (p.literal) return p.text;
      return p.text
        .split(/([0#?][0#?,.]*)/)
        .map((part, i) => {
          if (i % 2 === 0) return part; // code between placeholder runs: %, $, spaces
          if (placed) return "";
          placed = true;
          return number;
        })
        .join("");
    })
    .join("");
  const negative = scaled < 0 && /[1-9]/.test(number);
  return `${negative ? "-" : ""}${text}`;
}

/** The first section of a format (`0.0%;[Red]-0.0%` -> `0.0%`), `;` inside quotes kept. */
function firstSection(format: string): string {
  let quoted = false;
  for (let i = 0; i < format.length; i++) {
    const ch = format[i];
    if (ch === '"') quoted = !quoted;
    else if (ch === "\\") i++;
    else if (ch === ";" && !quoted) return format.slice(0, i);
  }
  return format;
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
