// npm test: jest at once (its e2e globalSetup builds beside the unit suites) with typecheck, lint and
// knip at low priority beside it, whose browser suites leave the cores idle while pages wait.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { OUTCOME_VARIABLE, readOutcome } from "./e2e/build-outcome";
import { ROOT } from "./e2e/paths";

/** The package.json scripts run beside the build and jest; each must pass for npm test to pass. */
const SCRIPTS = ["typecheck", "lint", "knip"];
/**
 * The checks' scheduling priority (nice 10: about a tenth of a core's share against jest's processes
 * at 0): they use the CPU jest leaves idle and take little from the tests when both want a core.
 */
const CHECK_PRIORITY = 10;

interface Outcome {
  name: string;
  ok: boolean;
  seconds: number;
  output: string;
}

/**
 * Runs `npm run <script>` with its output in a file, not a pipe: a pipe nobody reads while webpack
 * holds this process's thread would stall a check that prints a lot (a failing lint).
 */
function runScript(name: string, dir: string): Promise<Outcome> {
  const started = Date.now();
  const file = path.join(dir, `${name}.log`);
  const fd = fs.openSync(file, "w");
  const child = spawn("npm", ["run", "--silent", name], {
    cwd: ROOT,
    stdio: ["ignore", fd, fd],
    // npm is npm.cmd on Windows, which only a shell runs.
    shell: process.platform === "win32",
  });
  // Set before npm starts the check's own process, which inherits it.
  if (child.pid !== undefined) {
    try {
      os.setPriority(child.pid, CHECK_PRIORITY);
    } catch {
      // A system that refuses only leaves the check at jest's priority.
    }
  }
  return new Promise((resolve) => {
    const done = (ok: boolean, extra = ""): void => {
      fs.closeSync(fd);
      const output = fs.readFileSync(file, "utf8") + extra;
      resolve({ name, ok, seconds: (Date.now() - started) / 1000, output });
    };
    child.on("error", (err) => done(false, `\n${err.message}\n`));
    child.on("exit", (code) => done(code === 0));
  });
}

/**
 * The e2e build as jest's globalSetup reported it in `file` (test/e2e/build-outcome.ts); none when
 * jest ran no browser suite (`npm test -- test/client`).
 */
function buildStep(file: string): Outcome[] {
  const outcome = readOutcome(file);
  if (outcome === undefined) return [];
  return [{ name: "e2e build", ok: outcome.ok, seconds: outcome.seconds, output: outcome.message }];
}

/**
 * jest (unit and e2e projects, in the workers jest.config.js sets), its output on this terminal,
 * with npm test's own arguments; resolves true when it passes.
 */
function runJest(args: string[], buildOutcome: string): Promise<boolean> {
  const child = spawn(process.execPath, [require.resolve("jest/bin/jest"), ...args], {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, [OUTCOME_VARIABLE]: buildOutcome },
  });
  return new Promise((resolve) => {
    child.on("error", () => resolve(false));
    child.on("exit", (code) => resolve(code === 0));
  });
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kaisha-checks-"));
  const checks = Promise.all(SCRIPTS.map((s) => runScript(s, dir)));
  // Where jest's e2e globalSetup leaves the build's outcome (each browser suite fails with its
  // errors when it failed); reported here beside the checks.
  const buildOutcome = path.join(dir, "e2e-build.json");
  const jestPassed = await runJest(process.argv.slice(2), buildOutcome);
  const outcomes = [...(await checks), ...buildStep(buildOutcome)];
  fs.rmSync(dir, { recursive: true, force: true });
  for (const o of outcomes) {
    process.stdout.write(`── ${o.name}: ${o.ok ? "ok" : "FAILED"} (${o.seconds.toFixed(0)} s)\n`);
    if (o.output.trim() !== "") process.stdout.write(o.output);
  }
  if (!jestPassed || outcomes.some((o) => !o.ok)) process.exitCode = 1;
}

void main();
