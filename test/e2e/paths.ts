// Where the e2e suite builds the add-in and leaves its artifacts (shared by global setup and tests).
import path from "node:path";

export const ROOT = path.join(__dirname, "..", "..");
/** The e2e build: production mode with sandbox defaults, kept apart from the user's dist/. */
export const E2E_DIST = path.join(ROOT, "test-artifacts", "e2e-dist");
/** webpack's filesystem cache of the e2e build (test/e2e/global-setup.ts). */
export const WEBPACK_CACHE = path.join(ROOT, "test-artifacts", "webpack-cache");
export const SCREENSHOTS = path.join(ROOT, "test-artifacts", "screenshots");
/** The base URL baked into the e2e build; tests point pages at their own sandbox with ?baseUrl=. */
export const E2E_BUILD_BASE_URL = "http://127.0.0.1:8787/v1";
