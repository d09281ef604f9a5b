// Builds the add-in once for the e2e project (webpack Node API, production mode, sandbox defaults).
import fs from "node:fs";
import path from "node:path";
import webpack from "webpack";
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import { E2E_BUILD_BASE_URL, E2E_DIST, ROOT, SCREENSHOTS } from "./paths";

type ConfigFactory = (env: unknown, argv: { mode: string }) => webpack.Configuration;

export default async function globalSetup(): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  // Same settings `npm start` gives the build: sandbox base URL and its demo key.
  process.env["KAISHA_DEFAULT_BASE_URL"] = E2E_BUILD_BASE_URL;
  process.env["KAISHA_DEMO_KEY"] = DEMO_API_KEY;
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
  delete process.env["KAISHA_DEFAULT_BASE_URL"];
  delete process.env["KAISHA_DEMO_KEY"];
  if (stats.hasErrors()) {
    throw new Error(`e2e build failed:\n${stats.toString("errors-only")}`);
  }
}
