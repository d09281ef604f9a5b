// Public entry of the shared API client (no Office globals: Node, browsers, Excel shared runtime): what the
// add-in (functions/, taskpane/, src/session.ts), bench/ and scripts/ use. Tests import the modules directly.

export { createClient, PRODUCTION_BASE_URL, SANDBOX_BASE_URL, type KaishaClient } from "./client";
export type { RequestOptions, CallScope } from "./types";
export {
  AbortError,
  NotFoundError,
  ValidationError,
  isKaishaError,
  localizedMessage,
} from "./errors";
export { validateParams } from "./validate";
export { isStale } from "./stale";
export { REVALIDATION_SETTLE_MS } from "./revalidator";
