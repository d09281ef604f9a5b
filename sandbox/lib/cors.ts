// CORS policy: the add-in's dev origins plus configured ones; preflight never needs a key.
import { cors } from "hono/cors";
import type { MiddlewareHandler } from "hono";

/** The dev-server origins the add-in runs on (webpack dev server, port 3000). */
const DEFAULT_CORS_ORIGINS: readonly string[] = [
  "https://localhost:3000",
  "http://localhost:3000",
  "http://127.0.0.1:3000",
];

/**
 * CORS middleware allowing the default origins and `extra` (`"*"` in `extra` allows any origin).
 * Preflight (OPTIONS) is answered here with 204 before authentication runs, and allows the
 * Authorization header; `Retry-After` is exposed so browser clients can honour 429 backoff.
 */
export function corsMiddleware(extra: readonly string[] = []): MiddlewareHandler {
  const allowed = new Set([...DEFAULT_CORS_ORIGINS, ...extra]);
  const any = allowed.has("*");
  return cors({
    origin: (origin) => (any || allowed.has(origin) ? origin : null),
    allowMethods: ["GET", "HEAD", "OPTIONS"],
    allowHeaders: ["Authorization", "Content-Type", "Accept"],
    exposeHeaders: ["Retry-After"],
    maxAge: 600,
  });
}
