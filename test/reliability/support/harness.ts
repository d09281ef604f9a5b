// Wires the in-process sandbox, a metered fetch, a client with an injected clock and sleep, and the
// functions' session, so reliability tests can count requests and run backoff without waiting.
import {
  inProcessFetch,
  type InProcessFetch,
  type RequestableApp,
} from "../../../bench/in-process-fetch";
import { createApp, type SandboxOptions } from "../../../sandbox/app";
import { DEMO_API_KEY } from "../../../sandbox/demo-key";
import {
  createClient,
  type KaishaClient,
  MemoryCacheStore,
  type ClientOptions,
} from "../../../src/client";
import { setClientForTesting } from "../../../src/session";

export const BASE_URL = "http://sandbox.test/v1";

export interface Harness {
  sandbox: ReturnType<typeof createApp>;
  wire: InProcessFetch;
  client: KaishaClient;
  store: MemoryCacheStore;
  /** Every delay the client asked to sleep (backoff, Retry-After, pacing), in ms. */
  sleeps: number[];
  /** The shared manual clock (epoch ms) of the client and the sandbox's limiter. */
  clock: { now: number };
}

export interface HarnessOptions {
  sandbox?: SandboxOptions;
  client?: ClientOptions;
  /** Use the platform timers (jest fake timers) instead of the instant, clock-advancing sleep. */
  realSleep?: boolean;
}

/**
 * A sandbox (limits off unless asked), a client over it whose sleep advances a manual clock
 * instantly, and the functions pointed at that client.
 * @example const h = harness({ sandbox: { faults: { rate: 1, kinds: ["503"] } } });
 */
export function harness(options: HarnessOptions = {}): Harness {
  const clock = { now: Date.parse("2026-11-20T09:00:00Z") };
  const sleeps: number[] = [];
  const sandbox = createApp({
    ratePerMinute: 0,
    dailyLimit: 1_000_000,
    ...(options.realSleep === true ? {} : { rateClock: () => clock.now }),
    ...options.sandbox,
  });
  const wire = inProcessFetch(sandbox.app);
  const store = new MemoryCacheStore();
  const client = createClient({
    baseUrl: BASE_URL,
    apiKey: DEMO_API_KEY,
    fetch: wire.fetch,
    ratePerMinute: 0,
    maxRetries: 3,
    lang: "en",
    cacheStore: store,
    // As the add-in's session client (src/session.ts): answers are checked against the contract.
    checkAnswers: true,
    ...(options.realSleep === true
      ? {}
      : {
          now: () => clock.now,
          sleep: async (ms: number) => {
            sleeps.push(ms);
            clock.now += ms;
          },
        }),
    ...options.client,
  });
  setClientForTesting(client, { lang: "en" });
  return { sandbox, wire, client, store, sleeps, clock };
}

/** An app that answers the first `count` requests from `first` and the rest from `then`. */
export function burst(first: RequestableApp, count: number, then: RequestableApp): RequestableApp {
  let seen = 0;
  return {
    request(input, init) {
      seen += 1;
      return seen <= count ? first.request(input, init) : then.request(input, init);
    },
  };
}

/** The thrown cell error of a function call: code and message (fails when the call succeeded). */
export async function cellErrorOf(call: unknown): Promise<{ code: string; message: string }> {
  try {
    const value = await call;
    throw new Error(`expected a cell error, got ${JSON.stringify(value)}`);
  } catch (error) {
    const e = error as { code?: unknown; message?: unknown };
    if (typeof e.code !== "string" || typeof e.message !== "string") throw error;
    return { code: e.code, message: e.message };
  }
}
