// The e2e harness: an in-process sandbox, the dev server over the e2e build, and a context in the
// run's headless Chromium (./browser.ts), with the Excel stand-in and screenshots.
import fs from "node:fs";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import type { SandboxOptions } from "../../sandbox/app";
import { startSandbox, type RunningSandbox } from "../../sandbox/server";
import { startDevServer, type DevServer } from "../../scripts/dev-server";
import type { PageSettings } from "../../scripts/page-settings";
import type { WorkbookSnapshot } from "../../standin/workbook-snapshot";
import { CHROMIUM, openBrowser } from "./browser";
import { E2E_DIST, SCREENSHOTS } from "./paths";

/**
 * The Excel stand-in, built from standin/excel-standin.ts with the preview's engine
 * (standin/STANDIN.md) into the e2e build by globalSetup.
 */
const STANDIN_FILE = path.join(E2E_DIST, "excel-standin.js");

/** Options of the Excel stand-in (standin/STANDIN.md); all optional. */
export interface StandInConfig {
  /** e.g. { ExcelApi: "1.16", CustomFunctionsRuntime: "1.4", SharedRuntime: "1.1" } */
  requirementSets?: Record<string, string>;
  /** how referenced cells reach `any` parameters on a 1.4 host (default "formatted"). */
  dataTypeArguments?: "off" | "formatted" | "all";
  /** what an empty referenced cell passes: null (Excel on the web, default) or 0 (Windows). */
  emptyArgument?: "null" | "zero";
  /** How custom functions are called (standin/STANDIN.md "Host calculation model"). */
  host?: "desktop" | "web";
  /** A workbook saved with `__excelStandIn.save()`: the page opens as it (reopen). */
  workbook?: WorkbookSnapshot;
}

export interface Harness {
  sandbox: RunningSandbox;
  server: DevServer;
  context: BrowserContext;
  /** Console errors and failed same-origin requests seen by any page (for diagnostics). */
  problems: string[];
  openPage(
    pathAndQuery: string,
    options?: { excel?: boolean; displayLanguage?: string; standIn?: StandInConfig },
  ): Promise<Page>;
  screenshot(page: Page, name: string): Promise<string>;
  close(): Promise<void>;
}

/** A URL whose host is not this machine (127.0.0.1 or localhost): the harness aborts it. */
const LEAVES_THIS_MACHINE = /^https?:\/\/(?!(?:127\.0\.0\.1|localhost)(?::\d+)?\/)/;

/**
 * Starts everything a browser test needs. Pages opened with `excel: true` get the Excel stand-in.
 * `settings` gives the pages other connection settings than the build's sandbox ones
 * (scripts/page-settings.js; key-binding.test.ts: production's); `sandbox` adds options to the
 * in-process sandbox (hostile-writes.test.ts: `hostile: true`).
 *
 * `pageClock: "sandbox"` starts the pages' clock (Date and timers) at the sandbox's data clock and
 * lets it run in real time, one timeline for every page and reload (Playwright `clock.install`).
 * The client's freshness (src/client/freshness.ts: the 15:30 JST close, JST midnight, filing
 * windows) then meets the sandbox's data the same way on every run; on the machine's clock a run
 * crossing 06:30 UTC on a weekday has its PRICE answers revalidated and their cells re-entered
 * mid-test. Plain TTLs still run out in real time (RANKINGS after 1 minute). The default; "real"
 * leaves the machine's clock (a test comparing the pane with Node's own date).
 * @example const h = await startHarness(); const page = await h.openPage("/preview.html"); await h.close();
 */
export async function startHarness(
  options: {
    settings?: PageSettings;
    sandbox?: SandboxOptions;
    pageClock?: "real" | "sandbox";
  } = {},
): Promise<Harness> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: install it with "apt-get install -y chromium" (see README).`,
    );
  }
  if (!fs.existsSync(path.join(E2E_DIST, "taskpane.html")) || !fs.existsSync(STANDIN_FILE)) {
    throw new Error(
      `The e2e build is missing in ${E2E_DIST}: the e2e project's globalSetup builds it.`,
    );
  }
  // ratePerMinute 0: the client paces itself; the sandbox's limiter is tested elsewhere.
  const sandbox = await startSandbox({
    port: 0,
    ratePerMinute: 0,
    corsOrigins: ["*"],
    ...options.sandbox,
  });
  const server = await startDevServer({
    port: 0,
    distDir: E2E_DIST,
    relayTarget: sandbox.url,
    ...(options.settings ? { pageSettings: options.settings } : {}),
  });
  // A context of its own in the run's Chromium (./browser.ts): storage (localStorage, IndexedDB)
  // lives as long as the context, across the pages and reloads of one harness, and no longer.
  const browser = await openBrowser();
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    locale: "ja-JP",
    timezoneId: "Asia/Tokyo",
  });
  if (options.pageClock !== "real") await context.clock.install({ time: sandbox.sandbox.now() });
  // Office.js tries a telemetry frame on Microsoft's servers: never leave the machine. The host
  // must be this machine's whole name (then a port or the path), not a name beginning with it:
  // http://localhost.example.com/ is another machine (test/e2e/offline.test.ts).
  await context.route(LEAVES_THIS_MACHINE, (route) => route.abort());
  const problems: string[] = [];
  fs.mkdirSync(SCREENSHOTS, { recursive: true });

  return {
    sandbox,
    server,
    context,
    problems,
    async openPage(pathAndQuery, options = {}) {
      const page = await context.newPage();
      page.on("console", (msg) => {
        if (msg.type() === "error") problems.push(`console: ${msg.text()}`);
      });
      page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
      if (options.excel) {
        const config = JSON.stringify({
          displayLanguage: options.displayLanguage ?? "ja-JP",
          ...options.standIn,
        });
        const source = fs.readFileSync(STANDIN_FILE, "utf8");
        await page.addInitScript({
          content: `window.__excelStandInConfig = ${config};\n${source}`,
        });
      }
      await page.goto(`${server.url}${pathAndQuery}`);
      return page;
    },
    async screenshot(page, name) {
      const file = path.join(SCREENSHOTS, `${name}.png`);
      // Animations fast-forwarded to their end (the tab indicator's slide): the picture shows the
      // settled screen without a test sleeping through the animation first.
      await page.screenshot({ path: file, fullPage: true, animations: "disabled" });
      return file;
    },
    async close() {
      await context.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
      await Promise.allSettled([server.close(), sandbox.close()]);
    },
  };
}
