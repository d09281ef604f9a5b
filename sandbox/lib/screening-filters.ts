// The /screening filter grammar `field:op:value[:unit]`, unit conversion and the migration guard.
import { ApiError } from "./api-error";

type Operator = "gte" | "lte" | "gt" | "lt" | "eq";
const OPERATORS: readonly Operator[] = ["gte", "lte", "gt", "lt", "eq"];

/** A catalog entry as the parser needs it (openapi.json ScreeningField). */
export interface CatalogField {
  key: string;
  unit: string | null;
  type: "numeric" | "enum";
}

/** One parsed condition; `threshold` is already in the field's own unit. */
export interface FilterCondition {
  field: string;
  op: Operator;
  threshold: number;
}

/**
 * openapi.json getScreening: units convertible within one kind, as factors to the kind's base unit.
 */
const UNIT_KINDS: readonly Readonly<Record<string, number>>[] = [
  { jpy: 1, million_jpy: 1_000_000, hundred_million_jpy: 100_000_000 },
  { ratio: 1, percent: 0.01 },
];

/**
 * openapi.json getScreening: money thresholds in (0, 1,000,000) yen look like the old
 * 100-million-yen unit.
 */
const MIGRATION_GUARD_LIMIT_JPY = 1_000_000;

/** The units a field accepts: its kind's units, or only its own unit when it has no counterpart. */
export function acceptedUnits(fieldUnit: string): string[] {
  const kind = UNIT_KINDS.find((units) => fieldUnit in units);
  return kind === undefined ? [fieldUnit] : Object.keys(kind);
}

/** Converts `value` written in `unit` to `fieldUnit`, or throws 400 listing the accepted units. */
function convert(
  value: number,
  unit: string,
  fieldUnit: string,
  field: string,
  condition: string,
): number {
  if (unit === fieldUnit) return value;
  const kind = UNIT_KINDS.find((units) => fieldUnit in units && unit in units);
  if (kind === undefined) {
    const accepted = acceptedUnits(fieldUnit);
    throw ApiError.param(
      "filters",
      "invalid",
      `unit for ${field}: ${accepted.join(", ")}`,
      `Unit '${unit}' in '${condition}' cannot be converted to ${field}'s unit ${fieldUnit}; accepted units: ${accepted.join(", ")}.`,
    );
  }
  const result = (value * (kind[unit] ?? 1)) / (kind[fieldUnit] ?? 1);
  // Avoid binary noise such as 0.15000000000000002 from percent -> ratio.
  return Number(result.toPrecision(15));
}

/**
 * Parses the `filters` parameter: comma-separated `field:op:value[:unit]` conditions (AND).
 * Fields must be numeric catalog keys; thresholds are converted to the field's own unit.
 * @example parseFilters("marketCap:gte:1000:hundred_million_jpy", catalog)
 */
export function parseFilters(
  text: string,
  catalog: ReadonlyMap<string, CatalogField>,
): FilterCondition[] {
  const conditions: FilterCondition[] = [];
  for (const raw of text.split(",")) {
    const condition = raw.trim();
    const parts = condition.split(":");
    if (parts.length < 3 || parts.length > 4 || parts.some((p) => p.trim() === "")) {
      throw ApiError.param(
        "filters",
        "invalid_format",
        "field:op:value[:unit], comma-separated",
        `Filter '${condition}' must be written field:op:value or field:op:value:unit.`,
      );
    }
    const [field = "", op = "", valueText = "", unitText] = parts.map((p) => p.trim());
    const entry = catalog.get(field);
    if (entry === undefined || entry.type !== "numeric" || entry.unit === null) {
      throw ApiError.param(
        "filters",
        "unknown_value",
        "a numeric key of GET /screening/fields",
        `Unknown screening metric '${field}' in filters; use a numeric key of GET /screening/fields.`,
      );
    }
    if (!(OPERATORS as readonly string[]).includes(op)) {
      throw ApiError.param(
        "filters",
        "unknown_value",
        `operator: ${OPERATORS.join(", ")}`,
        `Unknown operator '${op}' in '${condition}'; use ${OPERATORS.join(", ")}.`,
      );
    }
    const value = Number(valueText);
    if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(valueText) || !Number.isFinite(value)) {
      throw ApiError.param(
        "filters",
        "invalid_type",
        "number",
        `Threshold '${valueText}' in '${condition}' is not a number.`,
      );
    }
    const unit = unitText ?? entry.unit;
    // openapi.json getScreening: the guard applies when the unit is omitted or is the field's own
    // unit.
    if (entry.unit === "jpy" && unit === "jpy" && value > 0 && value < MIGRATION_GUARD_LIMIT_JPY) {
      throw ApiError.param(
        "filters",
        "out_of_range",
        `yen: 0 or at least ${MIGRATION_GUARD_LIMIT_JPY}, or an explicit unit (million_jpy, hundred_million_jpy)`,
        `Threshold ${valueText} for ${field} looks like the old 100-million-yen unit: money thresholds are in yen. ` +
          `Write ${field}:${op}:${valueText}:hundred_million_jpy, or the amount in yen.`,
      );
    }
    conditions.push({
      field,
      op: op as Operator,
      threshold: convert(value, unit, entry.unit, field, condition),
    });
  }
  return conditions;
}

/** True when `value` satisfies the condition. */
export function matches(value: number, condition: FilterCondition): boolean {
  switch (condition.op) {
    case "gte":
      return value >= condition.threshold;
    case "lte":
      return value <= condition.threshold;
    case "gt":
      return value > condition.threshold;
    case "lt":
      return value < condition.threshold;
    default:
      return value === condition.threshold;
  }
}
