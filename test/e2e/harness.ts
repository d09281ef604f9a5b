// The e2e harness: an in-process sandbox, the dev server over the e2e build, and headless Chromium
// (Debian's /usr/bin/chromium through playwright-core), with the Excel stand-in and screenshots.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { startSandbox, type RunningSandbox } from "../../sandbox/server";
import { startDevServer, type DevServer } from "../../scripts/dev-server";
import { E2E_DIST, SCREENSHOTS } from "./paths";

const CHROMIUM = "/usr/bin/chromium";
const LAUNCH_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const STANDIN_SOURCE = fs.readFileSync(path.join(__dirname, "excel-standin.js"), "utf8");

export interface Harness {
  sandbox: RunningSandbox;
  server: DevServer;
  context: BrowserContext;
  /** Console errors and failed same-origin requests seen by any page (for diagnostics). */
  problems: string[];
  openPage(
    pathAndQuery: string,
    options?: { excel?: boolean; displayLanguage?: string },
  ): Promise<Page>;
  screenshot(page: Page, name: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts everything a browser test needs. Pages opened with `excel: true` get the Excel stand-in.
 * `distDir` serves another build (key-binding.test.ts: a production build).
 * @example const h = await startHarness(); const page = await h.openPage("/preview.html"); await h.close();
 */
export async function startHarness(options: { distDir?: string } = {}): Promise<Harness> {
  const distDir = options.distDir ?? E2E_DIST;
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: install it with "apt-get install -y chromium" (see README).`,
    );
  }
  if (!fs.existsSync(path.join(distDir, "taskpane.html"))) {
    throw new Error(
      `The e2e build is missing in ${distDir}: the e2e project's globalSetup builds it.`,
    );
  }
  // ratePerMinute 0: the client paces itself; the sandbox's limiter is tested elsewhere.
  const sandbox = await startSandbox({ port: 0, ratePerMinute: 0, corsOrigins: ["*"] });
  const server = await startDevServer({ port: 0, distDir, relayTarget: sandbox.url });
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kaisha-e2e-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    args: LAUNCH_ARGS,
    headless: true,
    viewport: { width: 1280, height: 900 },
    locale: "ja-JP",
    timezoneId: "Asia/Tokyo",
  });
  // Office.js tries a telemetry frame on Microsoft's servers: never leave the machine.
  await context.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) => route.abort());
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
        const config = JSON.stringify({ displayLanguage: options.displayLanguage ?? "ja-JP" });
        await page.addInitScript({
          content: `window.__excelStandInConfig = ${config};\n${STANDIN_SOURCE}`,
        });
      }
      await page.goto(`${server.url}${pathAndQuery}`);
      return page;
    },
    async screenshot(page, name) {
      const file = path.join(SCREENSHOTS, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      return file;
    },
    async close() {
      await context.close().catch(() => undefined);
      await Promise.allSettled([server.close(), sandbox.close()]);
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
