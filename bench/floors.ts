// Lower bounds the benchmark compares against: the request floor and the cold-time floor.

export interface LimitSettings {
  /** Injected sandbox latency per request, ms. */
  latencyMs: number;
  /**
   * Per-minute limit of the sandbox and of the add-in's pacer. Both count a rolling minute
   * (sandbox/lib/rate-limiter.ts, src/client/pacer.ts): up to `rate` requests may start at once,
   * and the next ones only when the first of them is a minute old.
   */
  ratePerMinute: number;
}

/**
 * The cold-time floor of a workload: N requests under a rolling-minute limit R cannot all have
 * started before floor((N − 1) / R) full minutes, and the last one still takes the latency; nor can
 * the workload beat its longest chain of dependent requests (`depth`, e.g. price pages that follow
 * a cursor) at the injected latency.
 *
 *   floor = max(depth × latency, floor((N − 1) / R) × 60 000 + latency)
 *
 * @example coldFloorMs(250, 3, { latencyMs: 20, ratePerMinute: 200 }) // 60 020
 */
export function coldFloorMs(requests: number, depth: number, limits: LimitSettings): number {
  if (requests === 0) return 0;
  const chain = depth * limits.latencyMs;
  const windows = limits.ratePerMinute > 0 ? Math.floor((requests - 1) / limits.ratePerMinute) : 0;
  return Math.max(chain, windows * 60_000 + limits.latencyMs);
}

/** Pages a cursor walk over `rows` rows needs at `pageSize` rows a page (at least one). */
export function pagesFor(rows: number, pageSize: number): number {
  return Math.max(1, Math.ceil(rows / pageSize));
}
