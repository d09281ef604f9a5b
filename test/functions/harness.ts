// Test harness for the custom functions: the in-process sandbox behind the shared session client,
// request counting from the sandbox's own log, invocations and cell-error capture.
import { createApp, type Sandbox, type SandboxOptions } from "../../sandbox/app";
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import {
  createClient,
  type KaishaClient,
  MemoryCacheStore,
  type FetchLike,
} from "../../src/client";
import type { HeaderLanguage } from "../../src/excel/shape";
import { setClientForTesting, type Lang } from "../../src/session";
import { setHostCapabilities } from "../../functions/host";
import type { InvocationLike } from "../../functions/run";
import { sandboxFetch } from "../client/helpers";

export interface Harness {
  sandbox: Sandbox;
  client: KaishaClient;
  store: MemoryCacheStore;
  /** Requests that reached the sandbox so far. */
  sent(): number;
  /** "path?query" of every request that reached the sandbox. */
  requests(): string[];
  /** true: every request fails as a connection failure (the API is down), without reaching the sandbox. */
  setDown(down: boolean): void;
  /** Moves the client's clock forward (cache freshness). */
  advance(ms: number): void;
  /** fetch calls made by the client (including ones refused while down). */
  fetches(): number;
}

export interface HarnessOptions {
  lang?: Lang;
  headerLanguage?: HeaderLanguage;
  dataTypes?: boolean;
  /** undefined: no key configured. */
  apiKey?: string | undefined;
  sandbox?: SandboxOptions;
  timeoutMs?: number;
  maxRetries?: number;
  /** The client's clock at the start (ms since epoch); default the real time. */
  now?: number;
}

/** Points the shared session at a fresh sandbox (no rate limit unless asked) and a fresh cache. */
export function useSandbox(options: HarnessOptions = {}): Harness {
  const sandbox = createApp({ ratePerMinute: 0, ...options.sandbox });
  let down = false;
  let offsetMs = 0;
  let fetches = 0;
  const toSandbox = sandboxFetch(sandbox);
  const fetch: FetchLike = async (url, init) => {
    fetches += 1;
    if (down) throw new TypeError("fetch failed");
    return toSandbox(url, init);
  };
  const store = new MemoryCacheStore();
  const client = createClient({
    baseUrl: "http://sandbox.test/v1",
    apiKey: "apiKey" in options ? options.apiKey : DEMO_API_KEY,
    fetch,
    ratePerMinute: 0,
    maxRetries: options.maxRetries ?? 0,
    cacheStore: store,
    sleep: async () => undefined,
    now: () => (options.now ?? Date.now()) + offsetMs,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
  setClientForTesting(
    client,
    { lang: options.lang ?? "en", headerLanguage: options.headerLanguage ?? "keys" },
    store,
  );
  setHostCapabilities({ dataTypes: options.dataTypes ?? false });
  return {
    sandbox,
    client,
    store,
    sent: () => sandbox.requestLog.length,
    requests: () => sandbox.requestLog.map((e) => `${e.path}${e.query ? `?${e.query}` : ""}`),
    setDown: (value) => {
      down = value;
    },
    advance: (ms) => {
      offsetMs += ms;
    },
    fetches: () => fetches,
  };
}

/** What Excel passes to a @cancelable function. */
export function invocation(extra: Partial<InvocationLike> = {}): InvocationLike {
  return { ...extra };
}

/**
 * True when `call` (what the function returned: a value, or a promise of one) settled within one
 * microtask turn: answered at once, with no await. A value is settled.
 */
export async function settlesAtOnce(call: unknown): Promise<boolean> {
  // A thenable is a result to come, as Excel's runtime reads it (a promise, or a waiting cell).
  const then = (call as { then?: unknown } | null)?.then;
  if (typeof then !== "function") return true;
  let done = false;
  const mark = () => (done = true);
  (then as (onValue: () => void, onError: () => void) => unknown).call(call, mark, mark);
  await Promise.resolve();
  return done;
}

/** The cell error a call settles with (fails the test when it returns a value). */
export async function cellError(call: unknown): Promise<{ code: string; message: string }> {
  try {
    const value = await call;
    throw new Error(`expected a cell error, got ${JSON.stringify(value)}`);
  } catch (err) {
    const e = err as { code?: unknown; message?: unknown };
    if (typeof e.code !== "string" || !e.code.startsWith("#")) throw err;
    return { code: e.code, message: String(e.message ?? "") };
  }
}

/** What the cell shows: its value, or its error code and message (a throw that is no cell error fails the test). */
export async function shown(call: unknown): Promise<unknown> {
  try {
    return { value: await call };
  } catch (err) {
    const e = err as { code?: unknown; message?: unknown };
    if (typeof e.code !== "string") throw err;
    return { error: e.code, message: e.message };
  }
}

/** Restores the default session after a suite. */
export function resetSession(): void {
  setClientForTesting(undefined);
  setHostCapabilities({ dataTypes: false });
}
