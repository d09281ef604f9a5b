// The add-in's web host for development and e2e tests: serves dist/ and a same-origin relay to the API.
import fs from "node:fs";
import https from "node:https";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import { PAGE_SETTINGS_FILE, pageSettingsScript, type PageSettings } from "./page-settings";

/** The live API the relay forwards to unless told otherwise. */
export const DEFAULT_RELAY_TARGET = "https://api.irbank.net/v1";
/** The same-origin path the task pane's "relay" connection mode sends requests to. */
export const RELAY_PREFIX = "/relay/v1";

/** Request headers passed to the API; everything else (cookies, origin, referer) stays here. */
const FORWARDED_REQUEST_HEADERS = ["authorization", "accept", "accept-language", "if-none-match"];
/** Response headers passed back; `retry-after` keeps the client's 429 backoff exact. */
const FORWARDED_RESPONSE_HEADERS = ["content-type", "retry-after", "etag", "cache-control", "date"];
/** A relay call that gets no answer from the API in this time fails with 504. */
const RELAY_TIMEOUT_MS = 60_000;

export interface DevServerOptions {
  /** TCP port; 0 picks a free one. @default 3000 */
  port?: number;
  /** Host to bind. @default "127.0.0.1" */
  hostname?: string;
  /** The built add-in. @default "<repo>/dist" */
  distDir?: string;
  /** Base URL (…/v1) the relay forwards to. @default DEFAULT_RELAY_TARGET */
  relayTarget?: string;
  /** TLS key and certificate (PEM); without them the server speaks plain http. */
  tls?: { key: string | Buffer; cert: string | Buffer };
  /** Where one line per relayed request goes (method, path, status, time; never a header). */
  log?: (line: string) => void;
  /** fetch used by the relay (tests inject one). @default globalThis.fetch */
  fetch?: typeof fetch;
  /**
   * Host names (no port) the server answers to besides localhost, 127.0.0.1, [::1] and `hostname`:
   * any other Host header is refused (DNS rebinding: a web page whose name resolves to this
   * machine must not reach the relay or the pages).
   */
  allowedHosts?: readonly string[];
  /**
   * The connection settings a sandbox build's pages get (scripts/page-settings.js), answered in
   * place of the build's own settings file: one build, run with the sandbox's or production's
   * settings (test/e2e/key-binding.test.ts). Without: the file as built.
   */
  pageSettings?: PageSettings;
}

export interface DevServer {
  /** Origin the server answers on, e.g. `https://localhost:3000`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * An error in the API's common shape (openapi.json ErrorResponse), so the client reads relay
 * failures like API ones.
 */
function relayError(
  status: 400 | 403 | 405 | 502 | 504,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return Response.json({ error: { code, message } }, { status, headers });
}

/**
 * True when the path as sent smuggles a separator or a dot segment past URL normalisation:
 * encoded slash or backslash (`%2f`, `%5c`), encoded dots (`%2e`, e.g. `%2e%2e`), double encoding
 * (`%25`), `..` in any form, and matrix parameters (`..;`, `;`) that some servers strip.
 */
function isSuspiciousRelayPath(rawPath: string): boolean {
  const p = rawPath.toLowerCase();
  return /%2f|%5c|%2e|%25|\\|;/.test(p) || p.split("/").some((seg) => seg === ".." || seg === ".");
}

/** The path exactly as the client sent it (Node's raw request line), before URL normalisation. */
function rawPathOf(c: { env: unknown; req: { url: string } }): string {
  const incoming = (c.env as { incoming?: { url?: string } } | undefined)?.incoming;
  const raw = incoming?.url ?? new URL(c.req.url).pathname;
  return raw.split("?")[0] ?? "";
}

/**
 * The Hono app behind startDevServer(): static files from `distDir` plus the relay. Exported so
 * tests can call it in process.
 */
export function createDevApp(options: DevServerOptions = {}): Hono {
  const distDir = path.resolve(options.distDir ?? path.join(__dirname, "..", "dist"));
  const target = (options.relayTarget ?? DEFAULT_RELAY_TARGET).replace(/\/+$/, "");
  const doFetch = options.fetch ?? globalThis.fetch;
  const log = options.log ?? (() => undefined);
  const app = new Hono();
  const hosts = new Set(
    [
      "localhost",
      "127.0.0.1",
      "[::1]",
      options.hostname ?? "127.0.0.1",
      ...(options.allowedHosts ?? []),
    ].map((h) => h.toLowerCase()),
  );

  // DNS rebinding: the Host header must name this server, whatever address the name resolved to.
  app.use("*", async (c, next) => {
    const host = c.req.header("host") ?? new URL(c.req.url).host;
    const name = host.toLowerCase().replace(/:\d+$/, "");
    if (!hosts.has(name)) {
      return relayError(
        403,
        "forbidden",
        "Unknown Host header: open the add-in by its own address.",
      );
    }
    await next();
  });

  // Checked on the path as sent, before routing: URL normalisation would fold `%2e%2e` away.
  app.use("*", async (c, next) => {
    const raw = rawPathOf(c);
    if (raw.toLowerCase().startsWith("/relay") && isSuspiciousRelayPath(raw)) {
      return relayError(400, "invalid_parameter", "Invalid relay path.");
    }
    await next();
  });

  app.all(`${RELAY_PREFIX}/*`, async (c) => {
    // GET only: HEAD would let a page probe the API without the client's checks.
    if (c.req.method !== "GET") {
      return relayError(405, "invalid_parameter", "The relay forwards GET requests only.", {
        Allow: "GET",
      });
    }
    const incoming = new URL(c.req.url);
    const rest = incoming.pathname.slice(RELAY_PREFIX.length);
    // Never let a crafted path climb out of the API's /v1 prefix (encoded forms: checked above).
    if (isSuspiciousRelayPath(rest)) {
      return relayError(400, "invalid_parameter", "Invalid relay path.");
    }
    const upstreamUrl = `${target}${rest}${incoming.search}`;
    const headers = new Headers();
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const value = c.req.header(name);
      if (value !== undefined) headers.set(name, value);
    }
    const started = Date.now();
    let upstream: Response;
    try {
      upstream = await doFetch(upstreamUrl, {
        method: "GET",
        headers,
        redirect: "manual",
        signal: AbortSignal.timeout(RELAY_TIMEOUT_MS),
      });
    } catch (err) {
      const timedOut = err instanceof Error && err.name === "TimeoutError";
      log(`relay ${c.req.method} ${rest} -> ${timedOut ? 504 : 502} (${Date.now() - started} ms)`);
      // The target URL stays out of answers: the page has no need for the relay's configuration.
      return timedOut
        ? relayError(504, "timeout", "The API did not answer the relay in time.")
        : relayError(502, "connection_failed", "The relay could not reach the API.");
    }
    log(`relay ${c.req.method} ${rest} -> ${upstream.status} (${Date.now() - started} ms)`);
    const out = new Headers();
    for (const name of FORWARDED_RESPONSE_HEADERS) {
      const value = upstream.headers.get(name);
      if (value !== null) out.set(name, value);
    }
    return new Response(upstream.body, { status: upstream.status, headers: out });
  });

  app.get("/", (c) =>
    c.html(
      `<!doctype html><meta charset="utf-8"><title>Kaisha for Excel (dev)</title>` +
        `<h1>Kaisha for Excel</h1><ul>` +
        `<li><a href="/preview.html">Preview: try the KAISHA functions without Excel</a></li>` +
        `<li><a href="/taskpane.html">Task pane</a></li>` +
        `<li><a href="/manifest.xml">manifest.xml</a></li></ul>`,
    ),
  );

  // Development builds change under a running pane: never let the browser or Excel cache them.
  app.use("*", async (c, next) => {
    await next();
    c.header("Cache-Control", "no-store");
  });
  const settings = options.pageSettings;
  if (settings !== undefined) {
    const script = pageSettingsScript(settings);
    app.get(`/${PAGE_SETTINGS_FILE}`, (c) =>
      c.body(script, 200, { "Content-Type": "text/javascript; charset=utf-8" }),
    );
  }
  app.use("*", serveStatic({ root: distDir }));
  app.notFound((c) => c.text(`Not found: ${c.req.path} (is dist/ built?)`, 404));
  return app;
}

/**
 * Starts the add-in's web host. Resolves once it listens.
 * @example
 * const server = await startDevServer({ port: 0, relayTarget: "http://127.0.0.1:8787/v1" });
 * console.log(`${server.url}/preview.html`);
 * await server.close();
 */
export function startDevServer(options: DevServerOptions = {}): Promise<DevServer> {
  const app = createDevApp(options);
  const hostname = options.hostname ?? "127.0.0.1";
  const tls = options.tls;
  return new Promise((resolve, reject) => {
    const server = serve(
      {
        fetch: app.fetch,
        port: options.port ?? 3000,
        hostname,
        ...(tls
          ? { createServer: https.createServer, serverOptions: { key: tls.key, cert: tls.cert } }
          : {}),
      },
      (info: AddressInfo) => {
        // Excel and the dev certificate know the server as "localhost".
        const host = hostname === "127.0.0.1" && tls ? "localhost" : hostname;
        resolve({
          url: `${tls ? "https" : "http"}://${host}:${info.port}`,
          port: info.port,
          close: () =>
            new Promise<void>((done) => {
              if ("closeAllConnections" in server) server.closeAllConnections();
              server.close(() => done());
            }),
        });
      },
    );
    server.once("error", reject);
  });
}

/**
 * TLS material for https://localhost: HTTPS_KEY/HTTPS_CERT (paths) when set, else the certificate
 * `office-addin-dev-certs install` writes to ~/.office-addin-dev-certs; undefined when neither exists.
 */
export function findDevCertificate(
  env: NodeJS.ProcessEnv = process.env,
  home: string = process.env["HOME"] ?? "",
): { key: Buffer; cert: Buffer; source: string } | undefined {
  const candidates: [string, string][] = [];
  if (env["HTTPS_KEY"] && env["HTTPS_CERT"]) candidates.push([env["HTTPS_KEY"], env["HTTPS_CERT"]]);
  const dir = path.join(home, ".office-addin-dev-certs");
  candidates.push([path.join(dir, "localhost.key"), path.join(dir, "localhost.crt")]);
  for (const [keyPath, certPath] of candidates) {
    if (fs.existsSync(keyPath) && fs.existsSync(certPath)) {
      return { key: fs.readFileSync(keyPath), cert: fs.readFileSync(certPath), source: certPath };
    }
  }
  return undefined;
}
