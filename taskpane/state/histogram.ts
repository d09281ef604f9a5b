// Bins for the screening preview's distribution chart: equal-width bins over the shown values.

import { percentPoints } from "../../src/excel/percent-scale";

export interface Bin {
  from: number;
  to: number;
  count: number;
}

/**
 * Equal-width bins from the smallest to the largest finite value (one bin when all are equal);
 * the last bin includes its upper edge. Non-finite values are left out.
 * @example histogram([1, 2, 3, 4], 2) // [{from:1,to:2.5,count:2},{from:2.5,to:4,count:2}]
 */
export function histogram(values: readonly number[], bins = 8): Bin[] {
  const xs = values.filter((v) => Number.isFinite(v));
  if (xs.length === 0) return [];
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  if (lo === hi) return [{ from: lo, to: hi, count: xs.length }];
  const n = Math.max(1, Math.min(bins, xs.length));
  const width = (hi - lo) / n;
  const out: Bin[] = Array.from({ length: n }, (_, i) => ({
    from: lo + i * width,
    to: i === n - 1 ? hi : lo + (i + 1) * width,
    count: 0,
  }));
  for (const x of xs) {
    const i = Math.min(n - 1, Math.floor((x - lo) / width));
    const bin = out[i];
    if (bin) bin.count++;
  }
  return out;
}

/**
 * The value a preview shows for a metric: yen in 億円, every percentage in percent points under a
 * "（%）" header (percent-scale.ts percentPoints: a ratio 0.4 and a percent 40 both 40), as
 * previewNumber.
 */
export function shownValue(value: number, fieldUnit: string | null): number {
  if (fieldUnit === "jpy") return value / 100_000_000;
  return percentPoints(value, fieldUnit);
}
