// One simulated clock for the pacer, the retry sleeps, the storage stand-in and the sandbox's limiter.

import { AbortError } from "../src/client";

interface Timer {
  at: number;
  seq: number;
  fire: () => void;
}

/**
 * Simulated time. Thousands of requests at 60 a minute are tens of minutes of real time; here
 * every wait of the add-in (pacer, retry sleeps, 429 pauses), of the storage stand-in and of the
 * sandbox's rate limiter runs on this clock, so the limits are enforced exactly in simulated time
 * while CPU and heap stay real. Time moves only when the process has nothing else to do: a
 * `setImmediate` check runs after the microtask queue is empty, and then jumps to the earliest
 * timer (so no wait is ever cut short and no simulated minute costs real minutes).
 *
 * @example const clock = new VirtualClock(Date.parse("2026-03-02T09:00:00+09:00")); clock.start();
 */
export class VirtualClock {
  private current: number;
  private seq = 0;
  private readonly timers: Timer[] = [];
  private running = false;
  private holds = 0;

  constructor(startMs: number) {
    this.current = startMs;
  }

  readonly now = (): number => this.current;

  /** Sleeps `ms` of simulated time; rejects with AbortError when `signal` fires. */
  readonly sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(new AbortError({ cause: signal.reason }));
        return;
      }
      const timer: Timer = {
        at: this.current + Math.max(0, ms),
        seq: (this.seq += 1),
        fire: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = (): void => {
        const at = this.timers.indexOf(timer);
        if (at >= 0) this.timers.splice(at, 1);
        reject(new AbortError({ cause: signal?.reason }));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.insert(timer);
    });

  /** Starts moving time whenever the process is idle; `stop()` ends it. */
  start(): void {
    if (this.running) return;
    this.running = true;
    setImmediate(this.tick);
  }

  private parked = false;

  private readonly tick = (): void => {
    if (!this.running) return;
    if (this.holds > 0) {
      // Resumed by the last release (no busy loop while the worker works).
      this.parked = true;
      return;
    }
    const next = this.timers.shift();
    if (next !== undefined) {
      this.current = Math.max(this.current, next.at);
      next.fire();
      // Everything due at the same instant fires together.
      while (this.timers[0] !== undefined && this.timers[0].at <= this.current) {
        this.timers.shift()?.fire();
      }
    }
    setImmediate(this.tick);
  };

  /**
   * Keeps time still until the returned release is called: real work outside this thread (the
   * worker-hosted sandbox) takes no simulated time, as an in-process call would not.
   */
  readonly hold = (): (() => void) => {
    this.holds += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds -= 1;
      if (this.holds === 0 && this.parked) {
        this.parked = false;
        setImmediate(this.tick);
      }
    };
  };

  stop(): void {
    this.running = false;
  }

  private insert(timer: Timer): void {
    // Sorted by time, then by creation; timers are few (one per waiting pacer or storage call).
    let i = this.timers.length;
    while (i > 0) {
      const prev = this.timers[i - 1] as Timer;
      if (prev.at < timer.at || (prev.at === timer.at && prev.seq < timer.seq)) break;
      i -= 1;
    }
    this.timers.splice(i, 0, timer);
  }
}
