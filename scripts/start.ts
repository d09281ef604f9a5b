// `npm start`: the sandbox API, a watching development build and the add-in's web host, in one process.
import { spawn } from "node:child_process";
import path from "node:path";
import webpack from "webpack";
import { DEMO_API_KEY } from "../sandbox/demo-key";
import { optionsFromEnv, startSandbox } from "../sandbox/server";
import {
  DEFAULT_RELAY_TARGET,
  findDevCertificate,
  RELAY_PREFIX,
  startDevServer,
} from "./dev-server";

const ROOT = path.join(__dirname, "..");
const DEV_PORT = Number(process.env["PORT"] ?? 3000);

/** The sandbox's base URL always ends in /v1, like the live API's. */
function apiBase(url: string): string {
  const trimmed = url.replace(/\/+$/, "");
  return trimmed.endsWith("/v1") ? trimmed : `${trimmed}/v1`;
}

/** Runs webpack in watch mode; resolves after the first build, logs every later one. */
function watchBuild(): Promise<webpack.Watching> {
  // webpack.config.js is plain CommonJS shared with the webpack CLI.
  const configFactory = require(path.join(ROOT, "webpack.config.js")) as (
    env: unknown,
    argv: { mode: string },
  ) => webpack.Configuration;
  const compiler = webpack(configFactory({}, { mode: "development" }));
  return new Promise((resolve, reject) => {
    let first = true;
    const watching = compiler.watch({ aggregateTimeout: 300 }, (err, stats) => {
      if (err) console.error(`build failed: ${err.message}`);
      else if (stats?.hasErrors()) console.error(stats.toString("errors-only"));
      else console.log(`build ok (${(stats?.endTime ?? 0) - (stats?.startTime ?? 0)} ms)`);
      if (first) {
        first = false;
        if (watching) resolve(watching);
        else reject(new Error("webpack did not start watching"));
      }
    });
  });
}

/**
 * On a desktop without Excel (Linux), opens the preview page in the default browser. KAISHA_NO_OPEN=1
 * or CI turns it off; a missing opener is ignored.
 */
function openPreviewWithoutExcel(url: string): void {
  const env = process.env;
  const desktop = env["DISPLAY"] !== undefined || env["WAYLAND_DISPLAY"] !== undefined;
  if (process.platform !== "linux" || !desktop || env["CI"] || env["KAISHA_NO_OPEN"]) return;
  try {
    const child = spawn("xdg-open", [url], { detached: true, stdio: "ignore" });
    child.on("error", () => undefined);
    child.unref();
  } catch {
    // no opener: the URL is printed above
  }
}

async function main(): Promise<void> {
  const certificate = findDevCertificate();
  // SANDBOX_PORT, SANDBOX_API_KEYS, SANDBOX_RATE_PER_MINUTE… apply here as with `npm run sandbox`.
  const sandboxOptions = optionsFromEnv(process.env);
  // CORS for this dev server's origins, also when PORT is not the default 3000.
  const devOrigins = certificate
    ? [`https://localhost:${DEV_PORT}`]
    : [`http://127.0.0.1:${DEV_PORT}`, `http://localhost:${DEV_PORT}`];
  const sandbox = await startSandbox({ ...sandboxOptions, corsOrigins: devOrigins });
  const sandboxBase = apiBase(sandbox.url);
  const demoKeyAccepted = sandboxOptions.apiKeys?.includes(DEMO_API_KEY) ?? true;
  // Read by webpack.config.js: the build defaults to the sandbox and carries its demo key.
  process.env["KAISHA_DEFAULT_BASE_URL"] = sandboxBase;
  process.env["KAISHA_DEMO_KEY"] = demoKeyAccepted ? DEMO_API_KEY : "";

  console.log("building the add-in (first build takes a while)…");
  const watching = await watchBuild();

  const relayTarget = process.env["KAISHA_RELAY_TARGET"] ?? DEFAULT_RELAY_TARGET;
  const server = await startDevServer({
    port: DEV_PORT,
    distDir: path.join(ROOT, "dist"),
    relayTarget,
    ...(certificate ? { tls: { key: certificate.key, cert: certificate.cert } } : {}),
    log: (line) => console.log(line),
  });

  const lines = [
    "",
    "Kaisha for Excel is running.",
    `  Preview (no Excel needed): ${server.url}/preview.html`,
    `  Task pane with a workbook: ${server.url}/workbook.html (every pane flow, no Excel needed)`,
    `  Task pane:                 ${server.url}/taskpane.html`,
    `  Manifest to sideload:      ${path.join(ROOT, "manifest.xml")}`,
    `  Sandbox API:               ${sandboxBase}`,
    `  Sandbox demo key:          ${demoKeyAccepted ? DEMO_API_KEY : "(disabled: SANDBOX_API_KEYS is set)"}`,
    `  Relay:                     ${server.url}${RELAY_PREFIX}/… -> ${relayTarget}`,
  ];
  if (!certificate) {
    lines.push(
      "",
      "  Note: serving plain http (no certificate found). Excel needs https://localhost:3000:",
      "  run `npx office-addin-dev-certs install` (or set HTTPS_KEY and HTTPS_CERT), then restart.",
    );
  }
  console.log(lines.join("\n"));
  openPreviewWithoutExcel(`${server.url}/preview.html`);

  const stop = () => {
    console.log("stopping…");
    watching.close(() => undefined);
    void Promise.allSettled([server.close(), sandbox.close()]).then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
