// TSE daily price limits (値幅制限): how far a close may move from the previous close in one day.

/** [upper bound of the previous close (exclusive), limit width in yen]. */
const LIMIT_TABLE: readonly (readonly [number, number])[] = [
  [100, 30],
  [200, 50],
  [500, 80],
  [700, 100],
  [1_000, 150],
  [1_500, 300],
  [2_000, 400],
  [3_000, 500],
  [5_000, 700],
  [7_000, 1_000],
  [10_000, 1_500],
  [15_000, 3_000],
  [20_000, 4_000],
  [30_000, 5_000],
  [50_000, 7_000],
  [70_000, 10_000],
  [100_000, 15_000],
  [150_000, 30_000],
  [200_000, 40_000],
  [300_000, 50_000],
  [500_000, 70_000],
  [700_000, 100_000],
  [1_000_000, 150_000],
];

/** The daily limit width in yen for a previous close. */
export function limitWidth(previousClose: number): number {
  for (const [bound, width] of LIMIT_TABLE) {
    if (previousClose < bound) return width;
  }
  return Math.round(previousClose * 0.15);
}

/** True when `close` is at or above the limit-up price (ストップ高). */
export function isStopHigh(previousClose: number, close: number): boolean {
  return close >= previousClose + limitWidth(previousClose);
}

/** True when `close` is at or below the limit-down price (ストップ安). */
export function isStopLow(previousClose: number, close: number): boolean {
  return close <= Math.max(1, previousClose - limitWidth(previousClose));
}
