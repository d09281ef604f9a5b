// Builds the add-in once for the e2e project (webpack Node API, production mode, sandbox defaults).
// A rebuild is skipped when nothing the build reads has changed since the last good one
// (KAISHA_E2E_REBUILD=1 forces it; CI starts from a fresh clone, so it always builds).
import fs from "node:fs";
import path from "node:path";
import webpack from "webpack";
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import { E2E_BUILD_BASE_URL, E2E_DIST, ROOT, SCREENSHOTS } from "./paths";

type ConfigFactory = (env: unknown, argv: { mode: string }) => webpack.Configuration;

/** Everything the build reads, apart from node_modules (package-lock.json stands for it). */
const INPUTS = [
  "src",
  "functions",
  "taskpane",
  "assets",
  "scripts",
  "sandbox/demo-key.ts",
  "manifest.xml",
  "webpack.config.js",
  "tsconfig.json",
  "package-lock.json",
];
const STAMP = path.join(E2E_DIST, ".inputs-stamp");

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

export default async function globalSetup(): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const stamp = inputsStamp();
  const fresh =
    !process.env["KAISHA_E2E_REBUILD"] &&
    fs.existsSync(STAMP) &&
    fs.readFileSync(STAMP, "utf8") === stamp &&
    fs.existsSync(path.join(E2E_DIST, "taskpane.html"));
  if (fresh) return;

  // Same settings `npm start` gives the build: sandbox base URL and its demo key.
  process.env["KAISHA_DEFAULT_BASE_URL"] = E2E_BUILD_BASE_URL;
  process.env["KAISHA_DEMO_KEY"] = DEMO_API_KEY;
  // build-report.json: what each script holds (test/e2e/build.test.ts, the runtime page's budget).
  process.env["KAISHA_BUILD_REPORT"] = "1";
  try {
    const factory = require(path.join(ROOT, "webpack.config.js")) as ConfigFactory;
    const config = factory({}, { mode: "production" });
    config.output = { ...config.output, path: E2E_DIST };
    config.infrastructureLogging = { level: "error" };
    const stats = await new Promise<webpack.Stats>((resolve, reject) => {
      webpack(config, (err, result) => {
        if (err) reject(err);
        else if (!result) reject(new Error("webpack returned no stats"));
        else resolve(result);
      });
    });
    if (stats.hasErrors()) throw new Error(`e2e build failed:\n${stats.toString("errors-only")}`);
    fs.writeFileSync(STAMP, stamp);
  } finally {
    delete process.env["KAISHA_DEFAULT_BASE_URL"];
    delete process.env["KAISHA_DEMO_KEY"];
    delete process.env["KAISHA_BUILD_REPORT"];
  }
}
