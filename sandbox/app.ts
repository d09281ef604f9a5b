// createApp(): the sandbox API as a Hono app (no socket), with auth, limits, faults and a request log.
import { Hono, type Context } from "hono";
import { OPERATIONS } from "../src/contract/generated/param-rules";
import { getDataset } from "./data";
import { SANDBOX_DEFAULT_NOW } from "./data/model";
import { DEMO_API_KEY } from "./demo-key";
import { ApiError, errorBody } from "./lib/api-error";
import { authenticate } from "./lib/auth";
import { corsMiddleware } from "./lib/cors";
import { poison } from "./lib/hostile";
import { decodeCursor, conditionsHash } from "./lib/cursor";
import { checkInstant } from "./lib/data-clock";
import { withFilingTimes } from "./lib/filing-times";
import {
  ConnectionDropped,
  FaultInjector,
  isConnectionDropped,
  type FaultOptions,
} from "./lib/faults";
import { RateLimiter } from "./lib/rate-limiter";
import { appendLog, redactQuery, type RequestLogEntry } from "./lib/request-log";
import type { RouteContext, RouteDef, SandboxState } from "./lib/route";
import { validateParams } from "./lib/validate-params";
import { ROUTES } from "./routes";

/** Hono environment: the authenticated key travels in a context variable, never in a log. */
type AppEnv = { Variables: { apiKey: string } };

/** Options of createApp(); every one is optional. */
export interface SandboxOptions {
  /** Accepted keys. @default [DEMO_API_KEY] */
  apiKeys?: readonly string[];
  /** Requests per rolling minute per key; 0 turns it off. @default 60 */
  ratePerMinute?: number;
  /** Requests per JST day per key. @default 5000 */
  dailyLimit?: number;
  /** Data clock (ISO 8601): "now" for as_of bounds and the 24-hour rule. @default SANDBOX_DEFAULT_NOW */
  now?: string;
  /** Real-time clock for the limiter and the request log, epoch ms. @default Date.now */
  rateClock?: () => number;
  /** Delay before each answer, in milliseconds. @default 0 */
  latencyMs?: number;
  /** Deterministic fault injection. @default no faults */
  faults?: FaultOptions;
  /** false: GET /rankings answers 503 data_unavailable (openapi.json getRankings). @default true */
  priceDataAvailable?: boolean;
  /** Origins allowed by CORS besides the add-in dev origins; "*" allows any. @default [] */
  corsOrigins?: readonly string[];
  /**
   * Hostile text: names, titles, section text, URLs and loose date/number fields of every 200
   * answer carry formula-like strings (sandbox/lib/hostile.ts), to test that the add-in writes
   * them as text. @default false
   */
  hostile?: boolean;
  /**
   * When companies file: security code -> the instant (ISO 8601) its latest results tanshin is
   * disclosed, replacing the dataset's (sandbox/lib/filing-times.ts). With a data clock that moves
   * (setNow), a filing then appears overnight: its rows 24 hours after it (openapi.json
   * info.description). @default the dataset's own times
   */
  filingTimes?: Readonly<Record<string, string>>;
}

/** What createApp() returns. */
export interface Sandbox {
  app: Hono<AppEnv>;
  /** Requests answered so far (oldest first); never contains a key. */
  requestLog: readonly RequestLogEntry[];
  /** Moves the data clock (ISO 8601). */
  setNow(iso: string): void;
  /** Clears counters and the request log, restarts the fault sequence, restores the data clock. */
  reset(): void;
  /** The current data clock. */
  now(): string;
  /** Switches rankings' price data availability (openapi.json getRankings 503). */
  setPriceDataAvailable(available: boolean): void;
}

/**
 * Builds the sandbox API. It never listens: use `app.request('/v1/...')` in tests or
 * `startSandbox()` (sandbox/server.ts) for a socket.
 * @example
 * const { app } = createApp({ ratePerMinute: 0 });
 * const res = await app.request("/v1/usage", { headers: { Authorization: `Bearer ${DEMO_API_KEY}` } });
 */
export function createApp(options: SandboxOptions = {}): Sandbox {
  const keys = new Set(options.apiKeys ?? [DEMO_API_KEY]);
  const initialNow = checkInstant(options.now ?? SANDBOX_DEFAULT_NOW);
  const clock = options.rateClock ?? Date.now;
  const latencyMs = Math.max(0, options.latencyMs ?? 0);
  const faults = new FaultInjector(options.faults);
  const initialPriceAvailability = options.priceDataAvailable ?? true;
  const requestLog: RequestLogEntry[] = [];
  let now = initialNow;

  const state: SandboxState = {
    dataset:
      options.filingTimes === undefined
        ? getDataset
        : () => withFilingTimes(getDataset(), options.filingTimes ?? {}),
    now: () => now,
    priceDataAvailable: initialPriceAvailability,
    limiter: new RateLimiter({
      ratePerMinute: options.ratePerMinute ?? 60,
      dailyLimit: options.dailyLimit ?? 5000,
      clock,
    }),
  };

  const app = new Hono<AppEnv>();

  // The request log wraps everything, including CORS preflight and dropped connections.
  app.use("*", async (c, next) => {
    const url = new URL(c.req.url);
    const entry: RequestLogEntry = {
      method: c.req.method,
      path: url.pathname,
      query: redactQuery(url.search, keys),
      status: 0,
      at: new Date(clock()).toISOString(),
    };
    try {
      await next();
      entry.status = c.res.status;
    } finally {
      appendLog(requestLog, entry);
    }
  });
  app.use("*", corsMiddleware(options.corsOrigins));
  app.use("/v1/*", async (c, next) => {
    // The API is read-only: other methods get 405 before any key check (OPTIONS is CORS's).
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return methodNotAllowed(c);
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    const fault = faults.next();
    if (fault === "drop") throw new ConnectionDropped();
    if (fault === "503") {
      return c.json(
        errorBody(
          "service_unavailable",
          "The sandbox is temporarily unavailable (injected fault).",
        ),
        503,
      );
    }
    if (fault === "500") {
      return c.json(errorBody("internal_error", "The sandbox failed (injected fault)."), 500);
    }
    if (fault === "malformed") {
      return c.body('{"attribution":{"source_label":"IRBANK', 200, {
        "Content-Type": "application/json; charset=UTF-8",
      });
    }
    c.set("apiKey", authenticate(c.req.header("Authorization"), keys));
    await next();
    if (options.hostile === true && c.res.status === 200) {
      const body = poison(await c.res.clone().json());
      const headers = new Headers(c.res.headers);
      headers.delete("Content-Length");
      c.res = new Response(JSON.stringify(body), { status: 200, headers });
    }
  });

  for (const route of ROUTES) {
    const rule = OPERATIONS[route.operationId];
    const honoPath = `/v1${rule.path.replace(/\{([^}]+)\}/g, ":$1")}`;
    app.get(honoPath, (c) => handle(c, route, state));
  }

  app.notFound((c) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return methodNotAllowed(c);
    return c.json(errorBody("not_found", `No endpoint at ${new URL(c.req.url).pathname}.`), 404);
  });

  app.onError((err, c) => {
    if (err instanceof ApiError) {
      return c.json(err.toBody(), err.status, err.headers);
    }
    // Malformed input must never surface as a crash: answer with the common error object.
    return c.json(errorBody("internal_error", "The sandbox failed to handle the request."), 500);
  });

  return {
    app,
    requestLog,
    setNow(iso) {
      now = checkInstant(iso);
    },
    reset() {
      now = initialNow;
      state.priceDataAvailable = initialPriceAvailability;
      state.limiter.reset();
      faults.reset();
      requestLog.splice(0, requestLog.length);
    },
    now: () => now,
    setPriceDataAvailable(available) {
      state.priceDataAvailable = available;
    },
  };
}

/** 405 in the common error shape. */
function methodNotAllowed(c: Context<AppEnv>): Response {
  return c.json(
    errorBody(
      "method_not_allowed",
      `Method ${c.req.method} is not allowed; the API is read-only (GET).`,
    ),
    405,
    { Allow: "GET, HEAD, OPTIONS" },
  );
}

/** Runs one route: limits, contract validation, then the handler; the body gets JSON-encoded. */
async function handle(c: Context<AppEnv>, route: RouteDef, state: SandboxState): Promise<Response> {
  const key = c.get("apiKey");
  state.limiter.consume(key, route.countsDaily ?? true);
  const rule = OPERATIONS[route.operationId];
  const pathValues = c.req.param() as Record<string, string>;
  for (const name of route.notFoundOnUnknown ?? []) {
    const spec = rule.params.find((p) => p.name === name);
    const value = pathValues[name];
    if (spec?.enum !== undefined && value !== undefined && !spec.enum.includes(value)) {
      throw ApiError.notFound(`Unknown ${name} '${value}'; use one of ${spec.enum.join(", ")}.`);
    }
  }
  const params = validateParams(rule, pathValues, (name) => c.req.query(name));
  const ctx: RouteContext = {
    operationId: route.operationId,
    params,
    state,
    key,
    page() {
      const hash = conditionsHash(route.operationId, params.conditions(["cursor"]));
      const cursor = params.str("cursor");
      return { offset: cursor === undefined ? 0 : decodeCursor(cursor, hash), hash };
    },
  };
  const body = await route.handle(ctx);
  return c.json(body as object, 200);
}

export { isConnectionDropped };
