// npm test's first stage: typecheck, lint and knip side by side while the e2e builds are made, so
// two cores stay busy (each check is single-threaded; one after another they left a core idle).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildForE2e } from "./e2e/global-setup";
import { ROOT } from "./e2e/paths";

/** The package.json scripts this stage runs; each must pass before jest starts. */
const SCRIPTS = ["typecheck", "lint", "knip"];

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

async function buildStep(): Promise<Outcome> {
  const started = Date.now();
  const outcome = (ok: boolean, output: string): Outcome => ({
    name: "e2e build",
    ok,
    seconds: (Date.now() - started) / 1000,
    output,
  });
  try {
    // The same function the e2e project's globalSetup calls: there it then finds the builds made
    // from the same inputs and skips them.
    await buildForE2e();
    return outcome(true, "");
  } catch (err) {
    return outcome(false, `${err instanceof Error ? err.message : String(err)}\n`);
  }
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kaisha-checks-"));
  const outcomes = await Promise.all([...SCRIPTS.map((s) => runScript(s, dir)), buildStep()]);
  fs.rmSync(dir, { recursive: true, force: true });
  for (const o of outcomes) {
    process.stdout.write(`── ${o.name}: ${o.ok ? "ok" : "FAILED"} (${o.seconds.toFixed(0)} s)\n`);
    if (o.output.trim() !== "") process.stdout.write(o.output);
  }
  if (outcomes.some((o) => !o.ok)) process.exitCode = 1;
}

void main();
