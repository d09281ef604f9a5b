// Turns API rows into an Excel-ready table: columns with headers, kinds, units and formats; cell values.

import type { Lang } from "../i18n/language";
import type { Dataset } from "../../src/contract";
import { fieldInfo, labelJa } from "../../src/excel/labels";
import { translator } from "../i18n/messages";
import { isoInstantToJstSerial, isoToSerial } from "../../src/excel/dates";
import { DISPLAY_FORMATS } from "../../src/excel/display-formats";
import {
  decimalsOf,
  moneyFormat,
  numberFormatFor,
  sheetValue,
  type FormatMoneyUnit,
} from "../../src/excel/number-formats";
import { isMoneyAmount } from "../../src/excel/units";
import { headerWithUnit, unitNote } from "./unit-notes";

/** openapi.json FieldUnit. */
export interface FieldUnitInfo {
  key: string;
  label: string;
  unit: string;
}

/** Column kinds beyond the API's unit ids: dates, date-times, links and plain text. */
type ColumnKind = "number" | "date" | "datetime" | "text" | "link" | "boolean";

export interface ColumnSpec {
  key: string;
  header: string;
  kind: ColumnKind;
  /**
   * unit id as shown, when numeric: the table's money unit for an amount of yen (its cells keep
   * yen, shown in that unit by the number format), else the contract's unit (`jpy` for a price).
   */
  unit?: string | undefined;
  numberFormat: string;
  /** text shown for the links of a link column. */
  linkText?: string;
}

export type CellValue = string | number | boolean;

export interface TableData {
  columns: ColumnSpec[];
  rows: CellValue[][];
  /** openapi.json Attribution, shown under the table (a condition of use: README "Attribution"). */
  attribution: { source_label: string; license_note: string; processed_by: string } | undefined;
  /** unit money columns are shown in (by number format; the cells hold yen), for the caption. */
  scale: FormatMoneyUnit;
}

const LINK_KEYS = new Set(["source_url", "pdf_url"]);
const DATETIME_KEYS = new Set(["disclosed_at", "available_for_redistribution_at"]);
const TEXT_KEYS = new Set([
  "code",
  "security_code",
  "edinet_code",
  "doc_id",
  "person_id",
  "fiscal_year",
  "parent_security_code",
]);

function isDateKey(key: string): boolean {
  return (
    key === "date" ||
    /(_date|_from|_to|_end)$/.test(key) ||
    key === "as_of" ||
    key === "valid_from" ||
    key === "valid_to"
  );
}

/** Flattens nested values into one readable cell (arrays of strings joined, known objects summarised). */
function flatten(key: string, value: unknown): unknown {
  if (Array.isArray(value)) {
    return value
      .map((v) => {
        if (typeof v === "string" || typeof v === "number") return String(v);
        if (typeof v === "object" && v !== null) {
          const o = v as Record<string, unknown>;
          // source_refs: doc ids; parent_companies: names with voting share.
          if (typeof o.doc_id === "string") return o.doc_id;
          if (typeof o.name === "string") {
            return typeof o.voting_rights_ratio === "number"
              ? `${o.name} (${o.voting_rights_ratio}%)`
              : o.name;
          }
        }
        return "";
      })
      .filter((s) => s !== "")
      .join(", ");
  }
  if (typeof value === "object" && value !== null) {
    if (key === "capital_relationship") {
      const t = (value as Record<string, unknown>).type;
      return typeof t === "string" ? t : "";
    }
    // standard_exceptions and similar: keys whose lists are non-empty.
    return Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => !Array.isArray(v) || v.length > 0)
      .map(([k, v]) => (Array.isArray(v) ? `${k}: ${v.join(" ")}` : k))
      .join("; ");
  }
  return value;
}

function kindOf(key: string, sample: unknown, unit: string | undefined): ColumnKind {
  if (LINK_KEYS.has(key)) return "link";
  if (DATETIME_KEYS.has(key)) return "datetime";
  if (typeof sample === "boolean") return "boolean";
  if (unit !== undefined || typeof sample === "number") return "number";
  if (TEXT_KEYS.has(key)) return "text";
  if (isDateKey(key)) return "date";
  return "text";
}

export interface ShapeOptions {
  /** caption language. */
  lang: Lang;
  /** header cells: field keys (default, like the functions) or Japanese labels with unit notes. */
  headers?: "keys" | "ja";
  /** unit amounts of yen are shown in (by format: the cells keep yen). */
  scale: FormatMoneyUnit;
  /**
   * the field dictionary the rows come from: its money kinds (openapi.json x-money-kind) keep a
   * price or per-person figure the API counts in `jpy` out of the money unit.
   */
  dataset?: Dataset;
  /** column keys to leave out. */
  omit?: readonly string[];
  /** units for keys the response's fields[] does not cover. */
  extraUnits?: Readonly<Record<string, string>>;
}

/**
 * Shapes response rows into a table. Columns follow the first row's key order (later rows may add
 * keys); units come from the response's `fields[]` (openapi.json FieldUnit); money stays exact yen
 * shown in the unit chosen by its number format (number-formats.ts moneyFormat, as the company
 * sheet's 百万円 rows: an imported cell times a FINANCIAL cell is yen), prices, per-share and
 * per-person figures, counts and ratios as the API sends them, and every percentage is a fraction
 * shown as % (src/excel/number-formats.ts sheetValue).
 * @example shapeTable([{ date: "2026-01-05", close: 100 }], [{ key: "close", label: "終値", unit: "jpy" }], ...)
 */
export function shapeTable(
  rows: readonly Record<string, unknown>[],
  fields: readonly FieldUnitInfo[],
  attribution: TableData["attribution"],
  options: ShapeOptions,
): TableData {
  const units = new Map<string, string>(Object.entries(options.extraUnits ?? {}));
  const labels = new Map<string, string>();
  for (const f of fields) {
    units.set(f.key, f.unit);
    labels.set(f.key, f.label);
  }
  const { dataset } = options;
  // The unit the answer gives with the dictionary's money kind (fields[] carries no kind).
  const amount = (key: string): boolean => {
    const money = dataset !== undefined ? fieldInfo(dataset, key)?.money : undefined;
    return isMoneyAmount({ unit: units.get(key) ?? "", ...(money ? { money } : {}) });
  };
  const keys: string[] = [];
  const seen = new Set<string>(options.omit ?? []);
  for (const row of rows) {
    for (const k of Object.keys(row)) {
      if (!seen.has(k)) {
        seen.add(k);
        keys.push(k);
      }
    }
  }
  const usedHeaders = new Set<string>();
  const columns: ColumnSpec[] = keys.map((key) => {
    const sample = rows.map((r) => r[key]).find((v) => v !== null && v !== undefined);
    const rawUnit = units.get(key);
    const kind = kindOf(key, flatten(key, sample), rawUnit);
    const unit = kind === "number" ? displayUnit(amount(key), rawUnit, options.scale) : undefined;
    // Same rule as the functions' header cells (functions/common.ts): keys unless the user chose
    // Japanese labels.
    const base = options.headers === "ja" ? (labels.get(key) ?? labelJa(key) ?? key) : key;
    let header = options.headers === "ja" && kind === "number" ? headerWithUnit(base, unit) : base;
    if (usedHeaders.has(header)) header = `${header} [${key}]`;
    usedHeaders.add(header);
    const spec: ColumnSpec = { key, header, kind, unit, numberFormat: KIND_FORMAT[kind] };
    if (kind === "link") {
      spec.linkText = key === "pdf_url" ? "PDF" : translator(options.lang)("linkPage");
    }
    return spec;
  });
  const data = rows.map((row) => columns.map((c) => cellValue(row[c.key], c, units.get(c.key))));
  columns.forEach((c, i) => {
    if (c.kind !== "number") return;
    c.numberFormat = amount(c.key)
      ? moneyFormat(options.scale)
      : columnFormat(data, i, units.get(c.key));
  });
  return { columns, rows: data, attribution, scale: options.scale };
}

/** The unit a column is shown in: the table's money unit for an amount of yen, else its own. */
function displayUnit(
  amount: boolean,
  unit: string | undefined,
  scale: FormatMoneyUnit,
): string | undefined {
  return amount ? scale : unit;
}

/** Formats of the columns that are not numbers (a text format would store HYPERLINK as text). */
const KIND_FORMAT: Record<ColumnKind, string> = {
  number: "General",
  date: DISPLAY_FORMATS.date,
  datetime: DISPLAY_FORMATS.dateTime,
  text: "@",
  link: "General",
  boolean: "General",
};

/**
 * The format of a number column that is no amount of yen, as the functions format a value of its
 * unit (src/excel number-formats.ts numberFormatFor; a price in yen with its own decimals) read at
 * the column's most precise value, so one format shows every row's own digits (a DPS column of 60
 * and 62.5 reads 60.0 and 62.5); General for units the functions leave plain.
 */
function columnFormat(
  rows: readonly CellValue[][],
  column: number,
  unit: string | undefined,
): string {
  let precise = 0;
  let most = -1;
  for (const row of rows) {
    const v = row[column];
    if (typeof v !== "number") continue;
    const d = decimalsOf(v);
    if (d > most) {
      most = d;
      precise = v;
    }
  }
  return numberFormatFor(unit, precise, "jpy") ?? "General";
}

function cellValue(raw: unknown, column: ColumnSpec, rawUnit: string | undefined): CellValue {
  const v = flatten(column.key, raw);
  if (v === null || v === undefined) return "";
  switch (column.kind) {
    case "number":
      // Yen as sent (exact; the format shows the unit), a percentage as a fraction.
      return typeof v === "number" ? sheetValue(v, rawUnit, "jpy") : String(v);
    case "date":
      return typeof v === "string" ? (isoToSerial(v) ?? v) : String(v);
    case "datetime":
      return typeof v === "string" ? (isoInstantToJstSerial(v) ?? v) : String(v);
    case "boolean":
      return typeof v === "boolean" ? v : String(v);
    default:
      return typeof v === "string" ? v : String(v);
  }
}

/**
 * The attribution caption written under a table (openapi.json info.description: source_label must
 * be shown).
 */
export function attributionCaption(table: TableData, lang: Lang): string {
  const a = table.attribution;
  // Amounts of yen show the table's unit (displayUnit); a price column keeps `jpy`.
  const hasMoney = table.columns.some((c) => c.kind === "number" && c.unit === table.scale);
  const scaleNote = hasMoney && table.scale !== "jpy" ? unitNote(table.scale, lang) : undefined;
  const t = translator(lang);
  const parts: string[] = [];
  if (a) {
    parts.push(t("captionSource", { label: a.source_label }));
    if (a.processed_by) parts.push(t("captionProcessed", { label: a.processed_by }));
    if (a.license_note) parts.push(a.license_note);
  }
  if (scaleNote) parts.push(t("captionUnit", { unit: scaleNote }));
  return parts.join(" / ");
}
