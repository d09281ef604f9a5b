// Unit notes of the task pane's headers and captions ("百万円", "%", "倍"): money units and
// percentages as src/excel names them, other contract units (openapi.json FieldUnit) by a short word.

import type { Lang } from "../i18n/language";
import { unitLabel } from "../../src/excel/labels";
import { isMoneyUnit } from "../../src/excel/money-units";
import { isPercentage } from "../../src/excel/percent-scale";
import { moneyUnitLabel } from "../../src/excel/units";

/** Short notes of the units that are neither money nor a percentage. */
const OTHER_NOTE: Record<Lang, Record<string, string>> = {
  ja: {
    jpy_per_share: "円/株",
    times: "倍",
    points: "pt",
    years: "年",
    days: "日",
    months: "か月",
    shares: "株",
    people: "人",
    t_co2e: "t-CO2e",
    count: "件",
  },
  en: {
    jpy_per_share: "JPY/share",
    times: "x",
    points: "pt",
    years: "years",
    days: "days",
    months: "months",
    shares: "shares",
    people: "people",
    t_co2e: "t-CO2e",
    count: "count",
  },
};

/**
 * The note of a unit: a money unit as src/excel/units.ts captions it (百万円, million JPY), a
 * percentage `%` (its cells are fractions shown as %), others by OTHER_NOTE; undefined for none.
 */
export function unitNote(unit: string | undefined, lang: Lang): string | undefined {
  if (unit === undefined) return undefined;
  if (isMoneyUnit(unit)) return moneyUnitLabel(unit, lang);
  if (isPercentage(unit)) return "%";
  return OTHER_NOTE[lang][unit];
}

/**
 * A Japanese header with its unit: a percentage by src/excel's rule (`配当性向（%）`, labels.ts
 * unitLabel, so the header typed back still names the field), money in the table's unit
 * (`売上高（百万円）`), other units by their note (`PER（倍）`).
 */
export function headerWithUnit(label: string, unit: string | undefined): string {
  if (isPercentage(unit)) return unitLabel(label, unit) ?? label;
  const note = unitNote(unit, "ja");
  return note ? `${label}（${note}）` : label;
}
