// Issue 13: a link with ?baseUrl= never gets the remembered key. Replayed against a PRODUCTION build
// (npm run build settings) in Chromium, and against the e2e (dev/test) build, which keeps overrides.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import webpack from "webpack";
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import { inputsStamp } from "./global-setup";
import { startHarness, type Harness } from "./harness";
import { E2E_DIST, ROOT } from "./paths";

type ConfigFactory = (env: unknown, argv: { mode: string }) => webpack.Configuration;

const PROD_DIST = path.join(ROOT, "test-artifacts", "e2e-prod-dist");
/** A key of the right shape that the user remembered on this computer. */
const KEY = "kaisakey_" + "R".repeat(43);
const tid = (id: string) => `[data-testid="${id}"]`;

/**
 * `npm run build` (with KAISHA_PREVIEW=1): production mode with none of the sandbox variables set. Skipped when nothing
 * the build reads changed since the last one (the same stamp as the e2e build's globalSetup).
 */
async function buildProduction(): Promise<void> {
  const stampFile = path.join(PROD_DIST, ".inputs-stamp");
  const stamp = inputsStamp();
  if (
    !process.env["KAISHA_E2E_REBUILD"] &&
    fs.existsSync(stampFile) &&
    fs.readFileSync(stampFile, "utf8") === stamp
  ) {
    return;
  }
  const names = [
    "KAISHA_DEFAULT_BASE_URL",
    "KAISHA_DEMO_KEY",
    "ADDIN_PRODUCTION_URL",
    "KAISHA_PREVIEW",
    "KAISHA_CONNECT_SRC",
  ];
  const saved = names.map((n) => [n, process.env[n]] as const);
  for (const n of names) delete process.env[n];
  // npm run build leaves the preview page out; this build asks for it to test it in production.
  process.env["KAISHA_PREVIEW"] = "1";
  try {
    const factory = require(path.join(ROOT, "webpack.config.js")) as ConfigFactory;
    const config = factory({}, { mode: "production" });
    config.output = { ...config.output, path: PROD_DIST };
    config.infrastructureLogging = { level: "error" };
    const stats = await new Promise<webpack.Stats>((resolve, reject) => {
      webpack(config, (err, result) => (err || !result ? reject(err) : resolve(result)));
    });
    if (stats.hasErrors()) throw new Error(stats.toString("errors-only"));
    fs.writeFileSync(stampFile, stamp);
  } finally {
    for (const [n, v] of saved) {
      if (v === undefined) delete process.env[n];
      else process.env[n] = v;
    }
  }
}

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

function bundleText(dir: string): string {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".js"))
    .map((f) => fs.readFileSync(path.join(dir, f), "utf8"))
    .join("\n");
}

describe("the remembered key and ?baseUrl (issue 13)", () => {
  jest.setTimeout(300_000);
  let h: Harness | undefined;
  let foreign: Awaited<ReturnType<typeof foreignHost>>;

  beforeAll(async () => {
    await buildProduction();
    foreign = await foreignHost();
  });

  afterAll(async () => {
    await h?.close();
    await foreign?.close();
  });

  test("the production bundle has no URL override code and no demo key; the e2e build has both", () => {
    const prod = bundleText(PROD_DIST);
    expect(prod).not.toContain('get("baseUrl")');
    expect(prod).not.toContain(DEMO_API_KEY);
    // The grep means something: the dev/test build does carry the override.
    expect(bundleText(E2E_DIST)).toContain('get("baseUrl")');
  });

  test.each([
    ["a key bound to production", { "kaisha.apiKeyBaseUrl": "https://api.irbank.net/v1" }],
    ["a key remembered before binding", {}],
  ])(
    "production build, %s: opening taskpane.html?baseUrl=<foreign> sends nothing there",
    async (_name, extra) => {
      h ??= await startHarness({ distDir: PROD_DIST });
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
      await page.waitForSelector(`${tid("connection-status")}[data-state="error"]`);
      expect(foreign.seen).toEqual([]);
      expect(requested.filter((u) => u.startsWith(foreign.url))).toEqual([]);
      expect(await page.inputValue(tid("key-input"))).toBe(KEY);
      await page.close();
    },
  );

  test("production build, preview page: ?baseUrl=<foreign> is ignored", async () => {
    h ??= await startHarness({ distDir: PROD_DIST });
    const page = await h.context.newPage();
    await page.goto(`${h.server.url}/preview.html?baseUrl=${encodeURIComponent(foreign.url)}`);
    await page.waitForSelector('#preview-root[data-ready="true"]');
    expect(await page.inputValue(tid("preview-base-url"))).toBe("https://api.irbank.net/v1");
    await page.close();
    expect(foreign.seen).toEqual([]);
  });

  test("e2e (dev/test) build: the override applies, but the key bound to the sandbox is not sent", async () => {
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
      await page.waitForSelector(`${tid("connection-status")}[data-state="error"]`);
      await page.waitForSelector(tid("key-bound-elsewhere"));
      expect(foreign.seen).toEqual([]);
      await page.close();
    } finally {
      await dev.close();
    }
  });
});
