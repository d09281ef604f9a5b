// The e2e run's one Chromium: globalSetup launches it as a server, every suite's harness connects to
// it and works in contexts of its own (a launch per suite cost each suite a browser start-up).
import { chromium, type Browser, type BrowserServer } from "playwright-core";

/** Debian's Chromium; no browser is ever downloaded by npm (.ci/run installs the package). */
export const CHROMIUM = "/usr/bin/chromium";
/** Where globalSetup leaves the server's address for the test processes (they inherit its env). */
const ENDPOINT_VARIABLE = "KAISHA_E2E_BROWSER";

const LAUNCH_OPTIONS = {
  executablePath: CHROMIUM,
  headless: true,
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};

/** The browser globalSetup started (globalTeardown closes it; both run in jest's main process). */
let server: BrowserServer | undefined;

/** Starts the run's Chromium and publishes its address to the test processes. */
export async function launchSharedBrowser(): Promise<void> {
  server = await chromium.launchServer(LAUNCH_OPTIONS);
  process.env[ENDPOINT_VARIABLE] = server.wsEndpoint();
}

export async function closeSharedBrowser(): Promise<void> {
  delete process.env[ENDPOINT_VARIABLE];
  await server?.close();
  server = undefined;
}

/**
 * A connection to the run's Chromium, or a browser of its own where no run started one (a suite
 * run by a script outside jest: bench/browser-run.ts). `close()` ends the connection (and every
 * context it opened), or that own browser.
 */
export function openBrowser(): Promise<Browser> {
  const endpoint = process.env[ENDPOINT_VARIABLE];
  return endpoint ? chromium.connect(endpoint) : chromium.launch(LAUNCH_OPTIONS);
}
