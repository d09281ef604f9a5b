// Two small workloads at the live limits: a PRICE column of 250 trading days, and company aliases.

import { createApp } from "../sandbox/app";
import { SANDBOX_DEFAULT_NOW } from "../sandbox/data/model";
import * as TYPED from "../functions/index";

/** The wrappers as Excel calls them: any value for any argument (custom-enum types are suggestions). */
const { FINANCIAL, PRICE, PRICES } = TYPED as unknown as Record<
  keyof typeof TYPED,
  (...args: unknown[]) => Promise<unknown>
>;
import type { TieredCacheStore } from "../src/client";
import { setClientForTesting } from "../src/session";
import { inProcessFetch } from "./in-process-fetch";
import { collectGarbage } from "./memory-sampler";
import { cellErrorText } from "./sides";
import { BASE_URL, LIVE, makeClient, storeOver } from "./live-client";
import { StorageStandIn } from "./storage-standin";
import { VirtualClock } from "./virtual-clock";

const inv = (): CustomFunctions.CancelableInvocation =>
  ({}) as CustomFunctions.CancelableInvocation;

/** What one run of a small workload measured (the figures the Models report too). */
interface SmallMeasure {
  requests: number;
  cpuMicros: number;
  /** Peak heapUsed during the run over the heap before it. @unit MB */
  heapGrowthMB: number;
  /** Real time from the start of the run to its first request (NaN when it sent none). */
  firstRequestMs: number;
}

/**
 * One sandbox on the live limits and a virtual clock, with the storage stand-in for the add-in's
 * persistent tier: `runtime()` starts a client over it (again for a reopen), `measure` runs work.
 */
function environment() {
  const clock = new VirtualClock(Date.parse(SANDBOX_DEFAULT_NOW));
  clock.start();
  const sandbox = createApp({
    ratePerMinute: LIVE.ratePerMinute,
    dailyLimit: LIVE.dailyLimit,
    rateClock: clock.now,
  });
  const wire = inProcessFetch(sandbox.app);
  const disk = new StorageStandIn(clock.sleep, LIVE.storageLatencyMs);
  let store: TieredCacheStore | undefined;
  return {
    sent: () => wire.counters.requests,
    requests: () => wire.counters.urls.map((u) => u.replace(BASE_URL, "")),
    status429: () => sandbox.requestLog.filter((e) => e.status === 429).length,
    /** A new runtime (client, pacer, memory tier) over the same persisted storage. */
    runtime: async (): Promise<void> => {
      await store?.flush();
      store = storeOver(disk, clock);
      setClientForTesting(makeClient(wire.fetch, clock, store), { lang: "en" }, store);
    },
    measure: async (work: () => Promise<void>): Promise<SmallMeasure> => {
      collectGarbage();
      const before = process.memoryUsage().heapUsed;
      let peak = before;
      const sample = (): void => {
        peak = Math.max(peak, process.memoryUsage().heapUsed);
      };
      const sampler = setInterval(sample, 5);
      const sentBefore = wire.counters.requests;
      wire.counters.firstRequestAt = undefined;
      const cpu = process.cpuUsage();
      const start = performance.now();
      await work();
      // What the run received is persisted before it counts as done (as for the Models).
      await store?.flush();
      const used = process.cpuUsage(cpu);
      clearInterval(sampler);
      sample();
      return {
        requests: wire.counters.requests - sentBefore,
        cpuMicros: used.user + used.system,
        heapGrowthMB: (peak - before) / 1048576,
        firstRequestMs: (wire.counters.firstRequestAt ?? Number.NaN) - start,
      };
    },
    done: () => {
      clock.stop();
      setClientForTesting(undefined);
    },
  };
}

/** A workload's cold run, a warm repeat on the same runtime, and a repeat after a reopen. */
export interface SmallPhases {
  cold: SmallMeasure;
  warm: SmallMeasure;
  reopen: SmallMeasure;
  status429: number;
}

async function phases(
  env: ReturnType<typeof environment>,
  work: () => Promise<void>,
): Promise<SmallPhases> {
  await env.runtime();
  const cold = await env.measure(work);
  const warm = await env.measure(work);
  await env.runtime();
  const reopen = await env.measure(work);
  return { cold, warm, reopen, status429: env.status429() };
}

export interface PriceColumnResult {
  days: number;
  /** The column alone: cold, warm and after a reopen. */
  phases: SmallPhases;
  columnRequests: number;
  spillThenColumnRequests: number;
  errors: number;
  mismatches: number;
  detail: string;
}

/**
 * PRICE(code, "close", date) down 250 consecutive trading days (`days`, newest first, with their
 * closes), then on a fresh client a PRICES spill of those days followed by the same column.
 */
export async function priceColumn(
  code: string,
  days: readonly { date: string; close: number | null }[],
): Promise<PriceColumnResult> {
  let errors = 0;
  let mismatches = 0;
  const column = async (): Promise<void> => {
    const values = await Promise.all(
      // A value, or a promise of one (a warm cell answers with the value itself).
      days.map((d) =>
        Promise.resolve(PRICE(code, "close", d.date, inv())).catch((e: unknown) => e),
      ),
    );
    values.forEach((v, i) => {
      if (cellErrorText(v) !== undefined || v instanceof Error) errors += 1;
      else if (v !== (days[i]?.close ?? "")) mismatches += 1;
    });
  };
  const a = environment();
  const measured = await phases(a, column);
  const columnRequests = measured.cold.requests;
  const aUrls = a.requests();
  a.done();

  const b = environment();
  await b.runtime();
  const oldest = days[days.length - 1]?.date as string;
  const newest = days[0]?.date as string;
  await PRICES(code, oldest, newest, [["close"]], null, null, inv());
  await column();
  const spillThenColumnRequests = b.sent();
  const bUrls = b.requests();
  b.done();
  return {
    days: days.length,
    phases: measured,
    columnRequests,
    spillThenColumnRequests,
    errors,
    mismatches,
    detail: `column alone: ${aUrls.join(", ")}; spill then column: ${bUrls.join(", ")}`,
  };
}

export interface AliasResult {
  forms: string[];
  /** The four cells: cold, warm and after a reopen. */
  phases: SmallPhases;
  requests: number;
  values: unknown[];
  detail: string;
}

/** FINANCIAL(x, "sales", 0) for 7203, "7203", 72030 and the EDINET code, in one recalculation. */
export async function aliases(code: string, edinet: string): Promise<AliasResult> {
  const forms: unknown[] = [Number(code), code, Number(`${code}0`), edinet];
  let values: unknown[] = [];
  const cells = async (): Promise<void> => {
    values = await Promise.all(
      forms.map((form) =>
        Promise.resolve(FINANCIAL(form, "sales", 0, null, null, null, inv())).then(
          (v) => v,
          (e: unknown) => cellErrorText(e) ?? String(e),
        ),
      ),
    );
  };
  const f = environment();
  const measured = await phases(f, cells);
  const requests = measured.cold.requests;
  const urls = f.requests();
  f.done();
  return {
    forms: forms.map((x) => JSON.stringify(x)),
    phases: measured,
    requests,
    values,
    detail: urls.join(", "),
  };
}
