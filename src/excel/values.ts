// Cell values: date serials (formatted where supported), entity cards and the empty-cell value.

import { isoInstantToJstSerial, isoToSerial } from "./dates";
import { DISPLAY_FORMATS } from "./display-formats";

/** What the host can display; read once at startup from the requirement sets. */
export interface HostCapabilities {
  /**
   * CustomFunctionsRuntime 1.4: formatted numbers `{type: "Double", basicValue, numberFormat}` and
   * entities `{type: "Entity", text, properties}` (web, Windows 2208+, Mac 16.64+).
   */
  dataTypes: boolean;
}

/** Hosts without the requirement set (and Node tests by default). */
export const PLAIN_HOST: HostCapabilities = { dataTypes: false };

/** A formatted number (Excel.DoubleCellValue). */
interface FormattedNumber {
  type: "Double";
  basicValue: number;
  numberFormat: string;
}

interface StringValue {
  type: "String";
  basicValue: string;
}

interface BooleanValue {
  type: "Boolean";
  basicValue: boolean;
}

type PropertyValue = FormattedNumber | StringValue | BooleanValue;

/** An entity card (Excel.EntityCellValue) as a custom function may return it. */
export interface EntityValue {
  type: "Entity";
  text: string;
  properties: Record<string, PropertyValue>;
  layouts?: {
    card?: { title?: { property: string }; sections?: { layout: "List"; properties: string[] }[] };
  };
}

/** Anything placed in a result cell. */
export type Cell = string | number | boolean | FormattedNumber | EntityValue;

/**
 * The value of an empty cell in a result. Returning null inside an array shows 0 in Excel
 * ("by design", OfficeDev/office-js#1503), so a null from the API becomes "": the cell looks empty,
 * ISNUMBER is FALSE, and SUM/AVERAGE skip it instead of counting a false zero.
 */
export const EMPTY: Cell = "";

const DATE_FORMAT = DISPLAY_FORMATS.date;
const DATE_TIME_FORMAT = DISPLAY_FORMATS.dateTime;

/** A number with a display format where supported, else the plain number. */
export function formattedNumber(value: number, numberFormat: string, host: HostCapabilities): Cell {
  return host.dataTypes ? { type: "Double", basicValue: value, numberFormat } : value;
}

/**
 * "YYYY-MM-DD" -> an Excel date serial (never text): formatted `yyyy/mm/dd` where supported.
 * null/undefined -> empty; text that is not a date is kept as text (it is not a date).
 */
export function dateCell(iso: string | null | undefined, host: HostCapabilities): Cell {
  if (iso === null || iso === undefined || iso === "") return EMPTY;
  const serial = isoToSerial(iso);
  return serial === undefined ? iso : formattedNumber(serial, DATE_FORMAT, host);
}

/** An ISO 8601 instant (UTC) -> the JST date-time serial, formatted `yyyy/mm/dd hh:mm` where supported. */
export function dateTimeCell(iso: string | null | undefined, host: HostCapabilities): Cell {
  if (iso === null || iso === undefined || iso === "") return EMPTY;
  const serial = isoInstantToJstSerial(iso);
  return serial === undefined ? iso : formattedNumber(serial, DATE_TIME_FORMAT, host);
}

/** Any API value -> a cell: numbers and booleans stay, null is empty, lists are joined. */
export function plainCell(value: unknown): Cell {
  if (value === null || value === undefined) return EMPTY;
  if (typeof value === "number") return Number.isFinite(value) ? value : EMPTY;
  if (typeof value === "string" || typeof value === "boolean") return value;
  if (Array.isArray(value))
    return value.map((v) => (typeof v === "object" ? JSON.stringify(v) : String(v))).join(", ");
  return JSON.stringify(value);
}

/** Wraps a plain property for an entity card; null properties are left out by the caller. */
function propertyValue(value: string | number | boolean, numberFormat?: string): PropertyValue {
  if (typeof value === "number")
    return { type: "Double", basicValue: value, numberFormat: numberFormat ?? "General" };
  if (typeof value === "boolean") return { type: "Boolean", basicValue: value };
  return { type: "String", basicValue: value };
}

/**
 * An entity card: `text` is what the cell shows; `properties` appear on the card in order (null and
 * undefined values are omitted so the card never shows a false zero).
 */
export function entityCell(
  text: string,
  properties: ReadonlyArray<
    readonly [string, string | number | boolean | null | undefined, string?]
  >,
): EntityValue {
  const props: Record<string, PropertyValue> = {};
  for (const [name, value, format] of properties) {
    if (value === null || value === undefined || value === "") continue;
    props[name] = propertyValue(value, format);
  }
  return {
    type: "Entity",
    text,
    properties: props,
    layouts: {
      card: {
        title: { property: Object.keys(props)[0] ?? "" },
        sections: [{ layout: "List", properties: Object.keys(props) }],
      },
    },
  };
}

/** The marker a stale single value carries in its number format (shown after the value). */
export const STALE_SUFFIX: Readonly<Record<"en" | "ja", string>> = {
  en: " (stale)",
  ja: "（古い値）",
};

/**
 * Marks a single number served from the cache while the API is down: the value stays a number
 * (formulas keep working) and its number format shows the marker, where the host supports
 * formatted numbers. Plain hosts get the bare number (tables say "stale" in their title row).
 *
 * @example staleCell(123, "en", { dataTypes: true }) // {type:"Double", basicValue:123, numberFormat:'General" (stale)"'}
 */
export function staleCell(cell: Cell, lang: "en" | "ja", host: HostCapabilities): Cell {
  if (!host.dataTypes) return cell;
  const suffix = `"${STALE_SUFFIX[lang]}"`;
  if (typeof cell === "number")
    return { type: "Double", basicValue: cell, numberFormat: `General${suffix}` };
  if (typeof cell === "object" && cell.type === "Double") {
    return { ...cell, numberFormat: `${cell.numberFormat}${suffix}` };
  }
  return cell;
}
