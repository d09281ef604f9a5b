// Bins for the screening preview's distribution chart: round-edged bins over the shown values, with
// the labels an analyst reads ("10–15倍: 7 社").

import { percentPoints } from "../../src/excel/percent-scale";

export interface Bin {
  from: number;
  to: number;
  count: number;
}

/** The smallest of 1, 2, 2.5, 5 × 10^k at least `raw`: bin edges a reader takes in at a glance. */
function niceWidth(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= raw) return step * power;
  return 10 * power;
}

/** Removes binary noise from an edge (0.1 + 0.2) so labels and comparisons see the round number. */
function clean(x: number): number {
  return Number(x.toPrecision(12));
}

/**
 * Bins of one round width (1, 2, 2.5 or 5 × 10^k) starting at a multiple of it, at most `bins` of
 * them (a few more when the round width forces it), covering every finite value; a value on an
 * inner edge counts in the bin above, the largest in the last bin. Non-finite values are left out,
 * so the counts add up to the values charted.
 * @example histogram([1, 2, 3, 4], 2) // [{from:0,to:2,count:1},{from:2,to:4,count:3}]
 */
export function histogram(values: readonly number[], bins = 8): Bin[] {
  const xs = values.filter((v) => Number.isFinite(v));
  if (xs.length === 0) return [];
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  if (lo === hi) return [{ from: lo, to: hi, count: xs.length }];
  const width = niceWidth((hi - lo) / Math.max(1, Math.min(bins, xs.length)));
  const start = clean(Math.floor(lo / width) * width);
  const n = Math.max(1, Math.ceil(clean((hi - start) / width)) + (hi === start ? 1 : 0));
  const out: Bin[] = Array.from({ length: n }, (_, i) => ({
    from: clean(start + i * width),
    to: clean(start + (i + 1) * width),
    count: 0,
  }));
  for (const x of xs) {
    const i = Math.min(n - 1, Math.floor(clean((x - start) / width)));
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

/** A bin edge as the chart labels it: thousands separators, no more decimals than the width needs. */
export function edgeText(x: number, bins: readonly Bin[]): string {
  const width = bins.length > 0 && bins[0] ? bins[0].to - bins[0].from : 0;
  const decimals = width > 0 && width < 1 ? Math.min(4, Math.ceil(-Math.log10(width) + 0.3)) : 0;
  return x.toLocaleString("en-US", {
    minimumFractionDigits: 0,
    maximumFractionDigits: Number.isInteger(x) ? 0 : Math.max(decimals, 1),
  });
}
