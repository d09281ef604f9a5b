// Two small workloads at the live limits: a PRICE column of 250 trading days, and company aliases.

import { createApp } from "../sandbox/app";
import { SANDBOX_DEFAULT_NOW } from "../sandbox/data/model";
import { DEMO_API_KEY } from "../sandbox/demo-key";
import * as TYPED from "../functions/index";

/** The wrappers as Excel calls them: any value for any argument (custom-enum types are suggestions). */
const { FINANCIAL, PRICE, PRICES } = TYPED as unknown as Record<
  keyof typeof TYPED,
  (...args: unknown[]) => Promise<unknown>
>;
import { createClient, MemoryCacheStore } from "../src/client";
import { setClientForTesting } from "../src/session";
import { inProcessFetch } from "./in-process-fetch";
import { cellErrorText } from "./sides";
import { BASE_URL, LIVE } from "./scale-run";
import { VirtualClock } from "./virtual-clock";

const inv = (): CustomFunctions.CancelableInvocation =>
  ({}) as CustomFunctions.CancelableInvocation;

/** A fresh client on the live limits and a virtual clock; returns its request counter. */
function fresh(): { sent: () => number; requests: () => string[]; done: () => void } {
  const clock = new VirtualClock(Date.parse(SANDBOX_DEFAULT_NOW));
  clock.start();
  const sandbox = createApp({
    ratePerMinute: LIVE.ratePerMinute,
    dailyLimit: LIVE.dailyLimit,
    rateClock: clock.now,
  });
  const wire = inProcessFetch(sandbox.app);
  const store = new MemoryCacheStore();
  const client = createClient({
    baseUrl: BASE_URL,
    apiKey: DEMO_API_KEY,
    fetch: wire.fetch,
    ratePerMinute: LIVE.ratePerMinute,
    cacheStore: store,
    now: clock.now,
    sleep: clock.sleep,
    lang: "en",
  });
  setClientForTesting(client, { lang: "en" }, store);
  return {
    sent: () => wire.counters.requests,
    requests: () => wire.counters.urls.map((u) => u.replace(BASE_URL, "")),
    done: () => {
      clock.stop();
      setClientForTesting(undefined);
    },
  };
}

export interface PriceColumnResult {
  days: number;
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
      days.map((d) => PRICE(code, "close", d.date, inv()).catch((e: unknown) => e)),
    );
    values.forEach((v, i) => {
      if (cellErrorText(v) !== undefined || v instanceof Error) errors += 1;
      else if (v !== (days[i]?.close ?? "")) mismatches += 1;
    });
  };
  const a = fresh();
  await column();
  const columnRequests = a.sent();
  const aUrls = a.requests();
  a.done();

  const b = fresh();
  const oldest = days[days.length - 1]?.date as string;
  const newest = days[0]?.date as string;
  await PRICES(code, oldest, newest, [["close"]], null, null, inv());
  await column();
  const spillThenColumnRequests = b.sent();
  const bUrls = b.requests();
  b.done();
  return {
    days: days.length,
    columnRequests,
    spillThenColumnRequests,
    errors,
    mismatches,
    detail: `column alone: ${aUrls.join(", ")}; spill then column: ${bUrls.join(", ")}`,
  };
}

export interface AliasResult {
  forms: string[];
  requests: number;
  values: unknown[];
  detail: string;
}

/** FINANCIAL(x, "sales", 0) for 7203, "7203", 72030 and the EDINET code, in one recalculation. */
export async function aliases(code: string, edinet: string): Promise<AliasResult> {
  const forms: unknown[] = [Number(code), code, Number(`${code}0`), edinet];
  const f = fresh();
  const values = await Promise.all(
    forms.map((form) =>
      FINANCIAL(form, "sales", 0, null, null, null, inv()).then(
        (v) => v,
        (e: unknown) => cellErrorText(e) ?? String(e),
      ),
    ),
  );
  const requests = f.sent();
  const urls = f.requests();
  f.done();
  return {
    forms: forms.map((x) => JSON.stringify(x)),
    requests,
    values,
    detail: urls.join(", "),
  };
}
