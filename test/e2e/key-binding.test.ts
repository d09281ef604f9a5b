// A link with ?baseUrl= never gets the remembered key. Replayed in Chromium on the e2e build with
// PRODUCTION's connection settings (npm run build's: live API, no demo key, no overrides; served by
// the harness, scripts/page-settings.js), and with the build's own sandbox settings, which keep overrides.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Page } from "playwright-core";
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import { PRODUCTION_PAGE_SETTINGS } from "../../scripts/page-settings";
import { startHarness, type Harness } from "./harness";
import { E2E_DIST } from "./paths";

/** A key of the right shape that the user remembered on this computer. */
const KEY = "kaisakey_" + "R".repeat(43);
const tid = (id: string) => `[data-testid="${id}"]`;

/** The attacker's host: answers like the API (CORS open) and records every request. */
async function foreignHost(): Promise<{ url: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url} auth=${req.headers.authorization ?? "-"}`);
    res.writeHead(200, {
      "content-type": "application/json",
      "access-control-allow-origin": "*",
      "access-control-allow-headers": "authorization, accept",
    });
    res.end('{"remaining": 4999}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * Waits for `selector` while moving the page's clock (the harness installs it) on a second at a
 * time: the start-up check of a key asks an unreachable server, and the client's retries wait out
 * their backoff (a second and more each, src/client/retry.ts) on the page's timers. Left to real
 * time they cost each test several seconds of doing nothing. Bounded: past two minutes of the
 * page's time, waitForSelector fails with its own message.
 */
async function waitMovingClock(page: Page, selector: string): Promise<void> {
  for (let s = 0; s < 120 && (await page.locator(selector).count()) === 0; s += 1)
    await page.clock.runFor(1_000);
  await page.waitForSelector(selector);
}

function bundleText(dir: string): string {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".js"))
    .map((f) => fs.readFileSync(path.join(dir, f), "utf8"))
    .join("\n");
}

describe("the remembered key and ?baseUrl", () => {
  jest.setTimeout(300_000);
  let h: Harness | undefined;
  let foreign: Awaited<ReturnType<typeof foreignHost>>;

  beforeAll(async () => {
    foreign = await foreignHost();
  });

  afterAll(async () => {
    await h?.close();
    await foreign?.close();
  });

  test("no script of the build carries the demo key; only the sandbox settings file does", () => {
    // npm run build compiles the same modules with "" for the key (test/e2e/build.test.ts), so
    // no production script can carry it either; its override code: build.test.ts, "minified away".
    const scripts = bundleText(E2E_DIST);
    expect(scripts.split(DEMO_API_KEY).length - 1).toBe(1);
    expect(fs.readFileSync(path.join(E2E_DIST, "kaisha-settings.js"), "utf8")).toContain(
      DEMO_API_KEY,
    );
    // The grep means something: the build does carry the override code.
    expect(scripts).toContain('get("baseUrl")');
  });

  test.each([
    ["a key bound to production", { "kaisha.apiKeyBaseUrl": "https://api.irbank.net/v1" }],
    ["a key remembered before binding", {}],
  ])(
    "production settings, %s: opening taskpane.html?baseUrl=<foreign> sends nothing there",
    async (_name, extra) => {
      h ??= await startHarness({ settings: PRODUCTION_PAGE_SETTINGS });
      const storage = { "kaisha.apiKey": KEY, ...extra };
      const page = await h.context.newPage();
      const requested: string[] = [];
      page.on("request", (r) => requested.push(r.url()));
      await page.addInitScript((items: Record<string, string>) => {
        for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v);
      }, storage);
      const query = new URLSearchParams({ baseUrl: foreign.url, mode: "direct" });
      await page.goto(`${h.server.url}/taskpane.html?${query.toString()}`);
      await page.waitForSelector(`${tid("app-root")}[data-ready="true"]`);
      // The start-up check of the remembered key ran (against production, which is unreachable
      // from this machine), not against the foreign host.
      await waitMovingClock(page, `${tid("connection-status")}[data-state="error"]`);
      expect(foreign.seen).toEqual([]);
      expect(requested.filter((u) => u.startsWith(foreign.url))).toEqual([]);
      expect(await page.inputValue(tid("key-input"))).toBe(KEY);
      await page.close();
    },
  );

  test("production settings, preview page: ?baseUrl=<foreign> is ignored", async () => {
    h ??= await startHarness({ settings: PRODUCTION_PAGE_SETTINGS });
    const page = await h.context.newPage();
    await page.goto(`${h.server.url}/preview.html?baseUrl=${encodeURIComponent(foreign.url)}`);
    await page.waitForSelector('#preview-root[data-ready="true"]');
    expect(await page.inputValue(tid("preview-base-url"))).toBe("https://api.irbank.net/v1");
    await page.close();
    expect(foreign.seen).toEqual([]);
  });

  test("the build's sandbox settings: the override applies, but the key bound to the sandbox is not sent", async () => {
    const dev = await startHarness();
    try {
      const page = await dev.context.newPage();
      await page.addInitScript(
        (items: Record<string, string>) => {
          for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v);
        },
        { "kaisha.apiKey": DEMO_API_KEY, "kaisha.apiKeyBaseUrl": dev.sandbox.url },
      );
      const query = new URLSearchParams({ baseUrl: foreign.url.replace("127.0.0.1", "localhost") });
      await page.goto(`${dev.server.url}/taskpane.html?${query.toString()}`);
      await page.waitForSelector(`${tid("app-root")}[data-ready="true"]`);
      await waitMovingClock(page, `${tid("connection-status")}[data-state="error"]`);
      await page.waitForSelector(tid("key-bound-elsewhere"));
      expect(foreign.seen).toEqual([]);
      await page.close();
    } finally {
      await dev.close();
    }
  });
});
