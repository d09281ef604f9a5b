// The `unit` argument: scales money fields (unit `jpy`) only, never per-share, ratios or counts.

import type { FieldInfo } from "../contract";
import type { MoneyUnit } from "./args";

/** Divisors from yen. */
const MONEY_DIVISORS: Readonly<Record<MoneyUnit, number>> = {
  jpy: 1,
  thousand_jpy: 1_000,
  million_jpy: 1_000_000,
  hundred_million_jpy: 100_000_000,
};

/**
 * Scales one value for display: only when the field's unit is exactly `jpy` (not `jpy_per_share`).
 *
 * @example scaleValue(1_500_000_000, "jpy", "million_jpy") // 1500
 * @example scaleValue(250.5, "jpy_per_share", "million_jpy") // 250.5
 */
export function scaleValue<T>(
  value: T,
  fieldUnit: string | null | undefined,
  unit: MoneyUnit,
): T | number {
  if (typeof value !== "number" || fieldUnit !== "jpy" || unit === "jpy") return value;
  return value / MONEY_DIVISORS[unit];
}

/**
 * What `scaleValue` divides a number by: the unit's divisor for a `jpy` field, else 1.
 *
 * @example moneyDivisor("jpy", "million_jpy") // 1000000
 */
export function moneyDivisor(fieldUnit: string | null | undefined, unit: MoneyUnit): number {
  return fieldUnit === "jpy" ? MONEY_DIVISORS[unit] : 1;
}

/**
 * Whether a money unit applies to a field: an amount of yen only (openapi.json `x-money-kind`
 * "amount", which the field dictionary leaves out), never a price per share or a figure per
 * person the contract also counts in `jpy` (株価 stays 4,355 in a 百万円 table), nor a count or
 * ratio. A yen field outside the field dictionary (no money kind) is an amount.
 *
 * @example isMoneyAmount({ unit: "jpy", money: "per_share" }) // false
 */
export function isMoneyAmount(field: Pick<FieldInfo, "unit" | "money"> | undefined): boolean {
  return field?.unit === "jpy" && field.money === undefined;
}

/**
 * The money unit a field's value takes: `unit` for an amount of yen (isMoneyAmount), else `jpy`
 * (unscaled), so a function's or table's unit never reaches a price.
 *
 * @example moneyUnitFor({ unit: "jpy", money: "per_share" }, "million_jpy") // "jpy"
 */
export function moneyUnitFor(
  field: Pick<FieldInfo, "unit" | "money"> | undefined,
  unit: MoneyUnit,
): MoneyUnit {
  return isMoneyAmount(field) ? unit : "jpy";
}

/** Japanese/English caption of a money unit, for titles. */
export function moneyUnitLabel(unit: MoneyUnit, lang: "en" | "ja"): string {
  const labels: Record<MoneyUnit, [string, string]> = {
    jpy: ["JPY", "円"],
    thousand_jpy: ["thousand JPY", "千円"],
    million_jpy: ["million JPY", "百万円"],
    hundred_million_jpy: ["100 million JPY", "億円"],
  };
  return labels[unit][lang === "ja" ? 1 : 0];
}
