// The e2e project's globalSetup: starts the add-in's one build (the e2e build, whose pages read their
// connection settings at run time) and the run's one Chromium (./browser.ts).
import fs from "node:fs";
import path from "node:path";
import webpack from "webpack";
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import writeSandboxTables from "../sandbox-tables";
import { launchSharedBrowser } from "./browser";
import { startBuild } from "./build-outcome";
import { E2E_BUILD_BASE_URL, E2E_DIST, ROOT, SCREENSHOTS, WEBPACK_CACHE } from "./paths";

type ConfigFactory = (env: unknown, argv: { mode: string }) => webpack.Configuration;

/** Everything the build reads, apart from node_modules (package-lock.json stands for it). */
const INPUTS = [
  "src",
  "functions",
  "taskpane",
  "standin",
  "assets",
  "scripts",
  "sandbox/demo-key.ts",
  "manifest.xml",
  "webpack.config.js",
  "tsconfig.json",
  "package-lock.json",
];
const SANDBOX_VARIABLES = [
  "KAISHA_DEFAULT_BASE_URL",
  "KAISHA_DEMO_KEY",
  "ADDIN_PRODUCTION_URL",
  "KAISHA_BUILD_REPORT",
  "KAISHA_PREVIEW",
  "KAISHA_CONNECT_SRC",
];

function newestMtime(target: string): number {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target))
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

export function inputsStamp(): string {
  return String(Math.max(...INPUTS.map((p) => newestMtime(path.join(ROOT, p)))));
}

/** True when `dir` holds a build of exactly these inputs (`stamp`). */
function builtFrom(dir: string, stamp: string): boolean {
  const stampFile = path.join(dir, ".inputs-stamp");
  return (
    !process.env["KAISHA_E2E_REBUILD"] &&
    fs.existsSync(stampFile) &&
    fs.readFileSync(stampFile, "utf8") === stamp &&
    fs.existsSync(path.join(dir, "taskpane.html"))
  );
}

/**
 * webpack.config.js read with exactly `env` set (the factory reads the environment when called):
 * the sandbox variables are cleared first, so the build carries no setting of the caller's shell.
 */
function configFor(outDir: string, env: Record<string, string>): webpack.Configuration {
  const saved = SANDBOX_VARIABLES.map((n) => [n, process.env[n]] as const);
  for (const n of SANDBOX_VARIABLES) delete process.env[n];
  Object.assign(process.env, env);
  try {
    const factory = require(path.join(ROOT, "webpack.config.js")) as ConfigFactory;
    const config = factory({}, { mode: "production" });
    config.output = { ...config.output, path: outDir };
    config.infrastructureLogging = { level: "error" };
    // webpack's filesystem cache: a run after a change rebuilds only the modules it reaches (a
    // fresh clone has none and builds in full). KAISHA_E2E_REBUILD=1 builds without it.
    config.cache = process.env["KAISHA_E2E_REBUILD"]
      ? false
      : {
          type: "filesystem",
          cacheDirectory: WEBPACK_CACHE,
          buildDependencies: { config: [path.join(ROOT, "webpack.config.js")] },
        };
    return config;
  } finally {
    for (const [n, v] of saved) {
      if (v === undefined) delete process.env[n];
      else process.env[n] = v;
    }
  }
}

/**
 * The build every e2e suite shares, made once per run: production mode with `npm start`'s sandbox
 * settings (sandbox base URL, demo key, build-report.json). Its pages read the connection settings
 * from kaisha-settings.js, which the harness's server may answer with production's
 * (scripts/page-settings.js); what else `npm run build` does differently is checked from the
 * webpack config (test/e2e/build.test.ts "webpack settings by build"). The build is skipped when
 * nothing it reads has changed since the last good one (KAISHA_E2E_REBUILD=1 forces it; CI starts
 * from a fresh clone, so it always builds).
 */
export default async function globalSetup(): Promise<void> {
  // Every e2e suite starts a sandbox: one generation of its tables for them all.
  writeSandboxTables();
  // Not awaited: jest starts the suites while webpack works, and the unit suites use the time (a
  // browser suite waits for the outcome first, ./build-ready.ts; globalTeardown awaits the build).
  startBuild(buildForE2e);
  // Chromium starts while webpack works (globalTeardown, ./global-teardown.ts, closes it).
  await launchSharedBrowser();
}

/** The e2e build alone (also bench/build-for-chromium.ts), skipped when a build of the same inputs is there. */
export async function buildForE2e(): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const stamp = inputsStamp();
  if (builtFrom(E2E_DIST, stamp)) return;
  const env = {
    KAISHA_DEFAULT_BASE_URL: E2E_BUILD_BASE_URL,
    KAISHA_DEMO_KEY: DEMO_API_KEY,
    // build-report.json: what each script holds (test/e2e/build.test.ts, the page's budget).
    KAISHA_BUILD_REPORT: "1",
  };
  await compile(configFor(E2E_DIST, env));
  fs.writeFileSync(path.join(E2E_DIST, ".inputs-stamp"), stamp);
}

/** One webpack build; resolves once its cache is written (the next run reads it). */
function compile(config: webpack.Configuration): Promise<void> {
  const compiler = webpack(config);
  return new Promise((resolve, reject) => {
    compiler.run((err, stats) => {
      compiler.close((closeErr) => {
        if (err ?? closeErr) reject(err ?? closeErr);
        else if (stats?.hasErrors())
          reject(new Error(`e2e build failed:\n${stats.toString("errors-only")}`));
        else resolve();
      });
    });
  });
}
