// The sandbox's socket: startSandbox() for tests and scripts; run directly it reads SANDBOX_* settings.
import type { AddressInfo } from "node:net";
import { serve, type Http2Bindings, type HttpBindings } from "@hono/node-server";
import { createApp, isConnectionDropped, type Sandbox, type SandboxOptions } from "./app";
import { getDataset } from "./data";
import { DEMO_API_KEY } from "./demo-key";
import { parseFaultKinds } from "./lib/faults";

/** The sandbox's default port (SANDBOX_BASE_URL of the client is http://127.0.0.1:8787/v1). */
export const DEFAULT_SANDBOX_PORT = 8787;

/** A listening sandbox. */
export interface RunningSandbox {
  /** Base URL including /v1, e.g. http://127.0.0.1:8787/v1. */
  url: string;
  port: number;
  /** The app behind the socket (request log, setNow, reset). */
  sandbox: Sandbox;
  close(): Promise<void>;
}

/** How long an idle keep-alive connection is kept open (see startSandbox). @unit ms */
const SANDBOX_KEEP_ALIVE_MS = 65_000;

/**
 * Starts the sandbox on 127.0.0.1 (`port: 0` picks a free port).
 * @example
 * const { url, close } = await startSandbox({ port: 0, ratePerMinute: 0 });
 * await fetch(`${url}/usage`, { headers: { Authorization: `Bearer ${DEMO_API_KEY}` } });
 * await close();
 */
export function startSandbox(
  options: SandboxOptions & { port?: number } = {},
): Promise<RunningSandbox> {
  const { port = DEFAULT_SANDBOX_PORT, ...appOptions } = options;
  const sandbox = createApp(appOptions);
  return new Promise((resolve, reject) => {
    const server = serve(
      {
        hostname: "127.0.0.1",
        port,
        fetch: async (request: Request, env: HttpBindings | Http2Bindings) => {
          try {
            return await sandbox.app.fetch(request, env);
          } catch (error) {
            // Fault "drop": cut the connection without any response.
            if (isConnectionDropped(error)) {
              env.incoming.socket?.destroy();
              return new Response(null, { status: 500 });
            }
            throw error;
          }
        },
      },
      (info: AddressInfo) => {
        resolve({
          url: `http://127.0.0.1:${info.port}/v1`,
          port: info.port,
          sandbox,
          close: () =>
            new Promise<void>((done, fail) => {
              if ("closeAllConnections" in server) server.closeAllConnections();
              server.close((error) => (error === undefined ? done() : fail(error)));
            }),
        });
      },
    );
    // Node's 5 s keep-alive lets a client reuse a connection the server is closing at that very
    // moment (undici: "read ECONNRESET" on a loaded machine, seen in test/e2e/analyst-sheets.test.ts);
    // a minute outlives any client's idle reuse, and close() above ends every connection anyway.
    if ("keepAliveTimeout" in server) server.keepAliveTimeout = SANDBOX_KEEP_ALIVE_MS;
    server.once("error", reject);
  });
}

/** Options from SANDBOX_* environment variables (unset ones keep their defaults). */
export function optionsFromEnv(env: NodeJS.ProcessEnv): SandboxOptions & { port: number } {
  const options: SandboxOptions & { port: number } = {
    port: numberFrom(env, "SANDBOX_PORT") ?? DEFAULT_SANDBOX_PORT,
  };
  const keys = env["SANDBOX_API_KEYS"];
  if (keys !== undefined && keys.trim() !== "") {
    options.apiKeys = keys
      .split(",")
      .map((k) => k.trim())
      .filter((k) => k !== "");
  }
  const rate = numberFrom(env, "SANDBOX_RATE_PER_MINUTE");
  if (rate !== undefined) options.ratePerMinute = rate;
  const daily = numberFrom(env, "SANDBOX_DAILY_LIMIT");
  if (daily !== undefined) options.dailyLimit = daily;
  const now = env["SANDBOX_NOW"];
  if (now !== undefined && now !== "") options.now = now;
  const latency = numberFrom(env, "SANDBOX_LATENCY_MS");
  if (latency !== undefined) options.latencyMs = latency;
  if (env["SANDBOX_HOSTILE"] === "1") options.hostile = true;
  const faultRate = numberFrom(env, "SANDBOX_FAULT_RATE");
  if (faultRate !== undefined && faultRate > 0) {
    const kinds = env["SANDBOX_FAULTS"];
    const seed = numberFrom(env, "SANDBOX_SEED");
    options.faults = {
      rate: faultRate,
      ...(kinds !== undefined && kinds !== "" ? { kinds: parseFaultKinds(kinds) } : {}),
      ...(seed !== undefined ? { seed } : {}),
    };
  }
  return options;
}

function numberFrom(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const text = env[name];
  if (text === undefined || text.trim() === "") return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0)
    throw new Error(`${name} must be a non-negative number, got '${text}'.`);
  return value;
}

async function main(): Promise<void> {
  const options = optionsFromEnv(process.env);
  // Build the dataset before listening so the first request is not the slow one.
  getDataset();
  const running = await startSandbox(options);
  const keys = options.apiKeys ?? [DEMO_API_KEY];
  process.stdout.write(
    [
      `Kaisha sandbox API listening: ${running.url}`,
      `Demo API key: ${keys.includes(DEMO_API_KEY) ? DEMO_API_KEY : "(SANDBOX_API_KEYS set; demo key disabled)"}`,
      `Data clock: ${running.sandbox.now()}  (fictional sample data)`,
      "",
    ].join("\n"),
  );
  const stop = (): void => {
    void running.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
