// The client's monotonic clock: pacing, deadlines and retry waits measure elapsed time on it, never on the wall clock.

/**
 * Milliseconds on a clock that only moves forward (`performance.now()`, Date.now where a host has
 * none). A wall clock set back an hour would make a spent token look an hour young and stall every
 * request for that hour; set forward, it would return every token at once. Looked up on each call,
 * so a test's fake timers (which replace `performance.now`) drive it.
 */
export function monotonicNow(): number {
  const perf = (globalThis as { performance?: { now?: () => number } }).performance;
  return typeof perf?.now === "function" ? perf.now() : Date.now();
}
