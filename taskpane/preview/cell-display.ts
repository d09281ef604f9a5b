// Turns what a custom function returns into grid cells the preview can show: numbers with their
// number format (dates from serials), text, booleans, entity cards, and cell errors with messages.

/** One shown cell. `text` is what the grid displays; `error` carries code and message. */
export type DisplayCell =
  | { kind: "empty"; text: "" }
  | { kind: "number"; value: number; text: string; numberFormat?: string }
  | { kind: "text"; value: string; text: string }
  | { kind: "boolean"; value: boolean; text: string }
  | { kind: "entity"; text: string; properties: [string, string][] }
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
  const unquoted = numberFormat.replace(/"[^"]*"/g, "");
  return /y|d/i.test(unquoted) && !/[#0]/.test(unquoted);
}

/** Decimal places written in a format section such as `#,##0.00` (2) or `0.0%` (1). */
function decimalsOf(numberFormat: string): number {
  const m = /\.([0#]+)/.exec(numberFormat);
  return m?.[1]?.length ?? 0;
}

/** General format, kept readable: integers with separators, up to 10 significant digits otherwise. */
function formatGeneral(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1e15) return value.toLocaleString("en-US");
  if (Math.abs(value) >= 1e15 || (value !== 0 && Math.abs(value) < 1e-9))
    return value.toExponential(5).toUpperCase();
  return String(Number(value.toPrecision(10)));
}

/**
 * Formats a number with an Excel number format (the subset KAISHA functions use: dates, percent,
 * `#,##0`, `0.00`, General). The first section of a multi-section format is used.
 * @example formatNumber(45382, "yyyy-mm-dd") // "2024-03-31"
 */
export function formatNumber(value: number, numberFormat?: string): string {
  const format = (numberFormat ?? "General").split(";")[0] ?? "General";
  if (format === "" || /^general$/i.test(format) || format === "@") return formatGeneral(value);
  if (isDateFormat(format)) return formatSerialDate(value, format);
  const decimals = decimalsOf(format);
  const percent = format.includes("%");
  const scaled = percent ? value * 100 : value;
  const grouped = format.includes(",");
  const text = scaled.toLocaleString("en-US", {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
    useGrouping: grouped,
  });
  return percent ? `${text}%` : text;
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
  if (value === null || value === undefined) return EMPTY_CELL;
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
      return { kind: "entity", text: v.text ?? "", properties };
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
