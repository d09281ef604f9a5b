// SCREEN thresholds on the sheet's scale: a percentage metric's threshold is a fraction like its cells (0.03 = 3%).

import { ArgumentError } from "./args";
import { fromSheetScale, isPercentage } from "./percent-scale";

/**
 * Why: SCREEN writes a percentage metric as a fraction (percent-scale.ts), so `dividendYield`
 * shows 0.0368 for 3.68%. A threshold typed next to those cells must read the same way:
 * `dividendYield:gte:0.03` means 3%, as does `dividendYield:gte:3%`. The API reads a threshold
 * without a unit in the field's own unit (openapi.json getScreening filters: "unit defaults to the
 * field's own unit (money in yen, ratio on the 1.0 = 100% scale)"), which for a `percent` metric
 * is 3 for 3%: such thresholds are converted before sending. A threshold with an explicit unit
 * (`:percent`, `:ratio`, `:hundred_million_jpy`) says its own scale and is sent as typed.
 */

/** A threshold written with a percent sign: `3%`, `-1.5％`, `3 %`. */
const PERCENT_SIGN = /^\s*([-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)\s*[%％]\s*$/;

/** Conditions whose threshold was typed with % (by position), and the filters with it removed. */
export interface PercentSigns {
  filters: string;
  typedPercent: readonly boolean[];
}

/**
 * Reads `%` thresholds as fractions (`3%` -> `0.03`) before the syntax check, remembering which
 * conditions had one: only a percentage metric may take it (checked once units are known,
 * thresholdsForApi). A `%` together with a unit is refused: the two could disagree.
 *
 * @example readPercentSigns("dividendYield:gte:3%") // { filters: "dividendYield:gte:0.03", typedPercent: [true] }
 */
export function readPercentSigns(filters: string): PercentSigns {
  const typedPercent: boolean[] = [];
  const parts = filters.split(",").map((condition) => {
    const seg = condition.split(":");
    const m = seg[2] === undefined ? null : PERCENT_SIGN.exec(seg[2]);
    typedPercent.push(m !== null);
    if (m === null) return condition;
    if (seg.length > 3)
      throw new ArgumentError(
        "filters",
        {
          en: "a threshold with % or with a unit, not both (dividendYield:gte:3% or dividendYield:gte:3:percent)",
          ja: "しきい値は % か単位のどちらか一方（dividendYield:gte:3% または dividendYield:gte:3:percent）",
        },
        condition.trim(),
      );
    seg[2] = String(Number(m[1]) / 100);
    return seg.join(":");
  });
  return { filters: parts.join(","), typedPercent };
}

/**
 * Conditions with API metric keys -> the `filters` the API is sent: a threshold without a unit on
 * a `percent` metric is converted from the sheet's fraction to the API's percent number
 * (0.03 -> 3); a `ratio` metric already uses the fraction; other metrics are unchanged, and a `%`
 * typed for one of them is #VALUE! before any screening request, as is a unit-less percentage
 * threshold of 1 (100%) or more (roe:gte:10 is far likelier 10% than 1000%). `unitOf` gives a
 * metric's unit from the /screening/fields catalogue.
 *
 * @example thresholdsForApi("roe:gte:0.1,per:lte:15", [false, false], unitOf) // "roe:gte:10,per:lte:15"
 */
export function thresholdsForApi(
  filters: string,
  typedPercent: readonly boolean[],
  unitOf: (key: string) => string | null | undefined,
): string {
  return filters
    .split(",")
    .map((condition, i) => {
      const seg = condition.split(":");
      const [field, , value, unit] = seg;
      if (field === undefined || value === undefined || unit !== undefined) return condition;
      const fieldUnit = unitOf(field.trim());
      if (typedPercent[i] === true && !isPercentage(fieldUnit))
        throw new ArgumentError(
          "filters",
          {
            en: `a plain number for ${field.trim()} (unit ${fieldUnit ?? "unknown"}): % is only for percentage metrics`,
            ja: `${field.trim()}（単位 ${fieldUnit ?? "不明"}）には数値のみ：% は比率・パーセントの指標だけ`,
          },
          condition.trim(),
        );
      if (!isPercentage(fieldUnit)) return condition;
      const threshold = Number(value);
      // 10 on a percentage metric is 1000% on the cells' scale: far likelier a 10% written on the
      // API's percent scale. From 1 (100%) up it is ambiguous, so it is refused with the three
      // spellings that are not; the API's own migration guard for money is the same idea.
      if (typedPercent[i] !== true && Math.abs(threshold) >= 1)
        throw new ArgumentError(
          "filters",
          {
            en: `a fraction for ${field.trim()} (0.1 = 10%): 0.1, 10% or 10:percent`,
            ja: `${field.trim()} は小数（0.1 = 10%）：0.1、10% または 10:percent`,
          },
          condition.trim(),
        );
      if (fieldUnit !== "percent") return condition;
      seg[2] = String(fromSheetScale(threshold, fieldUnit));
      return seg.join(":");
    })
    .join(",");
}

/** True when every condition names its unit, so no threshold depends on the catalogue's units. */
export function everyUnitExplicit(filters: string): boolean {
  return filters.split(",").every((condition) => condition.split(":").length === 4);
}
