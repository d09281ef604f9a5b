// The common market level of the sample data (a TOPIX-like path): crises, rallies, and a daily noise shared by all.
import { Prng } from "./prng";

// Year-fraction knots of the smooth market level (1.0 = early 2005).
const KNOTS: [number, number][] = [
  [2005.0, 1.0], [2006.3, 1.45], [2007.5, 1.5], [2008.2, 1.1], [2009.2, 0.62], [2010.3, 0.82],
  [2011.2, 0.78], [2012.8, 0.66], [2013.4, 0.98], [2015.5, 1.43], [2016.5, 1.08], [2018.0, 1.6],
  [2018.99, 1.25], [2020.0, 1.5], [2020.22, 1.12], [2021.1, 1.7], [2022.8, 1.6], [2023.5, 2.0],
  [2024.5, 2.4], [2024.6, 2.1], [2025.3, 2.25], [2026.9, 2.8],
]; // prettier-ignore

/** Smooth market level at a year fraction. */
export function marketLevel(t: number): number {
  const first = KNOTS[0] as [number, number];
  if (t <= first[0]) return first[1];
  for (let i = 1; i < KNOTS.length; i += 1) {
    const [t1, v1] = KNOTS[i] as [number, number];
    const [t0, v0] = KNOTS[i - 1] as [number, number];
    if (t <= t1) return v0 + ((v1 - v0) * (t - t0)) / (t1 - t0);
  }
  return (KNOTS[KNOTS.length - 1] as [number, number])[1];
}

/** Year fraction of a YYYY-MM-DD date. */
export function yearFraction(date: string): number {
  const y = +date.slice(0, 4);
  const m = +date.slice(5, 7);
  const d = +date.slice(8, 10);
  return y + (m - 1) / 12 + (d - 1) / 365;
}

/** Mean-reverting daily market noise (log), one value per trading day, shared by every security. */
export function marketNoise(days: readonly string[]): Float64Array {
  const rng = new Prng("market");
  const out = new Float64Array(days.length);
  let x = 0;
  for (let i = 0; i < days.length; i += 1) {
    x = x * 0.985 + rng.normal() * 0.009;
    out[i] = x;
  }
  return out;
}
